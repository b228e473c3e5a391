-- A fifth rule that holds a pair at Probable: middle names that disagree (SQLite's migration 0016).
ALTER TABLE review_case DROP CONSTRAINT review_case_limited_by_check;
ALTER TABLE review_case ADD CONSTRAINT review_case_limited_by_check
  CHECK (limited_by IS NULL OR limited_by IN ('NoNameEvidence', 'PossibleTwin', 'BirthDateConflict',
    'MiddleNameConflict', 'NamesOnly'));
