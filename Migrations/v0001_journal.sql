-- The journal: every drink ever recorded, with what sync needs to merge it.
-- Times are UTC Unix milliseconds; the views below show them as local time.

CREATE TABLE drinks (
    id          TEXT PRIMARY KEY NOT NULL,                   -- lowercase UUID, the same on every machine
    kind        TEXT NOT NULL,                               -- catalog name, such as 'espresso'
    caffeine_mg REAL NOT NULL CHECK (caffeine_mg >= 0 AND caffeine_mg <= 1000),
    consumed_at INTEGER NOT NULL,                            -- UTC Unix milliseconds
    note        TEXT,
    deleted     INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),  -- 1: a tombstone, kept so deletions sync
    hlc         INTEGER NOT NULL,                            -- hybrid logical clock of the last write
    origin      TEXT NOT NULL,                               -- device that made the last write
    seq         INTEGER NOT NULL UNIQUE                      -- local change sequence: what anchors count
) STRICT;

-- Status, list and the views read live drinks by time.
CREATE INDEX drinks_live_by_time ON drinks (consumed_at) WHERE deleted = 0;

-- This journal's own settings: device_id (random, made when the journal is created) and hlc (the
-- hybrid logical clock's last reading).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value ANY
) STRICT, WITHOUT ROWID;

-- What `journal undo` can revert: the state of each drink before a change made on this machine.
-- The before_ columns are all NULL when the change created the drink.
CREATE TABLE undo_log (
    change_id          INTEGER NOT NULL,                     -- one command: an add, an rm of several ids, ...
    action             TEXT NOT NULL,                        -- add, rm, edit, import
    drink_id           TEXT NOT NULL,
    before_kind        TEXT,
    before_caffeine_mg REAL,
    before_consumed_at INTEGER,
    before_note        TEXT,
    before_deleted     INTEGER,
    after_hlc          INTEGER NOT NULL,                     -- the clock the change wrote: undo refuses if it moved
    PRIMARY KEY (change_id, drink_id)
) STRICT;

-- Undo looks up a drink's earlier changes.
CREATE INDEX undo_log_by_drink ON undo_log (drink_id, change_id);

-- Live drinks, oldest first, with local times.
CREATE VIEW history AS
SELECT id,
       kind AS drink,
       caffeine_mg,
       strftime('%Y-%m-%d %H:%M:%S', consumed_at / 1000, 'unixepoch', 'localtime') AS consumed_at,
       note,
       consumed_at AS consumed_at_ms
FROM drinks
WHERE deleted = 0
ORDER BY consumed_at_ms;

-- One row per local day that has drinks.
CREATE VIEW daily_totals AS
SELECT date(consumed_at / 1000, 'unixepoch', 'localtime') AS day,
       count(*) AS drinks,
       round(sum(caffeine_mg), 1) AS caffeine_mg
FROM drinks
WHERE deleted = 0
GROUP BY day
ORDER BY day;
