-- A run's rejections and failures name what a profile said (rejected fact texts,
-- session keys, errors), so they live apart from the run's counters: one row per
-- entry, under the profile of its session, erased with that profile. An entry is
-- written only while its session exists, so a run still in flight during an
-- erasure cannot write the erased profile's words back.

CREATE TABLE run_entries (
    run_id      {{ text }} NOT NULL,
    profile_id  {{ text }} NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    kind        {{ text }} NOT NULL CHECK (kind IN ('rejections', 'failures')),
    seq         {{ integer }} NOT NULL,
    body        {{ json }} NOT NULL,
    PRIMARY KEY (run_id, kind, seq)
);
CREATE INDEX run_entries_by_profile ON run_entries (profile_id);
{% if sqlite %}

INSERT INTO run_entries (run_id, profile_id, kind, seq, body)
SELECT r.id, s.profile_id, 'rejections', CAST(j.key AS INTEGER), j.value
FROM runs r, json_each(r.body, '$.rejections') j
JOIN sessions s ON s.id = json_extract(j.value, '$.session');

INSERT INTO run_entries (run_id, profile_id, kind, seq, body)
SELECT r.id, s.profile_id, 'failures', CAST(j.key AS INTEGER), j.value
FROM runs r, json_each(r.body, '$.failures') j
JOIN sessions s ON s.id = json_extract(j.value, '$.session');

UPDATE runs SET body = json_set(body, '$.rejections', json('[]'), '$.failures', json('[]'));
{% else %}

INSERT INTO run_entries (run_id, profile_id, kind, seq, body)
SELECT r.id, s.profile_id, e.kind, (j.ordinality - 1)::integer, j.value
FROM runs r
CROSS JOIN (VALUES ('rejections'), ('failures')) AS e (kind)
CROSS JOIN LATERAL jsonb_array_elements(coalesce(r.body -> e.kind, '[]'::jsonb))
    WITH ORDINALITY AS j (value, ordinality)
JOIN sessions s ON s.id = j.value ->> 'session';

UPDATE runs SET body = body || '{"rejections": [], "failures": []}'::jsonb;
{% endif %}

-- A run of an erased profile goes with it.
DELETE FROM runs WHERE profile_id IS NOT NULL
    AND profile_id NOT IN (SELECT id FROM profiles);
