-- The embedder that made the database's vectors, and a re-embedding under way
-- (`somna reembed`): its target and, per kind, the id of the last row done.
CREATE TABLE embedder (
    id              {{ integer }} PRIMARY KEY CHECK (id = 1),
    name            {{ text }},
    dim             {{ integer }} CHECK (dim > 0),
    target_name     {{ text }},
    target_dim      {{ integer }} CHECK (target_dim > 0),
    facts_after     {{ text }},
    summaries_after {{ text }},
    CHECK ((name IS NULL) = (dim IS NULL)),
    CHECK ((target_name IS NULL) = (target_dim IS NULL))
);
