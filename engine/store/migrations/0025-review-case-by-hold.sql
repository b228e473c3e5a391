-- The review list's "Held by" filter (reviews.ts filterSql: limited_by, with twin_reason for one case of the twin
-- rule, or limited_by IS NULL for the cases no rule held): its cases are counted and paged oldest first on this index,
-- where the filter read every waiting case of the tenant (37 ms of 250,000 cases in the reviews bench).
CREATE INDEX review_case_by_hold ON review_case (tenant_id, limited_by, twin_reason, status, created_at);
