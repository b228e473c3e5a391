-- Review cases say where they came from: the job that opened them (NULL for an ingestion outside a job and for
-- cases opened before this migration) and, for ingestion, the source system of the record that opened them.
ALTER TABLE review_case ADD COLUMN job_id TEXT;
ALTER TABLE review_case ADD COLUMN source_system TEXT;
CREATE INDEX review_case_by_job ON review_case (tenant_id, job_id, created_at);

-- Every decision a reviewer records on a case, in order: same person, different people or unsure, with the
-- reviewer's reason. A case's current decision is its latest; same person and different people resolve it.
-- The reason is the reviewer's own note: it is kept here and never copied into audit records.
CREATE TABLE review_decision (
  tenant_id TEXT NOT NULL,
  case_id TEXT NOT NULL,
  seq INTEGER NOT NULL CHECK (seq >= 1),
  decision TEXT NOT NULL CHECK (decision IN ('same-person', 'different-people', 'unsure')),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  actor TEXT NOT NULL,
  decided_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, case_id, seq),
  FOREIGN KEY (tenant_id, case_id) REFERENCES review_case (tenant_id, case_id)
) STRICT, WITHOUT ROWID;

-- Pairs of identities a reviewer decided are different people, each identity named with a digest of its linked
-- records at their versions when the decision was made: while neither identity's records change, ingestion and
-- reconciliation (under any profile version) do not open a case for the pair again.
CREATE TABLE distinct_pair (
  tenant_id TEXT NOT NULL,
  left_identity_id INTEGER NOT NULL,
  left_records TEXT NOT NULL CHECK (length(left_records) = 64),
  right_identity_id INTEGER NOT NULL,
  right_records TEXT NOT NULL CHECK (length(right_records) = 64),
  case_id TEXT NOT NULL,
  decided_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, left_identity_id, right_identity_id, left_records, right_records),
  CHECK (left_identity_id < right_identity_id),
  FOREIGN KEY (tenant_id, case_id) REFERENCES review_case (tenant_id, case_id)
) STRICT, WITHOUT ROWID;
