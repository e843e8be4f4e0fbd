-- API keys of the REST and MCP servers. Only a hash of each secret is kept;
-- a key reaches the profiles it names, or all of them when it is an admin key.

CREATE TABLE api_keys (
    id            {{ text }} PRIMARY KEY,
    name          {{ text }} NOT NULL,
    secret_hash   {{ text }} NOT NULL UNIQUE,
    profiles      {{ json }} NOT NULL DEFAULT '[]',
{% if sqlite %}
    admin         INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1)),
{% else %}
    admin         boolean NOT NULL DEFAULT false,
{% endif %}
    created_at    {{ timestamp }} NOT NULL,
    revoked_at    {{ timestamp }}
);
