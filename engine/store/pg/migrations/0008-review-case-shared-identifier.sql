-- A sixth rule that holds a pair at Probable: a personal number shared in a household (SQLite's migration 0018).
ALTER TABLE review_case DROP CONSTRAINT review_case_limited_by_check;
ALTER TABLE review_case ADD CONSTRAINT review_case_limited_by_check
  CHECK (limited_by IS NULL OR limited_by IN ('NoNameEvidence', 'PossibleTwin', 'SharedIdentifier', 'BirthDateConflict',
    'MiddleNameConflict', 'NamesOnly'));
