-- Whether a case is out of date (either identity changed since the case was opened, or was retired) is kept on the
-- case, so the review queue counts and orders the cases that can be decided now from review_case alone. It was
-- computed by joining both identities to every case: the console's count of decidable cases, read on every list and
-- case page, took 470 ms with 235,000 waiting cases on the ingest bench's registry of 100,000 records, and grew with
-- the queue.
--
-- An identity's version only grows and a retired identity stays retired, so a case once out of date stays so: the
-- triggers only ever set the flag. A migration that rebuilds review_case must create its triggers again.
ALTER TABLE review_case ADD COLUMN outdated INTEGER NOT NULL DEFAULT 0 CHECK (outdated IN (0, 1));

UPDATE review_case SET outdated = 1
WHERE EXISTS (
    SELECT 1 FROM identity i WHERE i.identity_id = review_case.left_identity_id AND i.tenant_id = review_case.tenant_id
      AND (i.logical_version <> review_case.left_version OR i.status <> 'active'))
  OR EXISTS (
    SELECT 1 FROM identity i WHERE i.identity_id = review_case.right_identity_id AND i.tenant_id = review_case.tenant_id
      AND (i.logical_version <> review_case.right_version OR i.status <> 'active'));

-- A case opened at versions its identities are no longer at (or on a retired identity) is out of date from the start.
-- Each side is its own lookup by the identity's key: one condition over both sides made SQLite read every identity of
-- the tenant for each case.
CREATE TRIGGER review_case_outdated_at_insert AFTER INSERT ON review_case
WHEN EXISTS (
    SELECT 1 FROM identity i WHERE i.identity_id = NEW.left_identity_id AND i.tenant_id = NEW.tenant_id
      AND (i.logical_version <> NEW.left_version OR i.status <> 'active'))
  OR EXISTS (
    SELECT 1 FROM identity i WHERE i.identity_id = NEW.right_identity_id AND i.tenant_id = NEW.tenant_id
      AND (i.logical_version <> NEW.right_version OR i.status <> 'active'))
BEGIN
  UPDATE review_case SET outdated = 1 WHERE rowid = NEW.rowid;
END;

-- An identity that changes puts its cases opened at another version out of date, on either side.
CREATE TRIGGER identity_outdates_review_cases AFTER UPDATE OF logical_version, status ON identity
WHEN NEW.logical_version <> OLD.logical_version OR NEW.status <> OLD.status
BEGIN
  UPDATE review_case SET outdated = 1
  WHERE tenant_id = NEW.tenant_id AND left_identity_id = NEW.identity_id AND outdated = 0
    AND (left_version <> NEW.logical_version OR NEW.status <> 'active');
  UPDATE review_case SET outdated = 1
  WHERE tenant_id = NEW.tenant_id AND right_identity_id = NEW.identity_id AND outdated = 0
    AND (right_version <> NEW.logical_version OR NEW.status <> 'active');
END;

-- The queue's views: the waiting cases that can be decided now, oldest or newest first and counted from the index alone
-- (a partial index: the queue names status and outdated as literals, as it must for SQLite to choose it); and every
-- case by age, whatever its status.
CREATE INDEX review_case_waiting ON review_case (tenant_id, created_at) WHERE status = 'open' AND outdated = 0;
CREATE INDEX review_case_by_age ON review_case (tenant_id, created_at);
