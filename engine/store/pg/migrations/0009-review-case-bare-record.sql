-- A seventh rule that holds a case's score at Probable: a record without a given or family name whose identity's named
-- records name another person (SQLite's migration 0019).
ALTER TABLE review_case DROP CONSTRAINT review_case_limited_by_check;
ALTER TABLE review_case ADD CONSTRAINT review_case_limited_by_check
  CHECK (limited_by IS NULL OR limited_by IN ('NoNameEvidence', 'PossibleTwin', 'SharedIdentifier', 'BirthDateConflict',
    'MiddleNameConflict', 'NamesOnly', 'BareRecord'));
