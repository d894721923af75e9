-- Records under this device's own id that another device's log brought (a journal that moved relays
-- every device's records): by the sequence number they were written here under. This device does not
-- publish them as its own changes, so that nothing another member wrote goes up signed by this one.
CREATE TABLE sync_received_own (
    seq INTEGER PRIMARY KEY NOT NULL
) STRICT;
