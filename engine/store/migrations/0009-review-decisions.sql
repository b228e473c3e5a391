-- Review cases rebuilt (SQLite cannot change a CHECK in place) for:
--   * a third kind, LinkQuality: one identity whose records look wrongly linked (the link-quality scan), stored
--     with the identity as both sides;
--   * where a case came from: the job that opened it (NULL for an ingestion outside a job and for older cases)
--     and, for ingestion, the source system of the record that opened it.
CREATE TABLE review_case_next (
  tenant_id TEXT NOT NULL,
  case_id TEXT NOT NULL CHECK (length(case_id) BETWEEN 8 AND 80),
  kind TEXT NOT NULL CHECK (kind IN ('IngestionMatch', 'PopulationReconciliation', 'LinkQuality')),
  left_identity_id INTEGER NOT NULL,
  left_version INTEGER NOT NULL CHECK (left_version >= 1),
  right_identity_id INTEGER NOT NULL,
  right_version INTEGER NOT NULL CHECK (right_version >= 1),
  profile_version INTEGER NOT NULL,
  score REAL NOT NULL CHECK (score >= 0 AND score <= 1),
  decision TEXT NOT NULL CHECK (decision IN ('certain', 'probable')),
  evidence_json TEXT NOT NULL CHECK (json_valid(evidence_json)),
  status TEXT NOT NULL CHECK (status IN ('open', 'resolved', 'dismissed')),
  created_at TEXT NOT NULL,
  job_id TEXT,
  source_system TEXT,
  PRIMARY KEY (tenant_id, case_id),
  CHECK (left_identity_id < right_identity_id OR (kind = 'LinkQuality' AND left_identity_id = right_identity_id AND left_version = right_version)),
  FOREIGN KEY (tenant_id, left_identity_id) REFERENCES identity (tenant_id, identity_id),
  FOREIGN KEY (tenant_id, right_identity_id) REFERENCES identity (tenant_id, identity_id),
  FOREIGN KEY (tenant_id, profile_version) REFERENCES matching_profile (tenant_id, profile_version)
) STRICT;
INSERT INTO review_case_next (tenant_id, case_id, kind, left_identity_id, left_version, right_identity_id, right_version, profile_version, score,
  decision, evidence_json, status, created_at)
SELECT tenant_id, case_id, kind, left_identity_id, left_version, right_identity_id, right_version, profile_version, score, decision,
  evidence_json, status, created_at FROM review_case;
DROP TABLE review_case;
ALTER TABLE review_case_next RENAME TO review_case;
CREATE INDEX review_case_open ON review_case (tenant_id, status, created_at);
CREATE INDEX review_case_pair ON review_case (tenant_id, left_identity_id, right_identity_id, status);
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
