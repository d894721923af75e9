-- When a sync last succeeded, apart from the last attempt (which may have failed): `journal status`'s
-- `last_sync_age_s` says how old what this journal holds of the other machines may be.
ALTER TABLE sync_hub ADD COLUMN last_ok_sync_at INTEGER;
UPDATE sync_hub SET last_ok_sync_at = last_sync_at WHERE last_sync_outcome = 'ok';
