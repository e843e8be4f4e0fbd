{% from "macros.sql" import fact_row_columns, fts5, message_columns %}
-- The data model of DESIGN section 3: profiles, sessions, messages, facts with
-- their evidence and history, and conflicts. On SQLite, timestamps are ISO 8601
-- UTC text with microseconds, so they sort and compare as strings.
--
-- PostgreSQL differs, each for a reason:
-- * timestamps are timestamptz, scores are double precision, JSON is jsonb;
-- * every child row references its parent by (profile_id, id), in a foreign key
--   at the table's end, so the database itself refuses a row that points into
--   another profile (invariant 7); SQLite references the parent's id on the column;
-- * evidence and fact_events carry an identity `seq`: the insertion order that
--   SQLite gets from rowid;
-- * full text is a generated tsvector with a GIN index, built with the text
--   search configuration stored on each fact (the profile's, fixed when the
--   profile is created), where SQLite keeps an FTS5 index by triggers;
-- * the embedding is a pgvector `vector` when the extension can be created,
--   and a `real[]` searched in process otherwise (see the end of this file),
--   where SQLite keeps a BLOB.

CREATE TABLE profiles (
    id          {{ text }} PRIMARY KEY,
    name        {{ text }} NOT NULL,
    settings    {{ json }} NOT NULL DEFAULT '{}',
    created_at  {{ timestamp }} NOT NULL,
{% if sqlite %}
    facts_rev   INTEGER NOT NULL DEFAULT 0   -- bumped by every write to facts: cache key
{% else %}
    facts_rev      bigint NOT NULL DEFAULT 0,   -- bumped by every write to facts: cache key
    text_config    text NOT NULL DEFAULT 'simple',
    embedding_dim  integer CHECK (embedding_dim > 0)   -- fixed by the profile's first fact
{% endif %}
);

CREATE TABLE sessions (
    id               {{ text }} PRIMARY KEY,
    profile_id       {{ text }} NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    key              {{ text }} NOT NULL,
    started_at       {{ timestamp }} NOT NULL,
    last_message_at  {{ timestamp }} NOT NULL,
    status           {{ text }} NOT NULL CHECK (status IN ('open', 'closed', 'consolidated', 'archived')),
{% if sqlite %}
    consolidated_at  TEXT
{% else %}
    consolidated_at  timestamptz,
    UNIQUE (profile_id, id)
{% endif %}
);
CREATE INDEX sessions_by_key ON sessions (profile_id, key, started_at);
-- One live thread per key; a key reused after consolidation opens a new session.
CREATE UNIQUE INDEX sessions_one_live_per_key ON sessions (profile_id, key)
    WHERE status IN ('open', 'closed');

CREATE TABLE messages (
{{ message_columns("", check_role=True) }}
{% if sqlite %}
    UNIQUE (session_id, seq)
{% else %}
    UNIQUE (session_id, seq),
    FOREIGN KEY (profile_id, session_id) REFERENCES sessions (profile_id, id) ON DELETE CASCADE
{% endif %}
);
CREATE INDEX messages_by_profile ON messages (profile_id, created_at);
{% if postgres %}

-- to_tsvector(regconfig, text) is immutable but a text -> regconfig cast is only
-- stable, so a generated column needs this wrapper. The configuration is kept as
-- a name, not a regconfig column: pg_upgrade refuses tables holding regconfig.
CREATE FUNCTION somna_tsvector(config text, body text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT to_tsvector(config::regconfig, body) $$;
{% endif %}

CREATE TABLE facts (
    id                 {{ text }} PRIMARY KEY,
    profile_id         {{ text }} NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    type               {{ text }} NOT NULL
        CHECK (type IN ('fact', 'entity', 'glossary', 'instruction', 'persona', 'other')),
    category           {{ text }},
    subject            {{ text }} NOT NULL,
    predicate          {{ text }},
    object             {{ text }},
    text               {{ text }} NOT NULL,
    text_hash          {{ text }} NOT NULL,
    status             {{ text }} NOT NULL CHECK (status IN
        ('unverified', 'verified', 'disputed', 'superseded', 'retired', 'expired')),
    confidence         {{ real }} NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    valid_from         {{ timestamp }} NOT NULL,
    valid_to           {{ timestamp }},
    recorded_at        {{ timestamp }} NOT NULL,
    superseded_at      {{ timestamp }},
    superseded_by      {{ text }}{% if sqlite %} REFERENCES facts (id) DEFERRABLE INITIALLY DEFERRED{% endif %},
    retired_at         {{ timestamp }},
    first_observed_at  {{ timestamp }} NOT NULL,
    last_verified_at   {{ timestamp }},
    expires_at         {{ timestamp }},
    last_recalled_at   {{ timestamp }},
    recall_count       {{ integer }} NOT NULL DEFAULT 0,
    strength           {{ real }} NOT NULL DEFAULT 1.0,
{% if sqlite %}
    embedding          BLOB NOT NULL        -- float32, little-endian
{% else %}
    text_config        text NOT NULL DEFAULT 'simple',
    tsv                tsvector GENERATED ALWAYS AS (somna_tsvector(text_config, text)) STORED,
    UNIQUE (profile_id, id),
    FOREIGN KEY (profile_id, superseded_by) REFERENCES facts (profile_id, id)
        DEFERRABLE INITIALLY DEFERRED
{% endif %}
);
-- DESIGN invariant 1: at most one active fact per (profile, type, subject, text_hash).
CREATE UNIQUE INDEX facts_one_active ON facts (profile_id, type, subject, text_hash)
    WHERE status IN ('unverified', 'verified');
CREATE INDEX facts_by_status ON facts (profile_id, status, valid_from);
{% if sqlite %}
CREATE INDEX facts_by_successor ON facts (superseded_by);

{{ fts5("facts", text_changes=True) }}
{% else %}
CREATE INDEX facts_by_successor ON facts (profile_id, superseded_by);
CREATE INDEX facts_text ON facts USING gin (tsv);
{% endif %}

CREATE TABLE evidence (
{{ fact_row_columns(" ") }}
    session_id   {{ text }},
    message_id   {{ text }},
    quote        {{ text }} NOT NULL,
{% if sqlite %}
    observed_at  TEXT NOT NULL
);
CREATE INDEX evidence_by_fact ON evidence (fact_id);
{% else %}
    observed_at  timestamptz NOT NULL,
    FOREIGN KEY (profile_id, fact_id) REFERENCES facts (profile_id, id) ON DELETE CASCADE
);
CREATE INDEX evidence_by_fact ON evidence (profile_id, fact_id);
{% endif %}

CREATE TABLE fact_events (
{{ fact_row_columns("") }}
    at          {{ timestamp }} NOT NULL,
    action      {{ text }} NOT NULL CHECK (action IN ('created', 'verified', 'reinforced', 'updated',
        'superseded', 'disputed', 'resolved', 'retired', 'expired', 'restored')),
    actor       {{ text }} NOT NULL,
    before      {{ json }},
{% if sqlite %}
    after       TEXT
);
CREATE INDEX fact_events_by_fact ON fact_events (fact_id, at);
-- History is append-only: an event is never rewritten.
CREATE TRIGGER fact_events_append_only BEFORE UPDATE ON fact_events BEGIN
    SELECT RAISE(ABORT, 'fact history is append-only');
END;
{% else %}
    after       jsonb,
    FOREIGN KEY (profile_id, fact_id) REFERENCES facts (profile_id, id) ON DELETE CASCADE
);
CREATE INDEX fact_events_by_fact ON fact_events (profile_id, fact_id, at);

-- History is append-only: an event is never rewritten. The error is an integrity
-- violation (SQLSTATE 23000), as SQLite's RAISE(ABORT) in its trigger is.
CREATE FUNCTION somna_fact_events_append_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'fact history is append-only' USING ERRCODE = 'integrity_constraint_violation';
END
$$;
CREATE TRIGGER fact_events_append_only BEFORE UPDATE ON fact_events
    FOR EACH ROW EXECUTE FUNCTION somna_fact_events_append_only();
{% endif %}

CREATE TABLE conflicts (
    id                  {{ text }} PRIMARY KEY,
    profile_id          {{ text }} NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    fact_a              {{ text }} NOT NULL{% if sqlite %} REFERENCES facts (id) ON DELETE CASCADE{% endif %},
    fact_b              {{ text }} NOT NULL{% if sqlite %} REFERENCES facts (id) ON DELETE CASCADE{% endif %},
    status              {{ text }} NOT NULL CHECK (status IN ('open', 'deferred', 'resolved')),
    resolution          {{ text }} CHECK (resolution IN ('a_true', 'b_true', 'neither', 'corrected')),
    correction          {{ text }},
    correction_fact_id  {{ text }}{% if sqlite %} REFERENCES facts (id) DEFERRABLE INITIALLY DEFERRED{% endif %},
    created_at          {{ timestamp }} NOT NULL,
    deferred_until      {{ timestamp }},
    resolved_at         {{ timestamp }},
{% if sqlite %}
    resolved_by         TEXT
);
CREATE INDEX conflicts_by_status ON conflicts (profile_id, status);
CREATE INDEX conflicts_by_fact_a ON conflicts (fact_a);
CREATE INDEX conflicts_by_fact_b ON conflicts (fact_b);
{% else %}
    resolved_by         text,
    FOREIGN KEY (profile_id, fact_a) REFERENCES facts (profile_id, id) ON DELETE CASCADE,
    FOREIGN KEY (profile_id, fact_b) REFERENCES facts (profile_id, id) ON DELETE CASCADE,
    FOREIGN KEY (profile_id, correction_fact_id) REFERENCES facts (profile_id, id)
        DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX conflicts_by_status ON conflicts (profile_id, status);
CREATE INDEX conflicts_by_fact_a ON conflicts (profile_id, fact_a);
CREATE INDEX conflicts_by_fact_b ON conflicts (profile_id, fact_b);

-- Embeddings. pgvector when the extension exists or can be created here: a
-- `vector` column of no fixed dimension (profiles may use different embedders;
-- profiles.embedding_dim holds each one to its first), searched exactly in SQL.
-- Otherwise a real[] column that the store loads and searches in process. The
-- choice is made once, by this migration; the store reads it back from the
-- column's type.
DO $$
BEGIN
    BEGIN
        CREATE EXTENSION IF NOT EXISTS vector;
    EXCEPTION WHEN OTHERS THEN
        NULL;  -- not installed on this server, or not allowed: keep real[]
    END;
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
        EXECUTE 'ALTER TABLE facts ADD COLUMN embedding vector NOT NULL';
    ELSE
        EXECUTE 'ALTER TABLE facts ADD COLUMN embedding real[] NOT NULL CHECK '
            '(array_ndims(embedding) = 1 AND array_position(embedding, NULL) IS NULL)';
    END IF;
END
$$;
{% endif %}
