/**
 * The registry walked as reconciliation's phases walk it, batch by batch of identities, never whole: the identities
 * that link several records, each with its records (an identity's first 100); and every active identity with its
 * later blocking candidates (jobs/reconcile.ts laterCandidatesOf), each involved identity's records prepared through
 * the given caches (one per scorer). Progress is reported per batch. Use inside one read transaction.
 *
 * Both walks can be held to some identities (`only`: ascending IDs, e.g. a seeded sample of them): each then walks
 * those identities alone, and a pair is met exactly when the identity it is met from is among them.
 */
import type { RunControl } from '../run-control.ts';
import type { Store } from '../store/store.ts';
import { countIdentities } from '../store/identities.ts';
import { candidateMembers, type CandidateMember } from '../store/records.ts';
import { MAX_COMPARED_RECORDS_PER_IDENTITY } from '../ingest/candidates.ts';
import { preparedMembers, type PreparedCache, type PreparedMember } from '../ingest/prepared-cache.ts';
import { laterCandidatesOf } from '../jobs/reconcile.ts';
import { LaterTagFilter } from '../jobs/later-tags.ts';
import { activeIdentitiesAfter, activeIdentitiesIn, type IdentityHead } from '../jobs/population.ts';
import { countSeveral, identitiesWithSeveral } from './link-quality.ts';

const BATCH = 200;

/** The records of each identity that links several, batch by batch (of `only`'s identities, when given). */
export function* linkedBatches(
  store: Store,
  tenantId: string,
  control: RunControl,
  phase: string,
  only?: readonly number[],
): Generator<Map<number, CandidateMember[]>> {
  if (only !== undefined) {
    control.step(phase, 0, only.length);
    for (let start = 0; start < only.length; start += BATCH) {
      const part = only.slice(start, start + BATCH);
      const members = candidateMembers(store, tenantId, part, MAX_COMPARED_RECORDS_PER_IDENTITY);
      yield new Map([...members].filter(([, records]) => records.length > 1));
      control.step(phase, Math.min(start + BATCH, only.length), only.length);
    }
    return;
  }
  const several = countSeveral(store, tenantId);
  let done = 0;
  control.step(phase, 0, several);
  for (let cursor = 0; ;) {
    const batch = identitiesWithSeveral(store, tenantId, cursor, BATCH);
    const last = batch.at(-1);
    if (last === undefined) return;
    cursor = last.identityId;
    yield candidateMembers(
      store,
      tenantId,
      batch.map((b) => b.identityId),
      MAX_COMPARED_RECORDS_PER_IDENTITY,
    );
    done += batch.length;
    control.step(phase, done, several);
  }
}

export interface CandidateBatch {
  readonly batch: readonly IdentityHead[];
  /** Each identity of the batch's later blocking candidates, rarest shared keys first. */
  readonly candidatesOf: ReadonlyMap<number, readonly number[]>;
  /** The records of every identity involved (the batch and its candidates), prepared by each cache. */
  readonly prepared: ReadonlyMap<number, readonly PreparedMember[]>;
}

/** Every active identity (of `only`'s, when given) with its later blocking candidates, batch by batch. */
export function* candidateBatches(
  store: Store,
  tenantId: string,
  caches: readonly PreparedCache[],
  control: RunControl,
  phase: string,
  only?: readonly number[],
): Generator<CandidateBatch> {
  const identities = only?.length ?? countIdentities(store, tenantId);
  control.step(phase, 0, identities);
  // The walk is one read snapshot: only the tags a later identity holds in it are looked up.
  const filter = LaterTagFilter.inSnapshot(store, tenantId);
  for (const [batch, walked] of activeBatches(store, tenantId, only)) {
    const candidatesOf = laterCandidatesOf(store, tenantId, batch, filter);
    const involved = [...new Set([...batch.map((b) => b.identityId), ...[...candidatesOf.values()].flat()])];
    const prepared = preparedMembers(
      caches,
      candidateMembers(store, tenantId, involved, MAX_COMPARED_RECORDS_PER_IDENTITY),
    );
    yield { batch, candidatesOf, prepared };
    control.step(phase, walked, identities);
  }
}

/**
 * The active identities batch by batch, ascending: all of the tenant's (by cursor), or `only`'s. Each batch comes
 * with how many identities of the walk it has covered so far; a batch of `only` left with no active identity is
 * skipped.
 */
function* activeBatches(
  store: Store,
  tenantId: string,
  only: readonly number[] | undefined,
): Generator<[batch: IdentityHead[], walked: number]> {
  if (only !== undefined) {
    for (let start = 0; start < only.length; start += BATCH) {
      const batch = activeIdentitiesIn(store, tenantId, only.slice(start, start + BATCH));
      if (batch.length > 0) yield [batch, Math.min(start + BATCH, only.length)];
    }
    return;
  }
  let walked = 0;
  for (let cursor = 0; ;) {
    const batch = activeIdentitiesAfter(store, tenantId, cursor, BATCH);
    const last = batch.at(-1);
    if (last === undefined) return;
    cursor = last.identityId;
    walked += batch.length;
    yield [batch, walked];
  }
}
