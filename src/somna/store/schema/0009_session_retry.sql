-- A session whose consolidation failed waits before it is taken again, longer
-- after each failure, so a session that keeps failing is not the first one every
-- run picks (somna.consolidate.pipeline sets the time when it gives the lease back).

ALTER TABLE sessions ADD COLUMN next_attempt_at {{ timestamp }};
