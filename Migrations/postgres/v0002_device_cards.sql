-- Each device's card: its name and public keys, the key epoch it last read, when it last published
-- and synced, signed by the device and sealed under the hub's key (the server sees ciphertext, the
-- device id and when the card was written). One row per device, replaced as those facts change:
-- unlike segments, a card is a state, not a history, and a row per sync would only grow.
CREATE TABLE journal_hub.cards (
    device     uuid PRIMARY KEY,
    bytes      bytea NOT NULL CHECK (octet_length(bytes) <= 16384),
    written_at timestamptz NOT NULL DEFAULT now()
);

REVOKE ALL ON journal_hub.cards FROM PUBLIC;
