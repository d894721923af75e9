-- How fast a drink of one's own is absorbed, for the personal model: 'beverage' (coffee, tea) or
-- 'slow' (soft drinks, chocolate). Drinks defined before keep the default.
ALTER TABLE custom_drinks ADD COLUMN form TEXT NOT NULL DEFAULT 'beverage' CHECK (form IN ('beverage', 'slow'));
