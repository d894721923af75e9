-- The key epochs' records: each the start of a new hub key, with that key wrapped for each device it
-- reaches, the devices shut out in it, and its maker's signature (the server sees device ids, times
-- and wrapped keys it cannot open). Written once and never changed, as segments are.
CREATE TABLE journal_hub.epochs (
    number     bigint NOT NULL CHECK (number >= 1),
    id         bytea NOT NULL CHECK (octet_length(id) = 16),
    bytes      bytea NOT NULL CHECK (octet_length(bytes) <= 131072),
    written_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (number, id)
);

CREATE TRIGGER epochs_are_append_only BEFORE UPDATE OR DELETE ON journal_hub.epochs
    FOR EACH ROW EXECUTE FUNCTION journal_hub.refuse_change();
CREATE TRIGGER epochs_are_never_truncated BEFORE TRUNCATE ON journal_hub.epochs
    FOR EACH STATEMENT EXECUTE FUNCTION journal_hub.refuse_change();

-- A new epoch rings the doorbell as a segment does: every device takes up the new key at once.
CREATE FUNCTION journal_hub.ring_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('journal_hub', 'epoch');
    RETURN NULL;
END
$$;

CREATE TRIGGER epochs_ring AFTER INSERT ON journal_hub.epochs
    FOR EACH ROW EXECUTE FUNCTION journal_hub.ring_epoch();

REVOKE ALL ON journal_hub.epochs FROM PUBLIC;
