-- The settings that describe the person (weight, conditions, half-life, model, daily limit, sleep
-- threshold, bedtime, day start): records that sync like drinks, one per setting, the last write
-- winning. `value` is the setting's value as config.toml writes it (70, "23:00", ["smoker"]); a
-- deleted row is a setting taken back to its default on every machine. config.toml holds what this
-- machine alone keeps, which wins here.
CREATE TABLE settings (
    name    TEXT PRIMARY KEY NOT NULL,
    value   TEXT NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
    hlc     INTEGER NOT NULL,
    origin  TEXT NOT NULL,
    seq     INTEGER NOT NULL UNIQUE
) STRICT;

CREATE INDEX settings_by_origin_seq ON settings (origin, seq);
