-- The engine's jobs run through one path on both stores (engine/jobs/job-store.ts): a batch commits only while the
-- job's row names the committing worker and its phase cursor is where the batch began, checked in the commit's
-- own transaction under the tenant's writer lock. The lease epoch of the first, separate PostgreSQL job module is
-- no longer read or written; the column goes, so the two schemas hold the same columns.
ALTER TABLE maintenance_job DROP COLUMN lease_epoch;
