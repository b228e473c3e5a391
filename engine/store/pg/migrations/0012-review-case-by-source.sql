-- The sources named by a tenant's review cases, for the review list's source filter (SQLite's migration 0022).
CREATE INDEX review_case_by_source ON review_case (tenant_id, source_system) WHERE source_system IS NOT NULL;
