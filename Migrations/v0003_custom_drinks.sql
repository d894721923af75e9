-- Drinks people define themselves (`journal drinks add NAME --mg N`). They sync like drinks: a
-- tombstone when removed, the hybrid clock and device of the last write, and a place in the same
-- local change sequence as the drinks table.
CREATE TABLE custom_drinks (
    name        TEXT PRIMARY KEY NOT NULL,                   -- lowercase with dashes, like the catalog
    caffeine_mg REAL NOT NULL CHECK (caffeine_mg >= 0 AND caffeine_mg <= 1000),
    deleted     INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
    hlc         INTEGER NOT NULL,
    origin      TEXT NOT NULL,
    seq         INTEGER NOT NULL UNIQUE
) STRICT;

CREATE INDEX custom_drinks_by_origin_seq ON custom_drinks (origin, seq);
