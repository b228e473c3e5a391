-- The sources named by a tenant's review cases (the source of the record that opened an ingestion case) are what the
-- review list's source filter can name; this index lists them a step per source (reviews.ts reviewCaseSources) and
-- serves that filter, which read every case of the tenant before.
CREATE INDEX review_case_by_source ON review_case (tenant_id, source_system) WHERE source_system IS NOT NULL;
