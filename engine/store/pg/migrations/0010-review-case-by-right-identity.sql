-- An identity's review cases are found from either side (SQLite's migration 0020): the pair index leads with the
-- left identity; this one serves the right.
CREATE INDEX review_case_by_right ON review_case (tenant_id, right_identity_id);
