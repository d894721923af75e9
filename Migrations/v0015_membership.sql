-- Membership proven, not assumed (docs/DESIGN.md, "Who is a member").
--
-- What each kept card says beyond v0012's columns, and where it lay: the key epoch it was sealed
-- under ("NUMBER-IDHEX"; NULL for a card kept before this version, until it is read again), the
-- devices it vouches for (a line "DEVICE SIGNINGKEYHEX" each; NULL on a card of a journal from
-- before vouching), the invitation it joined with ("INVITATIONKEYHEX SIGNATUREHEX"), and the claims
-- of the invitations its device printed (a line of hex each).
ALTER TABLE sync_devices ADD COLUMN sealed_epoch TEXT;
ALTER TABLE sync_devices ADD COLUMN vouches TEXT;
ALTER TABLE sync_devices ADD COLUMN admission TEXT;
ALTER TABLE sync_devices ADD COLUMN invitations TEXT;

-- The invitation this journal joined its hub with, as its first card shows it, and what tells the
-- device that printed it (`Invitations.tag`: it finds the card claiming it): NULL when it joined with
-- the key alone.
ALTER TABLE sync_hub ADD COLUMN admission TEXT;
ALTER TABLE sync_hub ADD COLUMN invitation_tag BLOB;

-- Invitations this device printed (`journal sync key`): their public halves and the claim this
-- device's card makes of each; the secret is on the paper alone. The first device that joins with one
-- and shows it is vouched for by this device; a second is not.
CREATE TABLE sync_invitations (
    hub_id     TEXT NOT NULL,
    public_key BLOB NOT NULL,
    claim      BLOB NOT NULL,
    made_at    INTEGER NOT NULL,
    used_by    TEXT,
    PRIMARY KEY (hub_id, public_key)
) STRICT, WITHOUT ROWID;

-- Each card and key epoch record on the hub as the last sync that read it found it: by name (a
-- device id, an epoch's file name), with what tells whether it changed since (a folder's size,
-- times and inode; a server row's transaction and length), and what came of it. A sync reads again
-- only what changed, or what waited for a key (`keys`: the epochs held then) that is held now: so a
-- thousand junk files cost one reading, not one a sync.
CREATE TABLE sync_hub_items (
    hub_id      TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('card', 'epoch')),
    name        TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    outcome     TEXT NOT NULL CHECK (outcome IN ('taken', 'refused', 'waiting')),
    reason      TEXT,
    keys        TEXT,
    PRIMARY KEY (hub_id, kind, name)
) STRICT, WITHOUT ROWID;

-- The key epochs' records whose proof checked, as their bytes: a sync works the epochs out from
-- these and the records new on the hub, without reading every record again.
CREATE TABLE sync_epoch_records (
    hub_id TEXT NOT NULL,
    name   TEXT NOT NULL,
    bytes  BLOB NOT NULL,
    PRIMARY KEY (hub_id, name)
) STRICT, WITHOUT ROWID;

-- Notes about the hub a sync says once beside the files it set aside: changes of a revoked device this
-- journal kept, an invitation two devices used ('noted'). SQLite changes a CHECK only by making the
-- table anew.
CREATE TABLE sync_set_aside_new (
    hub_id     TEXT NOT NULL,
    device_id  TEXT NOT NULL,      -- the device whose log held it, or that the note is about
    name       TEXT NOT NULL,      -- its name in that log, or what the note is about
    reason     TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('moved', 'left', 'passed-over', 'noted')),
                                   -- moved to set-aside/ in the hub; left in this device's log, which the
                                   -- hub would not let it move; passed over in another device's log, or a
                                   -- card or key record refused; a note, said once
    at         INTEGER NOT NULL    -- UTC Unix milliseconds of the sync that found it
) STRICT;
INSERT INTO sync_set_aside_new (rowid, hub_id, device_id, name, reason, outcome, at)
    SELECT rowid, hub_id, device_id, name, reason, outcome, at FROM sync_set_aside;
DROP TABLE sync_set_aside;
ALTER TABLE sync_set_aside_new RENAME TO sync_set_aside;
