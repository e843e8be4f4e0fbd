-- The running summary of a live conversation (somna.memory.thread): the turns up
-- to `folded_seq` are told in `summary`, so a long thread fits a prompt budget.
-- The turns themselves stay in `messages` for the nightly job. A row goes with
-- its session (merge, erasure).

CREATE TABLE session_threads (
    session_id  TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    folded_seq  INTEGER NOT NULL CHECK (folded_seq >= 0),
    summary     TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX session_threads_by_profile ON session_threads (profile_id);
