-- A held review case records the score its fields gave before the rule held it at Probable (SQLite's migration
-- 0014): NULL when no rule held it, or for a case opened before this column.
ALTER TABLE review_case ADD COLUMN held_from double precision CHECK (held_from IS NULL OR (held_from >= 0 AND held_from <= 1));
