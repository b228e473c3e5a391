import type { Scorer } from '../scoring/scorer.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import { fieldsJsonOf, type CandidateMember, type CandidateRecordRow, type SourceRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { MatchFields } from '../contract/fields.ts';
import { EngineError } from '../contract/errors.ts';

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
    const prepared = this.scorer.prepare(fields);
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

  /**
   * Prepared records for member rows read in one snapshot: the fields of the rows this cache misses are read in one
   * go (fieldsJsonOf), and the function returned gives each row's cached or freshly prepared record. A row whose
   * fields were not read would be a record that vanished within the snapshot, which cannot happen: it throws.
   */
  readerFor(store: Store, tenantId: string, rows: Iterable<CandidateMember>): (row: CandidateMember) => PreparedRecord {
    const misses: number[] = [];
    for (const row of rows) if (this.lookup(row.recordId, row.version) === undefined) misses.push(row.recordId);
    const fields = misses.length === 0 ? undefined : fieldsJsonOf(store, tenantId, misses);
    return (row) => {
      const cached = this.lookup(row.recordId, row.version);
      if (cached !== undefined) return cached;
      const json = fields?.get(row.recordId);
      if (json === undefined) throw new EngineError('internal', 'a candidate record vanished within one read');
      return this.put(row.recordId, row.version, JSON.parse(json) as MatchFields);
    };
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

/**
 * Every member's prepared record from each cache (one per scorer), reading in one go the fields of the members any
 * cache misses; a member whose fields cannot be read (it vanished) is left out.
 */
export function preparedMembers(
  store: Store,
  tenantId: string,
  caches: readonly PreparedCache[],
  members: ReadonlyMap<number, readonly CandidateMember[]>,
): Map<number, PreparedMember[]> {
  const misses = [...members.values()]
    .flat()
    .filter((m) => caches.some((cache) => cache.lookup(m.recordId, m.version) === undefined));
  const fields =
    misses.length === 0
      ? new Map<number, string>()
      : fieldsJsonOf(
          store,
          tenantId,
          misses.map((m) => m.recordId),
        );
  const preparedBy = (cache: PreparedCache, member: CandidateMember): PreparedRecord | undefined => {
    const hit = cache.lookup(member.recordId, member.version);
    if (hit !== undefined) return hit;
    const json = fields.get(member.recordId);
    return json === undefined ? undefined : cache.put(member.recordId, member.version, JSON.parse(json) as MatchFields);
  };
  const out = new Map<number, PreparedMember[]>();
  for (const [identityId, rows] of members) {
    out.set(
      identityId,
      rows.flatMap((member) => {
        const prepared = caches.map((cache) => preparedBy(cache, member));
        return prepared.every((p) => p !== undefined) ? [{ member, prepared }] : [];
      }),
    );
  }
  return out;
}
