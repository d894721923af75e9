-- A PostgreSQL hub: the sealed segments a folder hub keeps as files, kept as rows the server itself
-- keeps append-only. The server sees ciphertext only: device ids, positions, sizes and times.
-- Every name is qualified: the hub does not depend on the role's search_path.
CREATE SCHEMA journal_hub;

-- The schema's version: a journal refuses a newer one, as it refuses a newer journal file.
CREATE TABLE journal_hub.schema_version (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    version   integer NOT NULL
);

-- What hub.json holds in a folder hub: the hub's id, its format, and the check of its key.
CREATE TABLE journal_hub.hub (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    hub_id    text NOT NULL,
    format    integer NOT NULL,
    key_check text NOT NULL,
    made_at   timestamptz NOT NULL DEFAULT now()
);

-- One row per segment of a device's log, written once and never changed.
CREATE TABLE journal_hub.segments (
    device         uuid NOT NULL,
    first_position bigint NOT NULL CHECK (first_position >= 1),
    last_position  bigint NOT NULL CHECK (last_position >= first_position),
    bytes          bytea NOT NULL,
    written_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (device, first_position, last_position)
);

-- Append-only on the server, not only in the journal's code: a row of either table is never updated
-- or deleted, and neither table is ever truncated, whoever asks.
CREATE FUNCTION journal_hub.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the journal hub is append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER segments_are_append_only BEFORE UPDATE OR DELETE ON journal_hub.segments
    FOR EACH ROW EXECUTE FUNCTION journal_hub.refuse_change();
CREATE TRIGGER segments_are_never_truncated BEFORE TRUNCATE ON journal_hub.segments
    FOR EACH STATEMENT EXECUTE FUNCTION journal_hub.refuse_change();
CREATE TRIGGER hub_is_fixed BEFORE UPDATE OR DELETE ON journal_hub.hub
    FOR EACH ROW EXECUTE FUNCTION journal_hub.refuse_change();
CREATE TRIGGER hub_is_never_truncated BEFORE TRUNCATE ON journal_hub.hub
    FOR EACH STATEMENT EXECUTE FUNCTION journal_hub.refuse_change();

-- The doorbell: a notification on the channel journal_hub once a segment's insert commits, its payload
-- the device that published. Never the data: a listener syncs to find out what is new.
CREATE FUNCTION journal_hub.ring() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('journal_hub', NEW.device::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER segments_ring AFTER INSERT ON journal_hub.segments
    FOR EACH ROW EXECUTE FUNCTION journal_hub.ring();

-- No one else's, and not even its maker's to change: the rights to update, delete and truncate the
-- hub and its segments are taken from the role that made them too (only an explicit GRANT by their
-- owner gives them back, and the triggers above still refuse).
REVOKE ALL ON SCHEMA journal_hub FROM PUBLIC;
REVOKE ALL ON journal_hub.schema_version, journal_hub.hub, journal_hub.segments FROM PUBLIC;
REVOKE UPDATE, DELETE, TRUNCATE ON journal_hub.hub, journal_hub.segments FROM CURRENT_USER;
