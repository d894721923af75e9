-- A night whose tracker gave no in-bed sample has its lights-out at its first sample of sleep
-- (`Night.lightsOutKnown`): its lights-out and its time to fall asleep are unknown (NULL), not 0 min.
DROP VIEW sleep;
CREATE VIEW sleep AS
SELECT night,
       CASE WHEN in_bed_at < asleep_at
            THEN strftime('%Y-%m-%d %H:%M', in_bed_at / 1000, 'unixepoch', 'localtime') END AS in_bed_at,
       strftime('%Y-%m-%d %H:%M', asleep_at / 1000, 'unixepoch', 'localtime') AS asleep_at,
       strftime('%Y-%m-%d %H:%M', woke_at / 1000, 'unixepoch', 'localtime') AS woke_at,
       CASE WHEN in_bed_at < asleep_at THEN round((asleep_at - in_bed_at) / 60000.0, 1) END AS latency_min,
       round(asleep_ms / 60000.0, 1) AS asleep_min,
       awakenings,
       source
FROM nights
WHERE deleted = 0
ORDER BY night;
