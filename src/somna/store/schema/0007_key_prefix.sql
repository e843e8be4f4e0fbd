-- A key may reach every profile whose id starts with a prefix (one credential for a
-- bot's many users); such a profile is created on the key's first request for it.

ALTER TABLE api_keys ADD COLUMN prefix {{ text }};
