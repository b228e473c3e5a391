-- Health samples gain what matching met: matching_json (ingests: pairs compared and their count per score band,
-- records whose candidates hit the cap, and per blocking rule the candidates it found and its blocks too common to
-- use) and identity_sizes_json (jobs and daily samples: identities by record count); and a third origin, 'daily',
-- written by a worker once a day so a quiet registry still has figures. Counts only, never values. SQLite cannot
-- change a CHECK in place, so the table is rebuilt with its rows.
CREATE TABLE health_sample_next (
  tenant_id TEXT NOT NULL,
  sample_id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  origin TEXT NOT NULL CHECK (origin IN ('ingest', 'job', 'daily')),
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
  duration_ms INTEGER NOT NULL CHECK (duration_ms >= 0),
  matching_json TEXT CHECK (matching_json IS NULL OR json_valid(matching_json)),
  identity_sizes_json TEXT CHECK (identity_sizes_json IS NULL OR json_valid(identity_sizes_json))
) STRICT;
INSERT INTO health_sample_next (tenant_id, sample_id, at, origin, source_system, job_id, job_kind, job_status, profile_version, records, created,
  auto_linked, review_cases, rejected, field_present_json, duration_ms)
SELECT tenant_id, sample_id, at, origin, source_system, job_id, job_kind, job_status, profile_version, records, created,
  auto_linked, review_cases, rejected, field_present_json, duration_ms FROM health_sample;
DROP TABLE health_sample;
ALTER TABLE health_sample_next RENAME TO health_sample;
CREATE INDEX health_sample_by_tenant ON health_sample (tenant_id, sample_id);
CREATE INDEX health_sample_daily ON health_sample (tenant_id, origin, at);
