/** A tenant's source records with their normalised matching fields, for the labelling workbench's candidate pairs and the estimate. */
import type { Store } from './store.ts';
import { forIdChunks } from './id-chunks.ts';

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

/** Every record ID of the tenant, ascending (8 bytes a record: a sample of them is drawn without reading fields). */
export function tenantRecordIds(store: Store, tenantId: string): number[] {
  return store
    .statement('SELECT record_id FROM source_record WHERE tenant_id = ? ORDER BY record_id')
    .pluck()
    .all(tenantId) as number[];
}

/** Records by ID (ascending IDs in, the same order out), in one statement per 500 IDs. */
export function recordFieldsByIds(store: Store, tenantId: string, recordIds: readonly number[]): CandidateRecordRow[] {
  const out: CandidateRecordRow[] = [];
  forIdChunks(recordIds, 500, (part, placeholders) => {
    const rows = store
      .statement(
        `SELECT record_id AS recordId, source_system AS sourceSystem, local_id AS localId, fields_json AS fieldsJson
         FROM source_record WHERE tenant_id = ? AND record_id IN (${placeholders}) ORDER BY record_id`,
      )
      .all(tenantId, ...part) as CandidateRecordRow[];
    out.push(...rows);
  });
  return out;
}
