-- A link quality case records how doubtful the scan found its identity (SQLite's migration 0017): NULL for the other
-- kinds, and for link quality cases opened before this column.
ALTER TABLE review_case ADD COLUMN doubt integer CHECK (doubt IS NULL OR doubt >= 0);
