-- Registry: tenants, versioned matching profiles, source records, canonical identities and their links,
-- blocking tags, review cases, audit records and ingestion receipts. Every row carries its tenant, and
-- child rows reference their parents through (tenant_id, id) so a row can never point into another tenant.

CREATE TABLE tenant (
  tenant_id TEXT PRIMARY KEY CHECK (length(tenant_id) BETWEEN 1 AND 64 AND tenant_id NOT GLOB '*[^A-Za-z0-9._-]*'),
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE matching_profile (
  tenant_id TEXT NOT NULL REFERENCES tenant (tenant_id),
  profile_version INTEGER NOT NULL CHECK (profile_version >= 1),
  profile_json TEXT NOT NULL CHECK (json_valid(profile_json)),
  reason TEXT NOT NULL,
  created_at TEXT NOT NULL,
  is_active INTEGER NOT NULL CHECK (is_active IN (0, 1)),
  PRIMARY KEY (tenant_id, profile_version)
) STRICT;
CREATE UNIQUE INDEX matching_profile_one_active ON matching_profile (tenant_id) WHERE is_active = 1;

CREATE TABLE source_record (
  record_id INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenant (tenant_id),
  source_system TEXT NOT NULL CHECK (length(source_system) BETWEEN 1 AND 100),
  local_id TEXT NOT NULL CHECK (length(local_id) BETWEEN 1 AND 200),
  resource_json TEXT NOT NULL,
  fields_json TEXT NOT NULL CHECK (json_valid(fields_json)),
  payload_digest TEXT NOT NULL CHECK (length(payload_digest) = 64),
  logical_version INTEGER NOT NULL CHECK (logical_version >= 1),
  source_last_updated TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (tenant_id, source_system, local_id),
  UNIQUE (tenant_id, record_id)
) STRICT;

CREATE TABLE identity (
  identity_id INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenant (tenant_id),
  enterprise_id TEXT NOT NULL CHECK (length(enterprise_id) BETWEEN 1 AND 64),
  logical_version INTEGER NOT NULL CHECK (logical_version >= 1),
  canonical_json TEXT NOT NULL CHECK (json_valid(canonical_json)),
  status TEXT NOT NULL CHECK (status IN ('active', 'retired')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (tenant_id, enterprise_id),
  UNIQUE (tenant_id, identity_id)
) STRICT;

CREATE TABLE identity_link (
  tenant_id TEXT NOT NULL,
  record_id INTEGER NOT NULL,
  identity_id INTEGER NOT NULL,
  link_kind TEXT NOT NULL CHECK (link_kind IN ('auto', 'review', 'manual')),
  score REAL CHECK (score IS NULL OR (score >= 0 AND score <= 1)),
  created_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, record_id),
  FOREIGN KEY (tenant_id, record_id) REFERENCES source_record (tenant_id, record_id),
  FOREIGN KEY (tenant_id, identity_id) REFERENCES identity (tenant_id, identity_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX identity_link_by_identity ON identity_link (tenant_id, identity_id);

-- A tag is a truncated HMAC-SHA256 of a rule's key material: it reveals no demographics.
CREATE TABLE blocking_tag (
  tenant_id TEXT NOT NULL,
  tag BLOB NOT NULL CHECK (length(tag) = 16),
  identity_id INTEGER NOT NULL,
  rule_name TEXT NOT NULL,
  rule_set_version INTEGER NOT NULL CHECK (rule_set_version >= 1),
  key_version TEXT NOT NULL,
  PRIMARY KEY (tenant_id, tag, identity_id),
  FOREIGN KEY (tenant_id, identity_id) REFERENCES identity (tenant_id, identity_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX blocking_tag_by_identity ON blocking_tag (tenant_id, identity_id);

CREATE TABLE review_case (
  tenant_id TEXT NOT NULL,
  case_id TEXT NOT NULL CHECK (length(case_id) BETWEEN 8 AND 80),
  kind TEXT NOT NULL CHECK (kind IN ('IngestionMatch', 'PopulationReconciliation')),
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
  PRIMARY KEY (tenant_id, case_id),
  CHECK (left_identity_id < right_identity_id),
  FOREIGN KEY (tenant_id, left_identity_id) REFERENCES identity (tenant_id, identity_id),
  FOREIGN KEY (tenant_id, right_identity_id) REFERENCES identity (tenant_id, identity_id),
  FOREIGN KEY (tenant_id, profile_version) REFERENCES matching_profile (tenant_id, profile_version)
) STRICT;
CREATE INDEX review_case_open ON review_case (tenant_id, status, created_at);

CREATE TABLE audit_record (
  audit_id INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenant (tenant_id),
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  subject TEXT NOT NULL,
  detail_json TEXT NOT NULL CHECK (json_valid(detail_json))
) STRICT;
CREATE INDEX audit_record_by_tenant ON audit_record (tenant_id, audit_id);

-- One receipt per accepted resource version: replaying the same payload is recognised and changes nothing.
CREATE TABLE ingestion_receipt (
  tenant_id TEXT NOT NULL REFERENCES tenant (tenant_id),
  source_system TEXT NOT NULL,
  local_id TEXT NOT NULL,
  payload_digest TEXT NOT NULL CHECK (length(payload_digest) = 64),
  source_last_updated TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('created', 'updated')),
  received_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, source_system, local_id, payload_digest)
) STRICT, WITHOUT ROWID;

-- Ground truth of a synthetic sandbox (which records belong to one generated person); empty for real data.
CREATE TABLE synthetic_truth (
  tenant_id TEXT NOT NULL REFERENCES tenant (tenant_id),
  source_system TEXT NOT NULL,
  local_id TEXT NOT NULL,
  person_id TEXT NOT NULL,
  PRIMARY KEY (tenant_id, source_system, local_id)
) STRICT, WITHOUT ROWID;
