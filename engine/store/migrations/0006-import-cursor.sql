-- The Importing phase of a reconciliation with an external FHIR source pages through a search. Its cursor is
-- the validated next-page URL (NULL: the search has not started; '' : the last page was committed), kept in the
-- same row and transaction as the page's writes and counters, so a resumed job reads the page after the last
-- committed one. cursor_identity_id counts the committed pages for this phase.
ALTER TABLE maintenance_job_phase ADD COLUMN cursor_url TEXT CHECK (cursor_url IS NULL OR length(cursor_url) <= 8192);

-- The local identifiers a full (non-incremental) import has seen, written with each page: at the end, the
-- source's records it did not return are counted as warnings (never unlinked or deleted), then these rows go.
CREATE TABLE maintenance_import_seen (
  tenant_id TEXT NOT NULL,
  job_id TEXT NOT NULL,
  local_id TEXT NOT NULL CHECK (length(local_id) BETWEEN 1 AND 200),
  PRIMARY KEY (tenant_id, job_id, local_id),
  FOREIGN KEY (tenant_id, job_id) REFERENCES maintenance_job (tenant_id, job_id)
) STRICT, WITHOUT ROWID;
