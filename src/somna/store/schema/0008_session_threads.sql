-- The running summary of a live conversation (somna.memory.thread): the turns up
-- to `folded_seq` are told in `summary`, so a long thread fits a prompt budget.
-- The turns themselves stay in `messages` for the nightly job. A row goes with
-- its session (merge, erasure), and on Postgres cannot point into another profile.

CREATE TABLE session_threads (
    session_id  {{ text }} PRIMARY KEY{% if sqlite %} REFERENCES sessions (id) ON DELETE CASCADE{% endif %},
    profile_id  {{ text }} NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    folded_seq  {{ integer }} NOT NULL CHECK (folded_seq >= 0),
    summary     {{ text }} NOT NULL,
{% if sqlite %}
    updated_at  TEXT NOT NULL
{% else %}
    updated_at  timestamptz NOT NULL,
    FOREIGN KEY (profile_id, session_id) REFERENCES sessions (profile_id, id) ON DELETE CASCADE
{% endif %}
);
CREATE INDEX session_threads_by_profile ON session_threads (profile_id);
