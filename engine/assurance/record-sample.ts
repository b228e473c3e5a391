/**
 * The records a whole-registry assurance read works on: all of the tenant's, or a seeded uniform sample of `max`
 * of them (in record-ID order) when the registry is larger. The blocking candidates among a uniform sample of
 * records are a uniform sample of the registry's blocking candidates: a pair is in it exactly when both its records
 * are, which has the same chance for every pair. So the estimate and the workbench's candidate draw read a bounded
 * number of records at any registry size, and describe the same population as a read of every record would.
 */
import type { Store } from '../store/store.ts';
import { countRecords } from '../store/records.ts';
import {
  recordFieldsByIds,
  tenantRecordFields,
  tenantRecordIds,
  type CandidateRecordRow,
} from '../store/candidate-records.ts';
import { sampleKeys } from '../stats/sample-keys.ts';

/**
 * The most records a whole-registry read of the workbench or of label sampling works on: on a larger registry, a
 * seeded uniform sample of this many, so the read costs the same at a million records as at a hundred thousand.
 */
export const MAX_SAMPLED_RECORDS = 100_000;

/** The seeded stream of the record sample (pair samples drawn from the same seed take others). */
const RECORD_SAMPLE_STREAM = 47;

export interface RecordSample {
  readonly rows: CandidateRecordRow[];
  /** The tenant's records: more than rows.length when rows is a sample. */
  readonly population: number;
}

export function readRecordSample(store: Store, tenantId: string, max: number, seed: number): RecordSample {
  const population = countRecords(store, tenantId);
  if (population <= max) return { rows: tenantRecordFields(store, tenantId), population };
  const sample = sampleKeys(tenantRecordIds(store, tenantId), max, seed, RECORD_SAMPLE_STREAM).sort((a, b) => a - b);
  return { rows: recordFieldsByIds(store, tenantId, sample), population };
}
