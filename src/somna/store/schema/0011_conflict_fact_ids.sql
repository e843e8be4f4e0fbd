-- A conflict's two facts are ids: name them so, as correction_fact_id already is
-- (the domain type `Conflict` says fact_a_id and fact_b_id; `ConflictPair.fact_a` is the fact).
ALTER TABLE conflicts RENAME COLUMN fact_a TO fact_a_id;
ALTER TABLE conflicts RENAME COLUMN fact_b TO fact_b_id;
