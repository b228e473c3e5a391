-- A review case records the rule that held its pair's score at Probable when it was opened (SQLite's migration
-- 0013): NULL when no rule held it, or for a case opened before this column.
ALTER TABLE review_case ADD COLUMN limited_by text
  CHECK (limited_by IS NULL OR limited_by IN ('NoNameEvidence', 'PossibleTwin', 'BirthDateConflict', 'NamesOnly'));
