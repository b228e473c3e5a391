-- What happened to an identity, written at the moment it happens, for its history: a record joined it (how:
-- certain by a trusted identifier, certain by score, or the first record of a new identity; with the score, the
-- profile version, the job if an import ran it), a linked record changed, a reconciliation rebuilt its canonical
-- record. Review cases and decisions have their own tables and times. References and figures only, never values.
-- Identities older than this table have their links' times, kinds and scores (identity_link) and nothing more.
CREATE TABLE identity_event (
  tenant_id TEXT NOT NULL,
  event_id INTEGER PRIMARY KEY,
  identity_id INTEGER NOT NULL,
  record_id INTEGER,
  at TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('record-joined', 'identity-created', 'record-updated', 'canonical-rebuilt')),
  decided_by TEXT CHECK (decided_by IS NULL OR decided_by IN ('trusted-identifier', 'score')),
  score REAL CHECK (score IS NULL OR (score >= 0 AND score <= 1)),
  profile_version INTEGER,
  job_id TEXT,
  review_cases INTEGER NOT NULL DEFAULT 0 CHECK (review_cases >= 0),
  FOREIGN KEY (tenant_id, identity_id) REFERENCES identity (tenant_id, identity_id)
) STRICT;
CREATE INDEX identity_event_by_identity ON identity_event (tenant_id, identity_id, event_id);
