-- A dashboard login ended by its logout: the SHA-256 of its nonce, and when the login
-- would have ended by itself (after that the row is of no use and is deleted). Every
-- server process reads it, so a copy of the cookie is refused by all of them.
-- No profile_id column: a login is a key's, not a profile's.

CREATE TABLE logouts (
    login_hash      {{ text }} PRIMARY KEY,
    until           {{ timestamp }} NOT NULL
);
