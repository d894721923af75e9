-- When this journal's day starts, for the daily_totals view, which cannot read the settings file:
-- status and stats write day_starts_at here (in minutes after midnight) whenever they find it changed. This machine's alone: it does not sync.
CREATE TABLE local_settings (
    name TEXT PRIMARY KEY NOT NULL,
    value NOT NULL
) WITHOUT ROWID;

-- One row per day that has drinks; a day starts at day_starts_at (midnight when not set).
DROP VIEW daily_totals;
CREATE VIEW daily_totals AS
SELECT date(consumed_at / 1000, 'unixepoch', 'localtime',
            coalesce((SELECT '-' || value || ' minutes' FROM local_settings WHERE name = 'day_starts_at_minutes'), '+0 minutes')) AS day,
       count(*) AS drinks,
       round(sum(caffeine_mg), 1) AS caffeine_mg
FROM drinks
WHERE deleted = 0
GROUP BY day
ORDER BY day;
