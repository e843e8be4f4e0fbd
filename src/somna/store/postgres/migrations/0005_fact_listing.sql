-- Facts listed newest first, a page at a time (the dashboard, `somna facts list`):
-- an index in exactly the listing's order, so a page is found without sorting every
-- fact of the profile.

CREATE INDEX facts_by_valid_time ON facts (profile_id, valid_from DESC, recorded_at DESC, id);
