-- The personal model absorbs a drink at its kind's rate (soft drinks and chocolate slowly), so
-- `journal status` reads each drink's kind with its caffeine and time: with `kind` among the index's
-- columns, the window is still read from the index alone (a test checks the plan).
DROP INDEX drinks_live_by_time;
CREATE INDEX drinks_live_by_time ON drinks (consumed_at, caffeine_mg, kind, deleted) WHERE deleted = 0;
