-- The devices of the hub as their cards last said (`journal sync devices`): name, public keys, the
-- key epoch each last read, when it last published and last synced. This device's own card is here
-- too: its name as chosen, and what it last wrote to the hub. The keys a device first showed are
-- the ones it is known by: a later card under its id with other keys is refused, not kept.
CREATE TABLE sync_devices (
    hub_id            TEXT NOT NULL,
    device_id         TEXT NOT NULL,
    name              TEXT NOT NULL,
    agreement_key     BLOB NOT NULL,
    signing_key       BLOB NOT NULL,
    epoch             INTEGER NOT NULL,
    written_at        INTEGER NOT NULL,
    published_at      INTEGER,
    synced_at         INTEGER,
    PRIMARY KEY (hub_id, device_id)
) STRICT, WITHOUT ROWID;
