-- What sync remembers about the hub this journal is joined to. JournalKit keeps it; JournalSync
-- decides what it means.

-- The hub: at most one. hub_id is the hub's own random id, so re-joining another hub starts afresh.
CREATE TABLE sync_hub (
    singleton          INTEGER PRIMARY KEY CHECK (singleton = 1),
    hub_id             TEXT NOT NULL,
    kind               TEXT NOT NULL,               -- 'folder'
    location           TEXT NOT NULL,               -- the folder's path
    published_through  INTEGER NOT NULL DEFAULT 0,  -- local seq up to which this device's changes are on the hub
    last_sync_at       INTEGER,                     -- UTC Unix milliseconds of the last sync that ran
    last_sync_result   TEXT                         -- what it moved, or why it failed
) STRICT;

-- Per hub and remote device: the highest position of that device's log applied here. Moves in the
-- same transaction as the changes it covers.
CREATE TABLE sync_anchors (
    hub_id     TEXT NOT NULL,
    device_id  TEXT NOT NULL,
    position   INTEGER NOT NULL,
    PRIMARY KEY (hub_id, device_id)
) STRICT, WITHOUT ROWID;

-- Every segment this journal wrote (or was about to write) to a hub, so that one it did not write,
-- under its own device id, gives away a database copied from another machine.
CREATE TABLE sync_published (
    hub_id  TEXT NOT NULL,
    first   INTEGER NOT NULL,
    last    INTEGER NOT NULL,
    PRIMARY KEY (hub_id, first, last)
) STRICT, WITHOUT ROWID;

-- Publishing reads this device's changes by sequence.
CREATE INDEX drinks_by_origin_seq ON drinks (origin, seq);
