-- The position from which a device signs every segment it writes, as its card says (journals from
-- signing on write it in their first card): an unsigned segment of that device reaching that far is
-- refused. NULL for a device whose card does not say it (one on a journal from before signing),
-- whose unsigned segments are read as before.
ALTER TABLE sync_devices ADD COLUMN signed_from INTEGER;
