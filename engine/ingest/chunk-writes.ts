/**
 * What a chunk of records written in one transaction shares (ndjson.ts ingestChunk, the import's pages):
 * - the records its local identifiers named when it began, read in one statement per 500 identifiers of a source
 *   system instead of one statement per record (on PostgreSQL, a round trip each). The first look-up of an identifier
 *   in the chunk is answered from them; a later one, which may follow a write of the same record in this chunk, reads
 *   the record afresh;
 * - the rows nothing reads back while it is written, which go in multi-row inserts at its end
 *   (store/deferred-rows.ts).
 * Only the first run of a chunk uses one; its replay, record by record in savepoints, reads and writes as it goes.
 */
import { DeferredRows } from '../store/deferred-rows.ts';
import { findRecord, findRecords, type SourceRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { PreparedResource } from './record-preparer.ts';

export class ChunkWrites {
  readonly rows: DeferredRows;
  /**
   * By source system and local identifier (joined by a NUL): each record named by the chunk's resources as it
   * stood when the chunk began, null when there was none. A key is dropped once looked up.
   */
  private readonly before = new Map<string, SourceRecord | null>();

  constructor(
    private readonly store: Store,
    readonly tenantId: string,
    resources: readonly PreparedResource[],
  ) {
    this.rows = new DeferredRows(store);
    const refs = resources.flatMap((resource) => (resource.kind === 'ready' ? [resource.write] : []));
    const found = findRecords(store, tenantId, refs);
    for (const { sourceSystem, localId } of refs)
      this.before.set(keyOf(sourceSystem, localId), found.get(sourceSystem)?.get(localId) ?? null);
  }

  /**
   * The record as it stands now in this transaction (findRecord): the first look-up of a record the chunk named is
   * answered from what was read when it began; any other reads it afresh.
   */
  findRecord(sourceSystem: string, localId: string): SourceRecord | undefined {
    const key = keyOf(sourceSystem, localId);
    const known = this.before.get(key);
    if (known === undefined) return findRecord(this.store, this.tenantId, sourceSystem, localId);
    this.before.delete(key);
    return known ?? undefined;
  }

  /** Writes the deferred rows: before the chunk's transaction commits. */
  flush(): void {
    this.rows.flush();
  }
}

function keyOf(sourceSystem: string, localId: string): string {
  return `${sourceSystem}\u0000${localId}`;
}
