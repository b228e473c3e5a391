-- Open review cases by identity pair, so reconciliation can see that a pair is already under review.
CREATE INDEX review_case_pair ON review_case (tenant_id, left_identity_id, right_identity_id, status);
