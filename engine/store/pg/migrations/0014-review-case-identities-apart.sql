-- An eighth rule that holds a case's score at Probable: an arriving record certain against two identities that are
-- two people (ingest/identities-apart.ts; SQLite's migration 0024).
ALTER TABLE review_case DROP CONSTRAINT review_case_limited_by_check;
ALTER TABLE review_case ADD CONSTRAINT review_case_limited_by_check
  CHECK (limited_by IS NULL OR limited_by IN ('NoNameEvidence', 'PossibleTwin', 'SharedIdentifier', 'BirthDateConflict',
    'MiddleNameConflict', 'NamesOnly', 'BareRecord', 'IdentitiesApart'));
