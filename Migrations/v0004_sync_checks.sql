-- What lets a device check its own log on the hub at every sync, and tell a waiting reader how long
-- it has waited.

-- The size and modification time of each segment as this journal wrote it: a segment that no longer
-- matches is read again, and written again when it no longer opens. NULL for segments written before
-- this column existed: they are checked once.
ALTER TABLE sync_published ADD COLUMN fingerprint TEXT;

-- Positions of another device's log that this journal waits for (a later segment is on the hub, an
-- earlier one is not), and since when: `journal sync status` says who waits for what, and how long.
CREATE TABLE sync_waiting (
    hub_id     TEXT NOT NULL,
    device_id  TEXT NOT NULL,
    first      INTEGER NOT NULL,
    last       INTEGER NOT NULL,
    since      INTEGER NOT NULL,        -- UTC Unix milliseconds when this journal first found the gap
    PRIMARY KEY (hub_id, device_id)
) STRICT, WITHOUT ROWID;
