-- How far ahead of this machine's clock a device stamped its own changes, by the last of its segments
-- applied here that held any (NULL when none was stamped further ahead than a clock may run), and when
-- that segment was applied: `journal sync status` names a device whose clock runs ahead.
ALTER TABLE sync_anchors ADD COLUMN clock_ahead_ms INTEGER;
ALTER TABLE sync_anchors ADD COLUMN clock_ahead_at INTEGER;
