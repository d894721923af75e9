-- v0006 meant `journal status` to read its window from the index alone, but SQLite (3.40) does not
-- count a partial index's WHERE clause as covering the query's own `deleted = 0`: it fetched every
-- drink of the window from the table after all. With `deleted` among the index's columns the index
-- covers the query, and the plan says so (`USING COVERING INDEX`; a test checks it).
DROP INDEX drinks_live_by_time;
CREATE INDEX drinks_live_by_time ON drinks (consumed_at, caffeine_mg, deleted) WHERE deleted = 0;
