-- A review case held as a possible twin records which case of the twin rule held it (SQLite's migration 0023): NULL
-- when another rule or none held the case, or for a case opened before this column.
ALTER TABLE review_case ADD COLUMN twin_reason text
  CHECK (twin_reason IS NULL OR twin_reason IN ('newborn-placeholder', 'multiple-birth', 'another-sex',
    'names-of-two-sexes', 'names-alike', 'given-name-missing', 'initial-alone', 'another-given-name', 'middle-names'));
