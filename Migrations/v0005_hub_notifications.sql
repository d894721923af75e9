-- When the hub last rang this journal's daemon (a PostgreSQL hub's NOTIFY after another device
-- published): `journal sync status` shows it, so a doorbell that stopped ringing is noticed. NULL for
-- a hub that never rang (a folder hub has no doorbell; inotify is local).
ALTER TABLE sync_hub ADD COLUMN last_notification_at INTEGER;
