-- A test-only second version of the hub's server schema (not shipped): what a real migration to come
-- would look like, to test that one reaches a hub whose schema a DBA handed to another role.
-- Each device's sealed name, as device records to come may keep them.
CREATE TABLE journal_hub.device_names (
    device uuid PRIMARY KEY,
    sealed_name bytea NOT NULL CHECK (octet_length(sealed_name) <= 4096)
);
COMMENT ON TABLE journal_hub.device_names IS 'sealed; the server never reads a name';
