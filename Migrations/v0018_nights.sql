-- Nights of sleep, imported from a tracker (`journal import --from sleep-csv` or `--from apple-health`),
-- one per date (the evening of lights-out): they sync like drinks, as records of their own kind.
CREATE TABLE nights (
    night      TEXT PRIMARY KEY NOT NULL,                    -- YYYY-MM-DD, the evening of lights-out
    in_bed_at  INTEGER NOT NULL,                             -- lights-out, UTC Unix milliseconds
    asleep_at  INTEGER NOT NULL,                             -- the first sample of sleep
    woke_at    INTEGER NOT NULL,                             -- the end of the last sample of sleep
    asleep_ms  INTEGER NOT NULL,                             -- every stage of sleep summed
    awakenings INTEGER NOT NULL,
    source     TEXT NOT NULL,                                -- the tracker the figures are from
    deleted    INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
    hlc        INTEGER NOT NULL,
    origin     TEXT NOT NULL,
    seq        INTEGER NOT NULL UNIQUE
) STRICT;

CREATE INDEX nights_by_origin_seq ON nights (origin, seq);

-- Live nights, oldest first, with local times and minutes.
CREATE VIEW sleep AS
SELECT night,
       strftime('%Y-%m-%d %H:%M', in_bed_at / 1000, 'unixepoch', 'localtime') AS in_bed_at,
       strftime('%Y-%m-%d %H:%M', asleep_at / 1000, 'unixepoch', 'localtime') AS asleep_at,
       strftime('%Y-%m-%d %H:%M', woke_at / 1000, 'unixepoch', 'localtime') AS woke_at,
       round((asleep_at - in_bed_at) / 60000.0, 1) AS latency_min,
       round(asleep_ms / 60000.0, 1) AS asleep_min,
       awakenings,
       source
FROM nights
WHERE deleted = 0
ORDER BY night;
