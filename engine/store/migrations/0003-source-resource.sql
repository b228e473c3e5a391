-- The Patient as received moves out of source_record into its own table. Matching reads source_record rows
-- for every candidate; with the resource inline (about 1.3 KB) those rows stop fitting the page cache at
-- population scale and every candidate read becomes a disk read. The resource is read only on demand.
CREATE TABLE source_resource (
  record_id INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  resource_json TEXT NOT NULL,
  FOREIGN KEY (tenant_id, record_id) REFERENCES source_record (tenant_id, record_id)
) STRICT;

INSERT INTO source_resource (record_id, tenant_id, resource_json) SELECT record_id, tenant_id, resource_json FROM source_record;

ALTER TABLE source_record DROP COLUMN resource_json;
