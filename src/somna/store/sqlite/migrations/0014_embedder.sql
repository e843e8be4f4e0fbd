-- The embedder that made the database's vectors, and a re-embedding under way
-- (`somna reembed`): its target and, per kind, the id of the last row done.
CREATE TABLE embedder (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    name            TEXT,
    dim             INTEGER CHECK (dim > 0),
    target_name     TEXT,
    target_dim      INTEGER CHECK (target_dim > 0),
    facts_after     TEXT,
    summaries_after TEXT,
    CHECK ((name IS NULL) = (dim IS NULL)),
    CHECK ((target_name IS NULL) = (target_dim IS NULL))
);
