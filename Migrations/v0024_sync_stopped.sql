-- Why this journal no longer syncs with its hub, when a sync found it can never sync again as it is
-- (its device was revoked), and whether `journal add` said so already: it says it once.
ALTER TABLE sync_hub ADD COLUMN stopped_because TEXT;
ALTER TABLE sync_hub ADD COLUMN stopped_said INTEGER NOT NULL DEFAULT 0;
