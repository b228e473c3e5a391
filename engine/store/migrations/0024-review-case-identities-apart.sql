-- An eighth rule that holds a case's score at Probable: an arriving record certain against two identities that are
-- two people (ingest/identities-apart.ts). As 0019 did, the review cases are rebuilt with the wider list of limited_by
-- (SQLite cannot change a CHECK in place), and the two tables whose rows name a case are copied aside and rebuilt
-- after it, so that no step leaves a row naming a case that is not there. The columns 0021 and 0023 added keep their
-- place, and 0021's two triggers are made again: the one on identity names review_case, which is dropped and renamed
-- under it.
DROP TRIGGER identity_outdates_review_cases;
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
  limited_by TEXT CHECK (limited_by IS NULL OR limited_by IN ('NoNameEvidence', 'PossibleTwin', 'SharedIdentifier',
    'BirthDateConflict', 'MiddleNameConflict', 'NamesOnly', 'BareRecord', 'IdentitiesApart')),
  held_from REAL CHECK (held_from IS NULL OR (held_from >= 0 AND held_from <= 1)),
  doubt INTEGER CHECK (doubt IS NULL OR doubt >= 0),
  outdated INTEGER NOT NULL DEFAULT 0 CHECK (outdated IN (0, 1)),
  twin_reason TEXT CHECK (twin_reason IS NULL OR twin_reason IN ('newborn-placeholder', 'multiple-birth', 'another-sex',
    'names-of-two-sexes', 'names-alike', 'given-name-missing', 'initial-alone', 'another-given-name', 'middle-names')),
  PRIMARY KEY (tenant_id, case_id),
  CHECK (left_identity_id < right_identity_id OR (kind = 'LinkQuality' AND left_identity_id = right_identity_id AND left_version = right_version)),
  FOREIGN KEY (tenant_id, left_identity_id) REFERENCES identity (tenant_id, identity_id),
  FOREIGN KEY (tenant_id, right_identity_id) REFERENCES identity (tenant_id, identity_id),
  FOREIGN KEY (tenant_id, profile_version) REFERENCES matching_profile (tenant_id, profile_version)
) STRICT;
INSERT INTO review_case_next (tenant_id, case_id, kind, left_identity_id, left_version, right_identity_id, right_version,
  profile_version, score, decision, evidence_json, status, created_at, job_id, source_system, limited_by, held_from,
  doubt, outdated, twin_reason)
SELECT tenant_id, case_id, kind, left_identity_id, left_version, right_identity_id, right_version, profile_version, score,
  decision, evidence_json, status, created_at, job_id, source_system, limited_by, held_from, doubt, outdated, twin_reason
FROM review_case;

CREATE TABLE review_decision_aside AS SELECT * FROM review_decision;
CREATE TABLE distinct_pair_aside AS SELECT * FROM distinct_pair;
DROP TABLE review_decision;
DROP TABLE distinct_pair;
DROP TABLE review_case;
ALTER TABLE review_case_next RENAME TO review_case;
CREATE INDEX review_case_open ON review_case (tenant_id, status, created_at);
CREATE INDEX review_case_pair ON review_case (tenant_id, left_identity_id, right_identity_id, status);
CREATE INDEX review_case_by_job ON review_case (tenant_id, job_id, created_at);
CREATE INDEX review_case_by_right ON review_case (tenant_id, right_identity_id);
CREATE INDEX review_case_waiting ON review_case (tenant_id, created_at) WHERE status = 'open' AND outdated = 0;
CREATE INDEX review_case_by_age ON review_case (tenant_id, created_at);
CREATE INDEX review_case_by_source ON review_case (tenant_id, source_system) WHERE source_system IS NOT NULL;

-- As 0021 made them.
CREATE TRIGGER review_case_outdated_at_insert AFTER INSERT ON review_case
WHEN EXISTS (
    SELECT 1 FROM identity i WHERE i.identity_id = NEW.left_identity_id AND i.tenant_id = NEW.tenant_id
      AND (i.logical_version <> NEW.left_version OR i.status <> 'active'))
  OR EXISTS (
    SELECT 1 FROM identity i WHERE i.identity_id = NEW.right_identity_id AND i.tenant_id = NEW.tenant_id
      AND (i.logical_version <> NEW.right_version OR i.status <> 'active'))
BEGIN
  UPDATE review_case SET outdated = 1 WHERE rowid = NEW.rowid;
END;

CREATE TRIGGER identity_outdates_review_cases AFTER UPDATE OF logical_version, status ON identity
WHEN NEW.logical_version <> OLD.logical_version OR NEW.status <> OLD.status
BEGIN
  UPDATE review_case SET outdated = 1
  WHERE tenant_id = NEW.tenant_id AND left_identity_id = NEW.identity_id AND outdated = 0
    AND (left_version <> NEW.logical_version OR NEW.status <> 'active');
  UPDATE review_case SET outdated = 1
  WHERE tenant_id = NEW.tenant_id AND right_identity_id = NEW.identity_id AND outdated = 0
    AND (right_version <> NEW.logical_version OR NEW.status <> 'active');
END;

-- As 0009 made them.
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
INSERT INTO review_decision (tenant_id, case_id, seq, decision, reason, actor, decided_at)
SELECT tenant_id, case_id, seq, decision, reason, actor, decided_at FROM review_decision_aside;

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
INSERT INTO distinct_pair (tenant_id, left_identity_id, left_records, right_identity_id, right_records, case_id, decided_at)
SELECT tenant_id, left_identity_id, left_records, right_identity_id, right_records, case_id, decided_at
FROM distinct_pair_aside;

DROP TABLE review_decision_aside;
DROP TABLE distinct_pair_aside;
