-- A held review case records the score its fields gave before the rule held it at Probable (limited_by), so a queue
-- where most cases score exactly the Probable threshold can still be put in order of the evidence. NULL: no rule held
-- the case, or it was opened before this column.
ALTER TABLE review_case ADD COLUMN held_from REAL CHECK (held_from IS NULL OR (held_from >= 0 AND held_from <= 1));
