-- The data model of DESIGN section 3: profiles, sessions, messages, facts with
-- their evidence and history, and conflicts. Timestamps are ISO 8601 UTC text
-- with microseconds, so they sort and compare as strings.

CREATE TABLE profiles (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    settings    TEXT NOT NULL DEFAULT '{}',
    created_at  TEXT NOT NULL,
    facts_rev   INTEGER NOT NULL DEFAULT 0   -- bumped by every write to facts: cache key
);

CREATE TABLE sessions (
    id               TEXT PRIMARY KEY,
    profile_id       TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    key              TEXT NOT NULL,
    started_at       TEXT NOT NULL,
    last_message_at  TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('open', 'closed', 'consolidated', 'archived')),
    consolidated_at  TEXT
);
CREATE INDEX sessions_by_key ON sessions (profile_id, key, started_at);
-- One live thread per key; a key reused after consolidation opens a new session.
CREATE UNIQUE INDEX sessions_one_live_per_key ON sessions (profile_id, key)
    WHERE status IN ('open', 'closed');

CREATE TABLE messages (
    id          TEXT PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
    content     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    meta        TEXT NOT NULL DEFAULT '{}',
    UNIQUE (session_id, seq)
);
CREATE INDEX messages_by_profile ON messages (profile_id, created_at);

CREATE TABLE facts (
    id                 TEXT PRIMARY KEY,
    profile_id         TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    type               TEXT NOT NULL
        CHECK (type IN ('fact', 'entity', 'glossary', 'instruction', 'persona', 'other')),
    category           TEXT,
    subject            TEXT NOT NULL,
    predicate          TEXT,
    object             TEXT,
    text               TEXT NOT NULL,
    text_hash          TEXT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN
        ('unverified', 'verified', 'disputed', 'superseded', 'retired', 'expired')),
    confidence         REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    valid_from         TEXT NOT NULL,
    valid_to           TEXT,
    recorded_at        TEXT NOT NULL,
    superseded_at      TEXT,
    superseded_by      TEXT REFERENCES facts (id) DEFERRABLE INITIALLY DEFERRED,
    retired_at         TEXT,
    first_observed_at  TEXT NOT NULL,
    last_verified_at   TEXT,
    expires_at         TEXT,
    last_recalled_at   TEXT,
    recall_count       INTEGER NOT NULL DEFAULT 0,
    strength           REAL NOT NULL DEFAULT 1.0,
    embedding          BLOB NOT NULL        -- float32, little-endian
);
-- DESIGN invariant 1: at most one active fact per (profile, type, subject, text_hash).
CREATE UNIQUE INDEX facts_one_active ON facts (profile_id, type, subject, text_hash)
    WHERE status IN ('unverified', 'verified');
CREATE INDEX facts_by_status ON facts (profile_id, status, valid_from);
CREATE INDEX facts_by_successor ON facts (superseded_by);

CREATE VIRTUAL TABLE facts_fts USING fts5 (
    text,
    content = 'facts',
    content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts BEGIN
    INSERT INTO facts_fts (rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER facts_fts_delete AFTER DELETE ON facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
CREATE TRIGGER facts_fts_update AFTER UPDATE OF text ON facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO facts_fts (rowid, text) VALUES (new.rowid, new.text);
END;

CREATE TABLE evidence (
    id           TEXT PRIMARY KEY,
    fact_id      TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    profile_id   TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    session_id   TEXT,
    message_id   TEXT,
    quote        TEXT NOT NULL,
    observed_at  TEXT NOT NULL
);
CREATE INDEX evidence_by_fact ON evidence (fact_id);

CREATE TABLE fact_events (
    id          TEXT PRIMARY KEY,
    fact_id     TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    at          TEXT NOT NULL,
    action      TEXT NOT NULL CHECK (action IN ('created', 'verified', 'reinforced', 'updated',
        'superseded', 'disputed', 'resolved', 'retired', 'expired', 'restored')),
    actor       TEXT NOT NULL,
    before      TEXT,
    after       TEXT
);
CREATE INDEX fact_events_by_fact ON fact_events (fact_id, at);
-- History is append-only: an event is never rewritten.
CREATE TRIGGER fact_events_append_only BEFORE UPDATE ON fact_events BEGIN
    SELECT RAISE(ABORT, 'fact history is append-only');
END;

CREATE TABLE conflicts (
    id                  TEXT PRIMARY KEY,
    profile_id          TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    fact_a              TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    fact_b              TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    status              TEXT NOT NULL CHECK (status IN ('open', 'deferred', 'resolved')),
    resolution          TEXT CHECK (resolution IN ('a_true', 'b_true', 'neither', 'corrected')),
    correction          TEXT,
    correction_fact_id  TEXT REFERENCES facts (id) DEFERRABLE INITIALLY DEFERRED,
    created_at          TEXT NOT NULL,
    deferred_until      TEXT,
    resolved_at         TEXT,
    resolved_by         TEXT
);
CREATE INDEX conflicts_by_status ON conflicts (profile_id, status);
CREATE INDEX conflicts_by_fact_a ON conflicts (fact_a);
CREATE INDEX conflicts_by_fact_b ON conflicts (fact_b);
