-- Term frequencies of name values per tenant (scoring/term-frequency.ts): how many of the tenant's source records
-- carry each normalised family and given name, and how many carry one at all. Kept by the record writes
-- (store/term-frequency.ts) in the same transaction, so scoring reads current counts with one indexed lookup per
-- prepared record (and the field's total and Σ count² with it). The values are the normalised names already held in source_record.fields_json.
CREATE TABLE term_frequency (
  tenant_id TEXT NOT NULL REFERENCES tenant (tenant_id),
  field TEXT NOT NULL CHECK (field IN ('familyName', 'givenName')),
  value TEXT NOT NULL CHECK (length(value) >= 1),
  count INTEGER NOT NULL CHECK (count >= 1),
  PRIMARY KEY (tenant_id, field, value)
) STRICT, WITHOUT ROWID;

CREATE TABLE term_frequency_total (
  tenant_id TEXT NOT NULL REFERENCES tenant (tenant_id),
  field TEXT NOT NULL CHECK (field IN ('familyName', 'givenName')),
  total INTEGER NOT NULL CHECK (total >= 0),
  -- Σ count² over the field's values: Σ count² / total² is the chance that two records picked at random agree.
  sum_squares INTEGER NOT NULL CHECK (sum_squares >= 0),
  PRIMARY KEY (tenant_id, field)
) STRICT, WITHOUT ROWID;

-- Registries that already hold records start with their counts.
INSERT INTO term_frequency (tenant_id, field, value, count)
  SELECT tenant_id, 'familyName', json_extract(fields_json, '$.familyName') AS v, COUNT(*) FROM source_record
  WHERE json_type(fields_json, '$.familyName') = 'text' AND length(json_extract(fields_json, '$.familyName')) >= 1 GROUP BY tenant_id, v;
INSERT INTO term_frequency (tenant_id, field, value, count)
  SELECT tenant_id, 'givenName', json_extract(fields_json, '$.givenName') AS v, COUNT(*) FROM source_record
  WHERE json_type(fields_json, '$.givenName') = 'text' AND length(json_extract(fields_json, '$.givenName')) >= 1 GROUP BY tenant_id, v;
INSERT INTO term_frequency_total (tenant_id, field, total, sum_squares)
  SELECT tenant_id, field, SUM(count), SUM(count * count) FROM term_frequency GROUP BY tenant_id, field;
