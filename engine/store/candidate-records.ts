/** Every source record of a tenant with its normalised matching fields, for the labelling workbench's candidate pairs. */
import type { Store } from './db.ts';

export interface CandidateRecordRow {
  readonly recordId: number;
  readonly sourceSystem: string;
  readonly localId: string;
  readonly fieldsJson: string;
}

/** In record-ID order, so that pair enumeration (and a seeded sample of it) is deterministic. */
export function tenantRecordFields(store: Store, tenantId: string): CandidateRecordRow[] {
  return store
    .statement(
      `SELECT record_id AS recordId, source_system AS sourceSystem, local_id AS localId, fields_json AS fieldsJson
       FROM source_record WHERE tenant_id = ? ORDER BY record_id`,
    )
    .all(tenantId) as CandidateRecordRow[];
}
