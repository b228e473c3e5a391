/**
 * LaterTagFilter (engine/jobs/later-tags.ts): reconciliation's matching phase and the impact preview look up only the
 * tags a later identity can hold. Checked on a real sandbox against the unfiltered lookups: the same later candidates
 * for every identity, at the scan and after clinical writes made since it; every tag while a re-index runs, or once
 * one ran after the scan; and the filter kept after a re-index that finished before the scan.
 */
import { describe, expect, it } from 'vitest';
import { LaterTagFilter } from '../../../engine/jobs/later-tags.ts';
import { laterCandidates } from '../../../engine/jobs/reconcile.ts';
import { rankCandidates } from '../../../engine/ingest/candidates.ts';
import { claimNextJob, insertJob } from '../../../engine/jobs/job-store.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { activeIdentitiesAfter } from '../../../engine/jobs/population.ts';
import { ingestStream } from '../../../engine/operations/ingest.ts';
import { tagsOfIdentity } from '../../../engine/store/tags.ts';
import type { Store } from '../../../engine/store/store.ts';
import { CTX, TENANT, openSandbox } from './helpers.ts';

/** Every active identity's ID, in order (the jobs' own batch read, as one batch). */
const activeIdentities = (store: Store): number[] =>
  activeIdentitiesAfter(store, TENANT, 0, Number.MAX_SAFE_INTEGER).map((i) => i.identityId);

const tagsOf = (store: Store, identityId: number): Buffer[] =>
  tagsOfIdentity(store, TENANT, identityId).map((t) => t.tag);

/**
 * Every identity's later candidates through the filter (its lookups, and its scan's blocks while they can answer) and
 * unfiltered, read in one snapshot. `fromScan`: the identities the scan's blocks answered for.
 */
function compare(
  store: Store,
  filter: LaterTagFilter,
): { differing: number[]; looked: number; tags: number; fromScan: number } {
  return store.read(() => {
    filter.refresh((id) => tagsOf(store, id));
    const differing: number[] = [];
    let looked = 0;
    let tags = 0;
    let fromScan = 0;
    for (const id of activeIdentities(store)) {
      const all = tagsOf(store, id);
      const kept = filter.lookUp(id, all);
      tags += all.length;
      looked += kept.length;
      const unfiltered = JSON.stringify(laterCandidates(store, TENANT, id, all));
      if (JSON.stringify(laterCandidates(store, TENANT, id, kept)) !== unfiltered) differing.push(id);
      const blocks = filter.laterBlocks(id);
      if (blocks === null) continue;
      fromScan++;
      if (JSON.stringify(rankCandidates(blocks, (other) => other > id)) !== unfiltered) differing.push(id);
    }
    return { differing, looked, tags, fromScan };
  });
}

/** A new patient sharing only a birth date and postcode with an identity's record: a new identity, later than all. */
function stranger(store: Store, identityId: number): string {
  const fields = JSON.parse(
    store
      .statement(
        'SELECT r.fields_json FROM source_record r JOIN identity_link l ON l.tenant_id = r.tenant_id AND l.record_id = r.record_id WHERE l.tenant_id = ? AND l.identity_id = ? LIMIT 1',
      )
      .pluck()
      .get(TENANT, identityId) as string,
  ) as { birthDate: string | null; postalCode: string | null };
  return JSON.stringify({
    resourceType: 'Patient',
    id: 'later-tags-stranger',
    name: [{ family: 'Quaxley', given: ['Zebedee'] }],
    birthDate: fields.birthDate,
    address: [{ postalCode: fields.postalCode }],
  });
}

describe('LaterTagFilter', () => {
  it('finds every later candidate the unfiltered lookups find, with a fraction of the lookups', async () => {
    const { store } = await openSandbox('filter', 600, 3);
    const filter = store.read(() => LaterTagFilter.scan(store, TENANT));
    const result = compare(store, filter);
    expect(result.differing).toEqual([]);
    // Nothing changed since the scan: its blocks answer for every identity, and no tag is read or looked up.
    expect(result.fromScan).toBe(activeIdentities(store).length);
    expect(filter.sharedTags).toBeGreaterThan(100);
    // Most tags are held by one identity, and the last holder of a shared tag needs no lookup either.
    expect(result.looked / result.tags).toBeLessThan(0.5);
    // The preview's and the audit's filter, read in the snapshot it is used in, keeps the same tags.
    expect(store.read(() => compare(store, LaterTagFilter.inSnapshot(store, TENANT))).looked).toBe(result.looked);
  });

  it('looks up what changed since its scan: a new identity sharing a tag the scan saw held once', async () => {
    const { engine, store } = await openSandbox('changed', 400, 4);
    const filter = store.read(() => LaterTagFilter.scan(store, TENANT));
    const stale = store.read(() => LaterTagFilter.scan(store, TENANT));
    // An identity with a birth date and postcode no other identity has (a tag the scan saw held once).
    const target = activeIdentities(store).find((id) => {
      const all = tagsOf(store, id);
      return all.length > 0 && filter.lookUp(id, all).length === 0;
    });
    expect(target).toBeDefined();
    const report = await ingestStream(engine.env, CTX, 'northside-gp', stranger(store, target ?? 0));
    expect(report.rejected).toEqual([]);
    const newest = Math.max(...activeIdentities(store));
    expect(newest).toBeGreaterThan(target ?? 0);
    const unfiltered = laterCandidates(store, TENANT, target ?? 0, tagsOf(store, target ?? 0));
    expect(unfiltered).toContain(newest);

    // A filter that did not read the events since its scan would miss the new identity: the check below can fail.
    expect(
      laterCandidates(store, TENANT, target ?? 0, stale.lookUp(target ?? 0, tagsOf(store, target ?? 0))),
    ).not.toContain(newest);
    expect(rankCandidates(stale.laterBlocks(target ?? 0) ?? [], (id) => id > (target ?? 0))).not.toContain(newest);
    const after = compare(store, filter);
    expect(after.differing).toEqual([]);
    // Once a change is read, the scan's blocks answer for no one: every identity's tags are read and looked up.
    expect(after.fromScan).toBe(0);
  });

  it('looks up every tag once a re-index runs beside it (a re-index writes tags without identity events)', async () => {
    const { store } = await openSandbox('reindex', 200, 5);
    const filter = store.read(() => LaterTagFilter.scan(store, TENANT));
    const id = activeIdentities(store)[0] ?? 0;
    const all = tagsOf(store, id);
    expect(filter.lookUp(id, all).length).toBeLessThan(all.length);
    const now = new Date().toISOString();
    store.write(() => {
      insertJob(
        store,
        TENANT,
        {
          jobId: 'reindex-beside',
          kind: 'reindex',
          reason: 'test',
          requestedBy: 'test',
          batchSize: 10,
          externalSourceSystem: null,
          changedSince: null,
          schedule: null,
          phases: [{ name: 'validation', status: 'pending' }],
        },
        now,
      );
      expect(claimNextJob(store, TENANT, 'other-worker', now, '2999-01-01T00:00:00.000Z')?.kind).toBe('reindex');
    });
    store.read(() => {
      filter.refresh((identityId) => tagsOf(store, identityId));
    });
    expect(filter.lookUp(id, all)).toEqual(all);
    expect(filter.laterBlocks(id)).toBeNull();
  });

  it('keeps filtering after a re-index that finished before its scan, and looks up every tag once another runs', async () => {
    const { engine, store } = await openSandbox('after-reindex', 200, 6);
    /** A re-index run to its end by this process's worker, as an analyst's would be. */
    const reindex = async (): Promise<void> => {
      const { jobId } = await engine.call('maintenance/reindex', { reason: 'test', batchSize: 25 }, CTX);
      await runWorker(engine.env, { tenants: [TENANT], once: true });
      expect((await engine.call('jobs/get', { jobId }, CTX)).status).toBe('completed');
    };
    // The usual order after a configuration change: re-index, then reconcile. The re-index finished a moment ago.
    await reindex();
    const queued = await engine.call('maintenance/reindex', { reason: 'queued at the scan', batchSize: 25 }, CTX);
    const filter = store.read(() => LaterTagFilter.scan(store, TENANT));
    const kept = compare(store, filter);
    expect(kept.differing).toEqual([]);
    expect(kept.fromScan).toBe(activeIdentities(store).length);
    expect(kept.looked / kept.tags).toBeLessThan(0.5);

    // The re-index that was queued at the scan now runs to its end between two batches: it may have written tags.
    await runWorker(engine.env, { tenants: [TENANT], once: true });
    expect((await engine.call('jobs/get', { jobId: queued.jobId }, CTX)).status).toBe('completed');
    const after = compare(store, filter);
    expect(after.differing).toEqual([]);
    expect(after.fromScan).toBe(0);
    expect(after.looked).toBe(after.tags);

    // A re-index started after the scan, and finished before the next batch, is seen too.
    const second = store.read(() => LaterTagFilter.scan(store, TENANT));
    expect(compare(store, second).fromScan).toBe(activeIdentities(store).length);
    await reindex();
    const late = compare(store, second);
    expect(late.fromScan).toBe(0);
    expect(late.looked).toBe(late.tags);
  });
});
