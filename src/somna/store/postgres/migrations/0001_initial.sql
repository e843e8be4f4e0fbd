-- The data model of DESIGN section 3 on PostgreSQL: profiles, sessions,
-- messages, facts with their evidence and history, and conflicts.
--
-- Differences from the SQLite schema, each for a reason:
-- * timestamps are timestamptz, scores are double precision, JSON is jsonb;
-- * every child row references its parent by (profile_id, id), so the database
--   itself refuses a row that points into another profile (invariant 7);
-- * evidence and fact_events carry an identity `seq`: the insertion order that
--   SQLite gets from rowid;
-- * full text is a generated tsvector with a GIN index, built with the text
--   search configuration stored on each fact (the profile's, fixed when the
--   profile is created);
-- * the embedding is a pgvector `vector` when the extension can be created,
--   and a `real[]` searched in process otherwise (see the end of this file).

CREATE TABLE profiles (
    id             text PRIMARY KEY,
    name           text NOT NULL,
    settings       jsonb NOT NULL DEFAULT '{}',
    created_at     timestamptz NOT NULL,
    facts_rev      bigint NOT NULL DEFAULT 0,   -- bumped by every write to facts: cache key
    text_config    text NOT NULL DEFAULT 'simple',
    embedding_dim  integer CHECK (embedding_dim > 0)   -- fixed by the profile's first fact
);

CREATE TABLE sessions (
    id               text PRIMARY KEY,
    profile_id       text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    key              text NOT NULL,
    started_at       timestamptz NOT NULL,
    last_message_at  timestamptz NOT NULL,
    status           text NOT NULL
        CHECK (status IN ('open', 'closed', 'consolidated', 'archived')),
    consolidated_at  timestamptz,
    UNIQUE (profile_id, id)
);
CREATE INDEX sessions_by_key ON sessions (profile_id, key, started_at);
-- One live thread per key; a key reused after consolidation opens a new session.
CREATE UNIQUE INDEX sessions_one_live_per_key ON sessions (profile_id, key)
    WHERE status IN ('open', 'closed');

CREATE TABLE messages (
    id          text PRIMARY KEY,
    session_id  text NOT NULL,
    profile_id  text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    seq         integer NOT NULL,
    role        text NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
    content     text NOT NULL,
    created_at  timestamptz NOT NULL,
    meta        jsonb NOT NULL DEFAULT '{}',
    UNIQUE (session_id, seq),
    FOREIGN KEY (profile_id, session_id) REFERENCES sessions (profile_id, id) ON DELETE CASCADE
);
CREATE INDEX messages_by_profile ON messages (profile_id, created_at);

-- to_tsvector(regconfig, text) is immutable but a text -> regconfig cast is only
-- stable, so a generated column needs this wrapper. The configuration is kept as
-- a name, not a regconfig column: pg_upgrade refuses tables holding regconfig.
CREATE FUNCTION somna_tsvector(config text, body text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT to_tsvector(config::regconfig, body) $$;

CREATE TABLE facts (
    id                 text PRIMARY KEY,
    profile_id         text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    type               text NOT NULL
        CHECK (type IN ('fact', 'entity', 'glossary', 'instruction', 'persona', 'other')),
    category           text,
    subject            text NOT NULL,
    predicate          text,
    object             text,
    text               text NOT NULL,
    text_hash          text NOT NULL,
    status             text NOT NULL CHECK (status IN
        ('unverified', 'verified', 'disputed', 'superseded', 'retired', 'expired')),
    confidence         double precision NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    valid_from         timestamptz NOT NULL,
    valid_to           timestamptz,
    recorded_at        timestamptz NOT NULL,
    superseded_at      timestamptz,
    superseded_by      text,
    retired_at         timestamptz,
    first_observed_at  timestamptz NOT NULL,
    last_verified_at   timestamptz,
    expires_at         timestamptz,
    last_recalled_at   timestamptz,
    recall_count       integer NOT NULL DEFAULT 0,
    strength           double precision NOT NULL DEFAULT 1.0,
    text_config        text NOT NULL DEFAULT 'simple',
    tsv                tsvector GENERATED ALWAYS AS (somna_tsvector(text_config, text)) STORED,
    UNIQUE (profile_id, id),
    FOREIGN KEY (profile_id, superseded_by) REFERENCES facts (profile_id, id)
        DEFERRABLE INITIALLY DEFERRED
);
-- DESIGN invariant 1: at most one active fact per (profile, type, subject, text_hash).
CREATE UNIQUE INDEX facts_one_active ON facts (profile_id, type, subject, text_hash)
    WHERE status IN ('unverified', 'verified');
CREATE INDEX facts_by_status ON facts (profile_id, status, valid_from);
CREATE INDEX facts_by_successor ON facts (profile_id, superseded_by);
CREATE INDEX facts_text ON facts USING gin (tsv);

CREATE TABLE evidence (
    id           text PRIMARY KEY,
    seq          bigint GENERATED ALWAYS AS IDENTITY,
    fact_id      text NOT NULL,
    profile_id   text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    session_id   text,
    message_id   text,
    quote        text NOT NULL,
    observed_at  timestamptz NOT NULL,
    FOREIGN KEY (profile_id, fact_id) REFERENCES facts (profile_id, id) ON DELETE CASCADE
);
CREATE INDEX evidence_by_fact ON evidence (profile_id, fact_id);

CREATE TABLE fact_events (
    id          text PRIMARY KEY,
    seq         bigint GENERATED ALWAYS AS IDENTITY,
    fact_id     text NOT NULL,
    profile_id  text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    at          timestamptz NOT NULL,
    action      text NOT NULL CHECK (action IN ('created', 'verified', 'reinforced', 'updated',
        'superseded', 'disputed', 'resolved', 'retired', 'expired', 'restored')),
    actor       text NOT NULL,
    before      jsonb,
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

CREATE TABLE conflicts (
    id                  text PRIMARY KEY,
    profile_id          text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    fact_a              text NOT NULL,
    fact_b              text NOT NULL,
    status              text NOT NULL CHECK (status IN ('open', 'deferred', 'resolved')),
    resolution          text CHECK (resolution IN ('a_true', 'b_true', 'neither', 'corrected')),
    correction          text,
    correction_fact_id  text,
    created_at          timestamptz NOT NULL,
    deferred_until      timestamptz,
    resolved_at         timestamptz,
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
