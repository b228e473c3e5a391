import type { Scorer } from '../scoring/scorer.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import type { CandidateRecordRow, SourceRecord } from '../store/records.ts';
import type { MatchFields } from '../contract/fields.ts';

/**
 * Prepared records by record ID and version, for one scorer. Bounded: when full it starts again, which
 * keeps memory flat in the population size (a miss only costs re-preparing).
 */
export class PreparedCache {
  private readonly entries = new Map<number, { version: number; prepared: PreparedRecord }>();
  constructor(
    private readonly scorer: Scorer,
    private readonly capacity = 50_000,
  ) {}

  /** The prepared record; a row's fields JSON is parsed only on a miss. */
  get(record: CandidateRecordRow | SourceRecord): PreparedRecord {
    const hit = this.entries.get(record.recordId);
    if (hit?.version === record.version) return hit.prepared;
    if (this.entries.size >= this.capacity) this.entries.clear();
    const fields = 'fields' in record ? record.fields : (JSON.parse(record.fieldsJson) as MatchFields);
    const prepared = this.scorer.prepare(fields);
    this.entries.set(record.recordId, { version: record.version, prepared });
    return prepared;
  }
}
