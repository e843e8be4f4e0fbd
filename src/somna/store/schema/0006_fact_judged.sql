-- When a fact was last judged against its neighbours of the same subject (NULL: never).
-- Consolidation judges what it extracts before writing it; a fact added through the
-- API, MCP or CLI is judged by the next nightly run, once. Facts consolidation made
-- before this column existed were judged then.

ALTER TABLE facts ADD COLUMN judged_at {{ timestamp }};

UPDATE facts SET judged_at = recorded_at
WHERE id IN (
    SELECT fact_id FROM fact_events WHERE action = 'created' AND actor = 'consolidation'
);
