-- The device a card says its device took over from (`journal sync new-device`), with that device's
-- signature over the hand-over ("DEVICE-ID SIGNATURE-HEX"): the members that vouched for the one
-- vouch for the other.
ALTER TABLE sync_devices ADD COLUMN succeeds TEXT;
