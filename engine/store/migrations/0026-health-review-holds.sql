-- Health samples gain review_holds_json (ingests and jobs): the review cases opened, counted by what held them
-- (contract/health.ts REVIEW_HOLD_KEYS). Counts only, never values. Samples recorded before it was kept have none.
ALTER TABLE health_sample ADD COLUMN review_holds_json TEXT CHECK (review_holds_json IS NULL OR json_valid(review_holds_json));
