-- A review case held as a possible twin (limited_by 'PossibleTwin') records which case of the twin rule held it
-- (scoring/possible-twin.ts twinReason), so the case page and the CLI say the pair's own reason. NULL: another rule or
-- none held the case, or it was opened before this column.
ALTER TABLE review_case ADD COLUMN twin_reason TEXT CHECK (twin_reason IS NULL OR twin_reason IN ('newborn-placeholder',
  'multiple-birth', 'another-sex', 'names-of-two-sexes', 'names-alike', 'given-name-missing', 'initial-alone',
  'another-given-name', 'middle-names'));
