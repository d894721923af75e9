-- Files a sync found in a device's log on a hub that are not segments that device wrote: in this
-- device's own log (a sync tool's conflict copy, a file another member of a shared hub planted),
-- moved out of it, or left where the hub would not let them be moved; in another device's log, a
-- file this user cannot read or that is not a regular file, passed over. `journal sync status`
-- names them, and each is said once, not at every sync. The newest 100,000 are kept.
CREATE TABLE sync_set_aside (
    hub_id     TEXT NOT NULL,
    device_id  TEXT NOT NULL,      -- the device whose log held it
    name       TEXT NOT NULL,      -- its name in that log
    reason     TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('moved', 'left', 'passed-over')),
                                   -- moved to set-aside/ in the hub; left in this device's log, which the
                                   -- hub would not let it move; passed over in another device's log
    at         INTEGER NOT NULL    -- UTC Unix milliseconds of the sync that found it
) STRICT;
