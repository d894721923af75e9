-- Invitations end: `expires_at` (7 days after printing unless `journal sync key --expires` said
-- otherwise), the key they were printed with (`key_check`: a new key ends them), and when and why one
-- ended before its time (`ended_why`: withdrawn by `journal sync invitations --withdraw`, shown by two
-- devices, or printed with a key that was replaced). Invitations printed by an earlier journal end 7
-- days after they were printed, as if printed now.
ALTER TABLE sync_invitations ADD COLUMN expires_at INTEGER;
ALTER TABLE sync_invitations ADD COLUMN key_check TEXT;
ALTER TABLE sync_invitations ADD COLUMN ended_at INTEGER;
ALTER TABLE sync_invitations ADD COLUMN ended_why TEXT CHECK (ended_why IN ('withdrawn', 'shown-twice', 'key-replaced'));
UPDATE sync_invitations SET expires_at = made_at + 7 * 86400000;
