-- How far Somna has read each conversation of an external chat table (the n8n /
-- LangChain source, somna.sources.n8n): one row per segment, the burst of source
-- rows (after_row_id, last_row_id] of one source session id that became one Somna
-- session. A cursor is written in the transaction of the messages it imported,
-- so a source row is never imported twice; it goes with its profile on erasure.

CREATE TABLE source_cursors (
    profile_id           {{ text }} NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    source               {{ text }} NOT NULL,
    key                  {{ text }} NOT NULL,
    segment              {{ integer }} NOT NULL CHECK (segment >= 1),
    session_key          {{ text }} NOT NULL,
    after_row_id         {{ bigint }} NOT NULL,
    last_row_id          {{ bigint }} NOT NULL CHECK (last_row_id > after_row_id),
    last_change_seen_at  {{ timestamp }} NOT NULL,
    purged_at            {{ timestamp }},
    PRIMARY KEY (profile_id, source, key, segment)
);
CREATE INDEX source_cursors_by_key ON source_cursors (source, key, segment);
