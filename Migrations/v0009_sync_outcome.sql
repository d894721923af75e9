-- What the last sync attempt came to, as values a script reads: `ok` or `failed`, the failure's kind
-- and the exit status `journal sync` gives it, and the message apart (`last_sync_result` now holds only
-- the message). Before, a failure was prose that began "failed: ", told from success by that prefix.
ALTER TABLE sync_hub ADD COLUMN last_sync_outcome TEXT CHECK (last_sync_outcome IN ('ok', 'failed'));
ALTER TABLE sync_hub ADD COLUMN last_sync_failure TEXT CHECK (last_sync_failure IN ('usage', 'bad-data', 'setup', 'failure'));
ALTER TABLE sync_hub ADD COLUMN last_sync_exit_status INTEGER;
UPDATE sync_hub SET
    last_sync_outcome = CASE WHEN last_sync_result LIKE 'failed: %' THEN 'failed' ELSE 'ok' END,
    last_sync_failure = CASE WHEN last_sync_result LIKE 'failed: %' THEN 'failure' END,
    last_sync_exit_status = CASE WHEN last_sync_result LIKE 'failed: %' THEN 1 ELSE 0 END,
    last_sync_result = CASE WHEN last_sync_result LIKE 'failed: %' THEN substr(last_sync_result, 9) ELSE last_sync_result END
WHERE last_sync_result IS NOT NULL;
