{% from "macros.sql" import fts5, message_columns %}
-- What the nightly consolidation needs: session leases, archived messages with
-- a retention, summaries (of a session, a day, the profile's portrait) and runs.

ALTER TABLE sessions ADD COLUMN lease_owner {{ text }};
ALTER TABLE sessions ADD COLUMN lease_until {{ timestamp }};
{% if sqlite %}
ALTER TABLE sessions ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
{% else %}
ALTER TABLE sessions ADD COLUMN attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0);
{% endif %}
CREATE INDEX sessions_due ON sessions (profile_id, status, last_message_at);
{% if postgres %}

-- Bumped by every summary added: the cache key of the in-process summary vectors.
ALTER TABLE profiles ADD COLUMN summaries_rev bigint NOT NULL DEFAULT 0;
{% endif %}

-- Messages of consolidated sessions, kept `archive_days` then purged.
CREATE TABLE archived_messages (
{{ message_columns(" ", check_role=postgres) }}
    archived_at  {{ timestamp }} NOT NULL,
{% if sqlite %}
    purge_after  TEXT NOT NULL
);
CREATE INDEX archived_messages_by_session ON archived_messages (session_id, seq);
{% else %}
    purge_after  timestamptz NOT NULL,
    FOREIGN KEY (profile_id, session_id) REFERENCES sessions (profile_id, id) ON DELETE CASCADE
);
CREATE INDEX archived_messages_by_session ON archived_messages (profile_id, session_id, seq);
{% endif %}
CREATE INDEX archived_messages_due ON archived_messages (profile_id, purge_after);

-- session_id is a plain reference on Postgres too, so that deleting a session only
-- unlinks its summary (a composite key would null profile_id too before
-- PostgreSQL 15); the store checks that the session is the profile's own.
CREATE TABLE summaries (
    id            {{ text }} PRIMARY KEY,
    profile_id    {{ text }} NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    kind          {{ text }} NOT NULL CHECK (kind IN ('session', 'day', 'portrait')),
    text          {{ text }} NOT NULL,
    period_start  {{ timestamp }},
    period_end    {{ timestamp }},
    session_id    {{ text }} REFERENCES sessions (id) ON DELETE SET NULL,
    sources       {{ json }} NOT NULL DEFAULT '[]',
{% if sqlite %}
    created_at    TEXT NOT NULL,
    embedding     BLOB
);
CREATE INDEX summaries_by_kind ON summaries (profile_id, kind, period_start);
{{ fts5("summaries", text_changes=False) }}
{% else %}
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
{% endif %}

-- One consolidation run (runs span profiles); its counters and rejections as JSON.
CREATE TABLE runs (
    id           {{ text }} PRIMARY KEY,
    profile_id   {{ text }},
    started_at   {{ timestamp }} NOT NULL,
    finished_at  {{ timestamp }},
    status       {{ text }} NOT NULL,
    body         {{ json }} NOT NULL
);
CREATE INDEX runs_by_start ON runs (started_at);
