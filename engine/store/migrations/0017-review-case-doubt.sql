-- A link quality case records how doubtful the scan found its identity (engine/assurance/link-quality.ts doubtOf:
-- one source twice, then more flags, then more groups), so the review queue can put the surest wrong links first
-- (the "most-doubtful" sort). NULL for the other kinds, and for link quality cases opened before this column.
ALTER TABLE review_case ADD COLUMN doubt INTEGER CHECK (doubt IS NULL OR doubt >= 0);
