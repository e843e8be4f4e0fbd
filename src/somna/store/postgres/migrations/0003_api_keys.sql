-- API keys of the REST and MCP servers. Only a hash of each secret is kept;
-- a key reaches the profiles it names, or all of them when it is an admin key.

CREATE TABLE api_keys (
    id            text PRIMARY KEY,
    name          text NOT NULL,
    secret_hash   text NOT NULL UNIQUE,
    profiles      jsonb NOT NULL DEFAULT '[]',
    admin         boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL,
    revoked_at    timestamptz
);
