import type { Scorer } from '../scoring/scorer.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import type { CandidateMember, CandidateRecordRow, SourceRecord } from '../store/records.ts';
import type { MatchFields } from '../contract/fields.ts';

/**
 * Prepared records by record ID and version, for one scorer. Bounded in two generations: when the young one is
 * full it becomes the old one and the oldest is dropped, so records met again stay (a hit in the old generation
 * moves up) while memory stays flat in the population size; a miss only costs re-preparing.
 */
export class PreparedCache {
  private young = new Map<number, { version: number; prepared: PreparedRecord }>();
  private old = new Map<number, { version: number; prepared: PreparedRecord }>();
  constructor(
    private readonly scorer: Scorer,
    private readonly capacity = 100_000,
    /** False: records are prepared without their name counts (Scorer.prepareWithoutCounts). */
    private readonly nameCounts = true,
  ) {}

  /** The cached prepared record at this version, if any. */
  lookup(recordId: number, version: number): PreparedRecord | undefined {
    const hit = this.young.get(recordId);
    if (hit?.version === version) return hit.prepared;
    const older = this.old.get(recordId);
    if (older?.version !== version) return undefined;
    this.remember(recordId, older);
    return older.prepared;
  }

  /** Prepares and keeps a record's fields at this version. */
  put(recordId: number, version: number, fields: MatchFields): PreparedRecord {
    const prepared = this.nameCounts ? this.scorer.prepare(fields) : this.scorer.prepareWithoutCounts(fields);
    this.remember(recordId, { version, prepared });
    return prepared;
  }

  /** The prepared record; a row's fields JSON is parsed only on a miss. */
  get(record: CandidateRecordRow | SourceRecord): PreparedRecord {
    return (
      this.lookup(record.recordId, record.version) ??
      this.put(
        record.recordId,
        record.version,
        'fields' in record ? record.fields : (JSON.parse(record.fieldsJson) as MatchFields),
      )
    );
  }

  private remember(recordId: number, entry: { version: number; prepared: PreparedRecord }): void {
    if (this.young.size >= this.capacity / 2) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(recordId, entry);
  }
}

/** A candidate identity's record with its prepared form from each cache, in the caches' order. */
export interface PreparedMember {
  readonly member: CandidateMember;
  readonly prepared: readonly PreparedRecord[];
}

/** Every member's prepared record from each cache (one per scorer), its fields parsed only where a cache misses it. */
export function preparedMembers(
  caches: readonly PreparedCache[],
  members: ReadonlyMap<number, readonly CandidateMember[]>,
): Map<number, PreparedMember[]> {
  const out = new Map<number, PreparedMember[]>();
  for (const [identityId, rows] of members)
    out.set(
      identityId,
      rows.map((member) => ({ member, prepared: caches.map((cache) => cache.get(member)) })),
    );
  return out;
}
