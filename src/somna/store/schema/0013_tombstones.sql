-- A profile erased by `forget` leaves a tombstone: the SHA-256 of its id and when,
-- nothing else, so that an import from a chat table does not create it again from
-- rows Somna could not delete. No profile_id column: erasure leaves it in place.

CREATE TABLE tombstones (
    profile_hash    {{ text }} PRIMARY KEY,
    forgotten_at    {{ timestamp }} NOT NULL
);
