{% if sqlite %}
-- French full text beside the English index: each fact's text folded by
-- somna.store.french (elisions and stop words out, accents folded, Snowball French
-- stems), computed by the function `somna_french` that the store registers on each
-- connection. The index holds no copy of the text (contentless).
CREATE VIRTUAL TABLE facts_french USING fts5 (
    stems,
    content = '',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER facts_french_insert AFTER INSERT ON facts BEGIN
    INSERT INTO facts_french (rowid, stems) VALUES (new.rowid, somna_french(new.text));
END;
CREATE TRIGGER facts_french_delete AFTER DELETE ON facts BEGIN
    INSERT INTO facts_french (facts_french, rowid, stems)
    VALUES ('delete', old.rowid, somna_french(old.text));
END;
CREATE TRIGGER facts_french_update AFTER UPDATE OF text ON facts BEGIN
    INSERT INTO facts_french (facts_french, rowid, stems)
    VALUES ('delete', old.rowid, somna_french(old.text));
    INSERT INTO facts_french (rowid, stems) VALUES (new.rowid, somna_french(new.text));
END;
INSERT INTO facts_french (rowid, stems) SELECT rowid, somna_french(text) FROM facts;
{% else %}
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
{% endif %}
