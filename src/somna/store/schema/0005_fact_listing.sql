-- Facts listed newest first, a page at a time (the dashboard, `somna facts list`):
-- an index in exactly the listing's order (valid_from DESC, recorded_at DESC, id),
-- so a page is found without sorting every fact of the profile. SQLite's holds that
-- order reversed and reads it backwards.

{% if sqlite %}
CREATE INDEX facts_by_valid_time ON facts (profile_id, valid_from, recorded_at, id DESC);
{% else %}
CREATE INDEX facts_by_valid_time ON facts (profile_id, valid_from DESC, recorded_at DESC, id);
{% endif %}
