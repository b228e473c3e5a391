/**
 * Which blocking tags of an identity are worth looking up when only its later candidates (a higher identity_id) are
 * wanted, as reconciliation's matching phase and the impact preview want them (reconcile.ts laterCandidates).
 *
 * Most tags are held by one identity alone (on the jobs bench's registry of 100,000 people, 1.18 million of 1.63
 * million tag rows), and their lookups found nothing but the identity itself: the greater part of the matching
 * phase's reads. At the start of a run one ordered scan of the tag index notes every tag held by two or more
 * identities with the highest identity holding it. A lookup is then made only when a later identity can hold the
 * tag: the scan saw one, or the tag or the identity changed since. The scan keeps the holders of every block small
 * enough to rank candidates with (shared-tags.ts), so while nothing has changed since it, an identity's later
 * blocks come from memory and neither its tags nor their blocks are read at all (`laterBlocks`).
 *
 * Exact while clinical writes go on: every write that adds tags to an identity (ingestion's new identity, its
 * auto-link, a changed record's re-tagging: ingest/ingestor.ts) writes an identity event in the same transaction.
 * Before each batch the filter reads the events written since its scan (SQLite gives event IDs in commit order,
 * one writer at a time), and from then on every tag of an identity named there is looked up, whoever holds it. A
 * re-index writes tags without events: once one runs that had not finished when the scan was read (the scan notes
 * the first such job's number, job-store.ts reindexWatermark), every tag is looked up for the rest of the run. A
 * re-index that finished before the scan wrote nothing the scan did not see, so a reconciliation right after one
 * (the usual order after a configuration change) keeps the filter, and no worker's clock is consulted.
 *
 * PostgreSQL assigns event IDs from a sequence in insertion order, not commit order, so an event committed late can
 * carry an ID below the one read: there a job's filter is not used and every tag is looked up, as before.
 *
 * A reader whose every lookup is made in the scan's own read snapshot (the impact preview and the audit sample walk
 * the registry in one read transaction) sees no change at all: `inSnapshot` gives it the filter on either store.
 *
 * Memory: shared-tags.ts, some 6 MB for 100,000 people.
 */
import type { Store } from '../store/store.ts';
import { sharedTagHoldersAfter } from '../store/tags.ts';
import { SharedTags } from './shared-tags.ts';
import { identitiesChangedAfter, lastEventId } from '../store/identity-events.ts';
import { reindexStartedFrom, reindexWatermark } from './job-store.ts';
import { tagHex } from '../blocking/tags.ts';

const SCAN_PAGE = 65_536;
/** Past this many changed tags (a large import beside the job) every tag is looked up: memory stays bounded. */
const MAX_CHANGED_TAGS = 1_000_000;

/** The IDs in ascending order: as they come, unless they do not. */
function ascending(ids: number[]): number[] {
  for (let i = 1; i < ids.length; i++) if ((ids[i] ?? 0) < (ids[i - 1] ?? 0)) return ids.sort((a, b) => a - b);
  return ids;
}

export class LaterTagFilter {
  private readonly changedIdentities = new Set<number>();
  private readonly changedTags = new Set<string>();
  private exhaustive: boolean;

  private constructor(
    private readonly store: Store,
    private readonly tenantId: string,
    private readonly shared: SharedTags,
    private eventMark: number,
    private readonly reindexMark: number,
    private readonly followsChanges: boolean,
  ) {
    this.exhaustive = followsChanges && store.kind !== 'sqlite';
  }

  /**
   * Scans the tenant's shared tags. Call it inside a read transaction (the first batch's), so the scan and the event
   * mark are one snapshot.
   */
  static scan(store: Store, tenantId: string): LaterTagFilter {
    return LaterTagFilter.read(store, tenantId, true);
  }

  /** For a reader that makes every lookup in the read transaction it calls this in: `refresh` is then not needed. */
  static inSnapshot(store: Store, tenantId: string): LaterTagFilter {
    return LaterTagFilter.read(store, tenantId, false);
  }

  private static read(store: Store, tenantId: string, followsChanges: boolean): LaterTagFilter {
    const shared = new SharedTags();
    if (followsChanges && store.kind !== 'sqlite') return new LaterTagFilter(store, tenantId, shared, 0, 0, true);
    // Before the scan: whatever changes after these marks, the scan or the events and jobs since them show.
    const mark = followsChanges ? lastEventId(store, tenantId) : 0;
    const reindexMark = followsChanges ? reindexWatermark(store, tenantId) : 0;
    for (let after: Buffer | null = null; ;) {
      const page = sharedTagHoldersAfter(store, tenantId, after, SCAN_PAGE);
      for (const [tag, holders] of page) shared.push(tag, ascending(holders.split(',').map(Number)));
      const end = page.at(-1);
      if (end === undefined || page.length < SCAN_PAGE) break;
      after = end[0];
    }
    shared.finish();
    return new LaterTagFilter(store, tenantId, shared, mark, reindexMark, followsChanges);
  }

  /** Shared tags the scan noted (a figure for tests and benches). */
  get sharedTags(): number {
    return this.shared.count;
  }

  /**
   * Folds in what changed since the scan: call it at the start of every batch, inside the batch's read transaction,
   * before `lookUp`. `tagsOf` reads an identity's stored tags in that transaction.
   */
  refresh(tagsOf: (identityId: number) => readonly Buffer[]): void {
    if (this.exhaustive || !this.followsChanges) return;
    if (reindexStartedFrom(this.store, this.tenantId, this.reindexMark)) {
      this.exhaustive = true;
      return;
    }
    const changed = identitiesChangedAfter(this.store, this.tenantId, this.eventMark);
    this.eventMark = changed.lastEventId;
    for (const identityId of changed.identityIds) {
      this.changedIdentities.add(identityId);
      for (const tag of tagsOf(identityId)) this.changedTags.add(tagHex(tag));
    }
    if (this.changedTags.size > MAX_CHANGED_TAGS) this.exhaustive = true;
  }

  /**
   * The blocks of the identity's tags that a later identity holds, in tag order, from the scan: while nothing changed
   * since it, they are what looking the identity's stored tags up would read. Null when something changed (or no scan
   * was made): the caller then reads the stored tags and looks up those `lookUp` keeps.
   */
  laterBlocks(identityId: number): Int32Array[] | null {
    if (this.exhaustive || this.changedIdentities.size > 0) return null;
    return this.shared.laterBlocks(identityId);
  }

  /**
   * True when the filter follows the registry's changes and no event since its scan names the identity (as of the last
   * `refresh`): its records, links and version are as they were in every snapshot read since the scan. Every change
   * to an identity's version is written with an identity event in its transaction (store/identities.ts
   * updateCanonical's callers), so a reader may keep what it read of the identity after the scan without reading its
   * version again. False when changes are not followed (PostgreSQL, a re-index since the scan, too many changes).
   */
  unchangedSinceScan(identityId: number): boolean {
    return this.followsChanges && !this.exhaustive && !this.changedIdentities.has(identityId);
  }

  /** The identity's tags a later identity can hold, in their order. */
  lookUp(identityId: number, tags: readonly Buffer[]): Buffer[] {
    if (this.exhaustive || this.changedIdentities.has(identityId)) return [...tags];
    return tags.filter(
      (tag) =>
        this.shared.lastHolder(tag) > identityId || (this.changedTags.size > 0 && this.changedTags.has(tagHex(tag))),
    );
  }
}
