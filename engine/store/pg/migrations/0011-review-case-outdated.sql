-- Whether a case is out of date is kept on the case, by triggers (SQLite's migration 0021): the review queue counts
-- and orders the cases that can be decided now from review_case alone. An identity's version only grows and a retired
-- identity stays retired, so the triggers only ever set the flag. Writers of a tenant are serialised (the tenant's
-- advisory lock), so a case and a change of its identity are never written concurrently.
ALTER TABLE review_case ADD COLUMN outdated integer NOT NULL DEFAULT 0 CHECK (outdated IN (0, 1));

-- Each tenant's cases under that tenant, as row-level security requires of every statement.
DO $$
DECLARE
  t text;
BEGIN
  FOR t IN SELECT tenant_id FROM tenant LOOP
    PERFORM set_config('mpi.tenant_id', t, true);
    UPDATE review_case c SET outdated = 1
    WHERE c.tenant_id = t AND (
      EXISTS (SELECT 1 FROM identity i WHERE i.identity_id = c.left_identity_id AND i.tenant_id = c.tenant_id
        AND (i.logical_version <> c.left_version OR i.status <> 'active'))
      OR EXISTS (SELECT 1 FROM identity i WHERE i.identity_id = c.right_identity_id AND i.tenant_id = c.tenant_id
        AND (i.logical_version <> c.right_version OR i.status <> 'active')));
  END LOOP;
  PERFORM set_config('mpi.tenant_id', '', true);
END
$$;

CREATE FUNCTION review_case_outdated_at_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM identity i WHERE i.identity_id = NEW.left_identity_id AND i.tenant_id = NEW.tenant_id
        AND (i.logical_version <> NEW.left_version OR i.status <> 'active'))
    OR EXISTS (SELECT 1 FROM identity i WHERE i.identity_id = NEW.right_identity_id AND i.tenant_id = NEW.tenant_id
        AND (i.logical_version <> NEW.right_version OR i.status <> 'active')) THEN
    NEW.outdated := 1;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER review_case_outdated_at_insert BEFORE INSERT ON review_case
  FOR EACH ROW EXECUTE FUNCTION review_case_outdated_at_insert();

CREATE FUNCTION identity_outdates_review_cases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE review_case SET outdated = 1
  WHERE tenant_id = NEW.tenant_id AND left_identity_id = NEW.identity_id AND outdated = 0
    AND (left_version <> NEW.logical_version OR NEW.status <> 'active');
  UPDATE review_case SET outdated = 1
  WHERE tenant_id = NEW.tenant_id AND right_identity_id = NEW.identity_id AND outdated = 0
    AND (right_version <> NEW.logical_version OR NEW.status <> 'active');
  RETURN NULL;
END
$$;
CREATE TRIGGER identity_outdates_review_cases AFTER UPDATE OF logical_version, status ON identity
  FOR EACH ROW WHEN (NEW.logical_version <> OLD.logical_version OR NEW.status <> OLD.status)
  EXECUTE FUNCTION identity_outdates_review_cases();

CREATE INDEX review_case_waiting ON review_case (tenant_id, created_at) WHERE status = 'open' AND outdated = 0;
CREATE INDEX review_case_by_age ON review_case (tenant_id, created_at);
