-- A review case records the rule that held its pair's score at Probable when it was opened (scoring/scorer.ts
-- scoreLimit: no name evidence, a possible twin, birth dates that disagree, names only), so the list can say why a
-- case scored exactly the Probable threshold without scoring it again. NULL: no rule held it, or the case was opened
-- before this column.
ALTER TABLE review_case ADD COLUMN limited_by TEXT
  CHECK (limited_by IS NULL OR limited_by IN ('NoNameEvidence', 'PossibleTwin', 'BirthDateConflict', 'NamesOnly'));
