-- French full text beside the profile's own configuration: the text lower-cased with its
-- accents folded, then Postgres's `french` configuration (elisions split off, French stop
-- words out, Snowball French stems), as somna.store.french does it for SQLite. Stored and
-- indexed; adding the column computes it for every existing fact.
CREATE FUNCTION somna_fold(body text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT translate(lower(body), 'àáâãäåāçćčèéêëēėęîïíīìñńôöòóõøōùúûüūÿýœæ', 'aaaaaaaccceeeeeeeiiiiinnooooooouuuuuyyoa') $$;

CREATE FUNCTION somna_french_tsvector(body text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT to_tsvector('french'::regconfig, somna_fold(body)) $$;

ALTER TABLE facts ADD COLUMN tsv_french tsvector
    GENERATED ALWAYS AS (somna_french_tsvector(text)) STORED;
CREATE INDEX facts_french ON facts USING gin (tsv_french);
