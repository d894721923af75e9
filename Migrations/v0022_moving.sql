-- A journal that joins another hub takes everything it holds there, not only its own changes: up to
-- `relay_through`, this device's log on the hub carries the records of every device (each with its
-- origin and clock), relayed for the machines that join the new hub after it. `moved_changes` and
-- `moved_devices` count what the move published of other devices, `moved_at` says when, for
-- `journal sync status`.
ALTER TABLE sync_hub ADD COLUMN relay_through INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_hub ADD COLUMN moved_changes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_hub ADD COLUMN moved_devices INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_hub ADD COLUMN moved_at INTEGER;
