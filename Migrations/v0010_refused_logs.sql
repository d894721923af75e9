-- Logs of devices that are no members of the hub: on a hub whose segments never change (a PostgreSQL
-- server's rows), anyone with the right to insert can write rows under a device id no member has, and
-- none of them opens with the hub's key. They are read once, said once, and never listed again:
-- `through` is the last position of that device's log seen then, and later syncs read only what lies
-- past it, so a million such rows cost one sync, not every one.
CREATE TABLE sync_refused_logs (
    hub_id     TEXT NOT NULL,
    device_id  TEXT NOT NULL,
    through    INTEGER NOT NULL,
    PRIMARY KEY (hub_id, device_id)
) STRICT, WITHOUT ROWID;
