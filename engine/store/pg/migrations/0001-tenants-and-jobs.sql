-- The registry on PostgreSQL, first step: tenants and the durable maintenance jobs with their phases, the parts
-- several replicas share first (claims, leases, fenced commits, schedules). The columns mirror the SQLite schema
-- (engine/store/migrations 0002, 0005), with a lease epoch added: every claim increments it, and a batch commits only
-- while the job's row still names the committing worker and epoch (engine/store/pg/jobs.ts).
--
-- Tenant isolation in the database: every tenant-scoped table has row-level security, forced for the table owner
-- too, against the tenant the transaction set (SET LOCAL mpi.tenant_id); a statement made without one is refused by
-- mpi_current_tenant() (SQLSTATE 42501), so a query that forgets its tenant fails instead of reading another's rows.
CREATE FUNCTION mpi_current_tenant() RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  tenant text := current_setting('mpi.tenant_id', true);
BEGIN
  IF tenant IS NULL OR tenant = '' THEN
    RAISE EXCEPTION 'no tenant is set for this transaction: every registry statement is tenant-scoped' USING ERRCODE = '42501';
  END IF;
  RETURN tenant;
END
$$;

CREATE TABLE tenant (
  tenant_id text PRIMARY KEY CHECK (tenant_id ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$'),
  created_at timestamptz NOT NULL
);

CREATE TABLE maintenance_job (
  job_seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenant (tenant_id),
  job_id text NOT NULL CHECK (job_id ~ '^[A-Za-z0-9-]{8,80}$'),
  kind text NOT NULL CHECK (kind IN ('reindex', 'reconciliation')),
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'cancelled', 'failed', 'stopped')),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  requested_by text NOT NULL CHECK (length(requested_by) BETWEEN 1 AND 200),
  batch_size integer NOT NULL CHECK (batch_size BETWEEN 1 AND 25),
  schedule_key text CHECK (schedule_key IS NULL OR length(schedule_key) BETWEEN 1 AND 64),
  schedule_bucket bigint CHECK (schedule_bucket IS NULL OR schedule_bucket >= 0),
  scanned bigint NOT NULL DEFAULT 0 CHECK (scanned >= 0),
  review_created bigint NOT NULL DEFAULT 0 CHECK (review_created >= 0),
  cancel_requested_by text,
  lease_owner text,
  lease_expires_at timestamptz,
  lease_epoch bigint NOT NULL DEFAULT 0 CHECK (lease_epoch >= 0),
  claims integer NOT NULL DEFAULT 0 CHECK (claims >= 0),
  takeovers integer NOT NULL DEFAULT 0 CHECK (takeovers >= 0),
  error text CHECK (error IS NULL OR length(error) <= 2000),
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  UNIQUE (tenant_id, job_id),
  -- Replicas enqueueing the same schedule bucket create one job.
  UNIQUE (tenant_id, schedule_key, schedule_bucket),
  CHECK ((schedule_key IS NULL) = (schedule_bucket IS NULL)),
  CHECK (status <> 'running' OR (lease_owner IS NOT NULL AND lease_expires_at IS NOT NULL)),
  CHECK ((status IN ('completed', 'cancelled', 'failed', 'stopped')) = (finished_at IS NOT NULL))
);
CREATE INDEX maintenance_job_claimable ON maintenance_job (tenant_id, job_seq) WHERE status IN ('queued', 'running');

ALTER TABLE maintenance_job ENABLE ROW LEVEL SECURITY;
ALTER TABLE maintenance_job FORCE ROW LEVEL SECURITY;
CREATE POLICY maintenance_job_tenant ON maintenance_job USING (tenant_id = mpi_current_tenant()) WITH CHECK (tenant_id = mpi_current_tenant());
