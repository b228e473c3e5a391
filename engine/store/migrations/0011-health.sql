-- Health figures, one row per ingest call and per finished maintenance job, for the Health page and drift checks:
-- counts and shares only, never values. field_present_json: for each matching field, how many of the records
-- written carried it.
CREATE TABLE health_sample (
  tenant_id TEXT NOT NULL,
  sample_id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  origin TEXT NOT NULL CHECK (origin IN ('ingest', 'job')),
  source_system TEXT,
  job_id TEXT,
  job_kind TEXT,
  job_status TEXT,
  profile_version INTEGER,
  records INTEGER NOT NULL CHECK (records >= 0),
  created INTEGER NOT NULL CHECK (created >= 0),
  auto_linked INTEGER NOT NULL CHECK (auto_linked >= 0),
  review_cases INTEGER NOT NULL CHECK (review_cases >= 0),
  rejected INTEGER NOT NULL CHECK (rejected >= 0),
  field_present_json TEXT NOT NULL CHECK (json_valid(field_present_json)),
  duration_ms INTEGER NOT NULL CHECK (duration_ms >= 0)
) STRICT;
CREATE INDEX health_sample_by_tenant ON health_sample (tenant_id, sample_id);
