import type { Scorer } from '../scoring/scorer.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import type { SourceRecord } from '../store/records.ts';

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

  get(record: SourceRecord): PreparedRecord {
    const hit = this.entries.get(record.recordId);
    if (hit?.version === record.version) return hit.prepared;
    if (this.entries.size >= this.capacity) this.entries.clear();
    const prepared = this.scorer.prepare(record.fields);
    this.entries.set(record.recordId, { version: record.version, prepared });
    return prepared;
  }
}
