-- What the nightly consolidation needs: session leases, archived messages with
-- a retention, summaries (of a session, a day, the profile's portrait) and runs.

ALTER TABLE sessions ADD COLUMN lease_owner TEXT;
ALTER TABLE sessions ADD COLUMN lease_until TEXT;
ALTER TABLE sessions ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
CREATE INDEX sessions_due ON sessions (profile_id, status, last_message_at);

-- Messages of consolidated sessions, kept `archive_days` then purged.
CREATE TABLE archived_messages (
    id           TEXT PRIMARY KEY,
    session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    profile_id   TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    role         TEXT NOT NULL,
    content      TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    meta         TEXT NOT NULL DEFAULT '{}',
    archived_at  TEXT NOT NULL,
    purge_after  TEXT NOT NULL
);
CREATE INDEX archived_messages_by_session ON archived_messages (session_id, seq);
CREATE INDEX archived_messages_due ON archived_messages (profile_id, purge_after);

CREATE TABLE summaries (
    id            TEXT PRIMARY KEY,
    profile_id    TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CHECK (kind IN ('session', 'day', 'portrait')),
    text          TEXT NOT NULL,
    period_start  TEXT,
    period_end    TEXT,
    session_id    TEXT REFERENCES sessions (id) ON DELETE SET NULL,
    sources       TEXT NOT NULL DEFAULT '[]',
    created_at    TEXT NOT NULL,
    embedding     BLOB
);
CREATE INDEX summaries_by_kind ON summaries (profile_id, kind, period_start);
CREATE VIRTUAL TABLE summaries_fts USING fts5 (
    text,
    content = 'summaries',
    content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER summaries_fts_insert AFTER INSERT ON summaries BEGIN
    INSERT INTO summaries_fts (rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER summaries_fts_delete AFTER DELETE ON summaries BEGIN
    INSERT INTO summaries_fts (summaries_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
END;

-- One consolidation run; its counters and rejections as JSON.
CREATE TABLE runs (
    id           TEXT PRIMARY KEY,
    profile_id   TEXT,
    started_at   TEXT NOT NULL,
    finished_at  TEXT,
    status       TEXT NOT NULL,
    body         TEXT NOT NULL
);
CREATE INDEX runs_by_start ON runs (started_at);
