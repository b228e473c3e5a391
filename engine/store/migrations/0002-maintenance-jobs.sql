-- Durable maintenance jobs (re-index, reconciliation), tenant-scoped and resumable by any worker process.
-- The job row holds the stored inputs, the status, the eight work counters (work done across phases, not
-- distinct patients) and the worker lease; each phase row holds its own status and cursor (the last
-- identity_id the phase finished, identities being visited in ascending identity_id). One batch's registry
-- writes, its phase cursor, the job's counters and the lease renewal are committed in one transaction, so a
-- crash never repeats or skips work.
--
-- Statuses: queued, running, completed, cancelled, failed, and stopped: the configuration fingerprint
-- (matching rules, source trust, blocking rules and HMAC keys) changed while the job ran, so it did not
-- continue (start a new job under the new configuration). Transitions are drawn in engine/jobs/states.ts.

CREATE TABLE maintenance_job (
  job_seq INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenant (tenant_id),
  job_id TEXT NOT NULL CHECK (length(job_id) BETWEEN 8 AND 80 AND job_id NOT GLOB '*[^A-Za-z0-9-]*'),
  kind TEXT NOT NULL CHECK (kind IN ('reindex', 'reconciliation')),
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'cancelled', 'failed', 'stopped')),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  requested_by TEXT NOT NULL CHECK (length(requested_by) BETWEEN 1 AND 200),
  batch_size INTEGER NOT NULL CHECK (batch_size BETWEEN 1 AND 25),
  external_source_system TEXT CHECK (external_source_system IS NULL OR length(external_source_system) BETWEEN 1 AND 100),
  changed_since TEXT,
  schedule_key TEXT CHECK (schedule_key IS NULL OR length(schedule_key) BETWEEN 1 AND 64),
  schedule_bucket INTEGER CHECK (schedule_bucket IS NULL OR schedule_bucket >= 0),
  -- Recorded when the job first starts: the profile version it works under, the SHA-256 configuration
  -- fingerprint (never a secret) and the number of active identities (the total a percentage is shown of).
  profile_version INTEGER,
  fingerprint TEXT CHECK (fingerprint IS NULL OR (length(fingerprint) = 64 AND fingerprint NOT GLOB '*[^0-9a-f]*')),
  population_total INTEGER CHECK (population_total IS NULL OR population_total >= 0),
  validated INTEGER NOT NULL DEFAULT 0 CHECK (validated >= 0),
  scanned INTEGER NOT NULL DEFAULT 0 CHECK (scanned >= 0),
  imported INTEGER NOT NULL DEFAULT 0 CHECK (imported >= 0),
  updated INTEGER NOT NULL DEFAULT 0 CHECK (updated >= 0),
  unchanged INTEGER NOT NULL DEFAULT 0 CHECK (unchanged >= 0),
  review_created INTEGER NOT NULL DEFAULT 0 CHECK (review_created >= 0),
  warning INTEGER NOT NULL DEFAULT 0 CHECK (warning >= 0),
  failure INTEGER NOT NULL DEFAULT 0 CHECK (failure >= 0),
  -- Who asked for cancellation of a running job; the worker observes it at the next batch boundary.
  cancel_requested_by TEXT,
  lease_owner TEXT,
  lease_expires_at TEXT,
  claims INTEGER NOT NULL DEFAULT 0 CHECK (claims >= 0),
  -- Never patient values: counts, identity row IDs, enterprise IDs and rule names only.
  error TEXT CHECK (error IS NULL OR length(error) <= 2000),
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  UNIQUE (tenant_id, job_id),
  -- Two workers enqueueing the same schedule bucket create one job.
  UNIQUE (tenant_id, schedule_key, schedule_bucket),
  CHECK ((schedule_key IS NULL) = (schedule_bucket IS NULL)),
  CHECK (kind = 'reconciliation' OR (external_source_system IS NULL AND changed_since IS NULL)),
  CHECK (status <> 'running' OR (lease_owner IS NOT NULL AND lease_expires_at IS NOT NULL)),
  CHECK ((status IN ('completed', 'cancelled', 'failed', 'stopped')) = (finished_at IS NOT NULL)),
  FOREIGN KEY (tenant_id, profile_version) REFERENCES matching_profile (tenant_id, profile_version)
) STRICT;
CREATE INDEX maintenance_job_by_status ON maintenance_job (tenant_id, status);
CREATE INDEX maintenance_job_newest ON maintenance_job (tenant_id, job_seq);

CREATE TABLE maintenance_job_phase (
  tenant_id TEXT NOT NULL,
  job_id TEXT NOT NULL,
  ordinal INTEGER NOT NULL CHECK (ordinal BETWEEN 1 AND 3),
  phase TEXT NOT NULL CHECK (phase IN ('validation', 'writing', 'importing', 'rebuilding', 'matching')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'skipped', 'cancelled', 'failed', 'stopped')),
  -- The last identity_id this phase finished (0: none yet).
  cursor_identity_id INTEGER NOT NULL DEFAULT 0 CHECK (cursor_identity_id >= 0),
  processed INTEGER NOT NULL DEFAULT 0 CHECK (processed >= 0),
  note TEXT CHECK (note IS NULL OR length(note) <= 500),
  started_at TEXT,
  finished_at TEXT,
  PRIMARY KEY (tenant_id, job_id, ordinal),
  UNIQUE (tenant_id, job_id, phase),
  FOREIGN KEY (tenant_id, job_id) REFERENCES maintenance_job (tenant_id, job_id)
) STRICT, WITHOUT ROWID;
