-- The review list's "Held by" filter (SQLite's migration 0025).
CREATE INDEX review_case_by_hold ON review_case (tenant_id, limited_by, twin_reason, status, outdated, created_at);
