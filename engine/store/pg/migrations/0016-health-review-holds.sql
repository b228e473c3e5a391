-- Health samples gain review_holds_json: the review cases an ingest or a job opened, by what held them (SQLite's
-- migration 0026).
ALTER TABLE health_sample ADD COLUMN review_holds_json text CHECK (review_holds_json IS NULL OR (review_holds_json::jsonb) IS NOT NULL);
