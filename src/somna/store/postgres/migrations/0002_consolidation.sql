-- What the nightly consolidation needs: session leases, archived messages with
-- a retention, summaries (of a session, a day, the profile's portrait) and runs.

ALTER TABLE sessions ADD COLUMN lease_owner text;
ALTER TABLE sessions ADD COLUMN lease_until timestamptz;
ALTER TABLE sessions ADD COLUMN attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0);
CREATE INDEX sessions_due ON sessions (profile_id, status, last_message_at);

-- Bumped by every summary added: the cache key of the in-process summary vectors.
ALTER TABLE profiles ADD COLUMN summaries_rev bigint NOT NULL DEFAULT 0;

-- Messages of consolidated sessions, kept `archive_days` then purged.
CREATE TABLE archived_messages (
    id           text PRIMARY KEY,
    session_id   text NOT NULL,
    profile_id   text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    seq          integer NOT NULL,
    role         text NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
    content      text NOT NULL,
    created_at   timestamptz NOT NULL,
    meta         jsonb NOT NULL DEFAULT '{}',
    archived_at  timestamptz NOT NULL,
    purge_after  timestamptz NOT NULL,
    FOREIGN KEY (profile_id, session_id) REFERENCES sessions (profile_id, id) ON DELETE CASCADE
);
CREATE INDEX archived_messages_by_session ON archived_messages (profile_id, session_id, seq);
CREATE INDEX archived_messages_due ON archived_messages (profile_id, purge_after);

-- session_id is a plain reference, as in SQLite, so that deleting a session only
-- unlinks its summary (a composite key would null profile_id too before
-- PostgreSQL 15); the store checks that the session is the profile's own.
CREATE TABLE summaries (
    id            text PRIMARY KEY,
    profile_id    text NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    kind          text NOT NULL CHECK (kind IN ('session', 'day', 'portrait')),
    text          text NOT NULL,
    period_start  timestamptz,
    period_end    timestamptz,
    session_id    text REFERENCES sessions (id) ON DELETE SET NULL,
    sources       jsonb NOT NULL DEFAULT '[]',
    created_at    timestamptz NOT NULL,
    text_config   text NOT NULL DEFAULT 'simple',
    tsv           tsvector GENERATED ALWAYS AS (somna_tsvector(text_config, text)) STORED
);
CREATE INDEX summaries_by_kind ON summaries (profile_id, kind, period_start);
CREATE INDEX summaries_text ON summaries USING gin (tsv);

-- Summary embeddings take the type migration 0001 gave to fact embeddings.
DO $$
BEGIN
    IF (SELECT t.typname FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
        WHERE a.attrelid = 'facts'::regclass AND a.attname = 'embedding') = 'vector' THEN
        EXECUTE 'ALTER TABLE summaries ADD COLUMN embedding vector';
    ELSE
        EXECUTE 'ALTER TABLE summaries ADD COLUMN embedding real[] CHECK '
            '(array_ndims(embedding) = 1 AND array_position(embedding, NULL) IS NULL)';
    END IF;
END
$$;

-- One consolidation run (runs span profiles); its counters and rejections as JSON.
CREATE TABLE runs (
    id           text PRIMARY KEY,
    profile_id   text,
    started_at   timestamptz NOT NULL,
    finished_at  timestamptz,
    status       text NOT NULL,
    body         jsonb NOT NULL
);
CREATE INDEX runs_by_start ON runs (started_at);
