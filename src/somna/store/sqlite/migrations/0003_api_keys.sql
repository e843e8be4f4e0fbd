-- API keys of the REST and MCP servers. Only a hash of each secret is kept;
-- a key reaches the profiles it names, or all of them when it is an admin key.

CREATE TABLE api_keys (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    secret_hash   TEXT NOT NULL UNIQUE,
    profiles      TEXT NOT NULL DEFAULT '[]',
    admin         INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1)),
    created_at    TEXT NOT NULL,
    revoked_at    TEXT
);
