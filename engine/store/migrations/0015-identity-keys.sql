-- An identity's keys and version, in an index of their own: jobs look them up by the thousand (reconciliation reads
-- every candidate's version before it reuses prepared records), and the identity row holds the canonical record, some
-- 700 bytes, so a row per lookup read a page of canonical records for 30 bytes of keys. The index is about 40 bytes an
-- identity: it stays in the page cache where the table does not (a registry of a million people).
CREATE INDEX identity_keys ON identity (tenant_id, identity_id, logical_version, status, enterprise_id);
