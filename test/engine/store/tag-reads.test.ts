/**
 * The blocking-tag and member reads of candidate discovery and re-index validation, on both stores.
 *
 * identitiesHolding (store/tags.ts), the probe re-index validation settles identities with: it finds an identity's
 * own tags, passed as views into a larger buffer as materialTag returns them, and no identity for a tag it does not
 * hold, across more probes than one statement takes. On PostgreSQL a probe that silently found nothing would not show
 * in re-index results (validation falls back to reading every tag), only in its cost.
 *
 * identitiesWithTags and candidateMembers (store/tags.ts, store/records.ts), the two reads of candidate discovery:
 * across more tags and identities than one statement takes (32), each tag's block and each identity's members equal
 * what the rows say, at most `limit` of each, in the order asked; another tenant finds none.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import type { Store } from '../../../engine/store/store.ts';
import { identitiesHolding, identitiesWithTags } from '../../../engine/store/tags.ts';
import { candidateMembers } from '../../../engine/store/records.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { scratchDir } from '../../helpers/temp.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';
import { TENANT, configOf, makeSandbox } from '../jobs/helpers.ts';

/** A synthetic sandbox of `people` people on SQLite or on a fresh PostgreSQL database, its engine closed after the test. */
async function sandboxEngine(postgres: boolean, people: number): Promise<LocalEngine> {
  const { dir, cleanup } = scratchDir();
  onTestFinished(cleanup);
  const dbPath = await makeSandbox(dir, 'tags', people, 5, postgres ? await freshDatabase() : undefined);
  const engine = LocalEngine.open({ dbPath, settingsPath: configOf(dbPath) });
  onTestFinished(() => {
    engine.close();
  });
  return engine;
}

/** Runs check on the sandbox's store with its tag rows (identity, tag), in the tenant's scope. */
async function onSandbox(postgres: boolean, check: (store: Store, rows: [number, Buffer][]) => void): Promise<void> {
  const engine = await sandboxEngine(postgres, 120);
  withTenant(TENANT, () => {
    const { store } = engine.env;
    const rows = store
      .statement('SELECT identity_id, tag FROM blocking_tag WHERE tenant_id = ? ORDER BY identity_id, tag')
      .raw()
      .all(TENANT) as [number, Buffer][];
    check(store, rows);
  });
}

function checkHolding(store: Store, rows: readonly [number, Buffer][]): void {
  // One tag of each of 40 identities, each as a view at an offset into a larger buffer.
  const firstTags = new Map<number, Buffer>();
  for (const [identityId, tag] of rows) if (!firstTags.has(identityId)) firstTags.set(identityId, tag);
  const owned = [...firstTags].slice(0, 40).map(([identityId, tag]) => {
    const wide = Buffer.alloc(tag.length + 16, 0xff);
    tag.copy(wide, 7);
    return { identityId, tag: wide.subarray(7, 7 + tag.length) };
  });
  expect(owned).toHaveLength(40);
  // The same tags paired with the next identity, which does not hold them.
  const swapped = owned.map((probe, i) => ({
    identityId: (owned[(i + 1) % owned.length] as typeof probe).identityId,
    tag: probe.tag,
  }));
  const heldBySomeoneElse = new Set(
    swapped.filter((p) => rows.some(([id, tag]) => id === p.identityId && tag.equals(p.tag))).map((p) => p.identityId),
  );
  expect(identitiesHolding(store, TENANT, owned)).toEqual(new Set(owned.map((p) => p.identityId)));
  expect(identitiesHolding(store, TENANT, swapped)).toEqual(heldBySomeoneElse);
  expect(identitiesHolding(store, TENANT, [])).toEqual(new Set());
}

function checkBlocks(store: Store, rows: readonly [number, Buffer][]): void {
  const holders = new Map<string, number[]>();
  for (const [id, tag] of rows) holders.set(tag.toString('hex'), [...(holders.get(tag.toString('hex')) ?? []), id]);
  // 70 tags (three statements), the most widely held first so blocks longer than the limit are among them, then
  // a tag nobody holds.
  const tags = [...holders.keys()]
    .sort((a, b) => (holders.get(b)?.length ?? 0) - (holders.get(a)?.length ?? 0) || a.localeCompare(b))
    .slice(0, 69)
    .map((hex) => Buffer.from(hex, 'hex'));
  tags.push(Buffer.alloc(16, 0xab));
  expect(holders.get(tags[0]?.toString('hex') ?? '')?.length).toBeGreaterThan(1);
  for (const limit of [1, 1000]) {
    const blocks = identitiesWithTags(store, TENANT, tags, limit);
    expect(blocks).toHaveLength(tags.length);
    blocks.forEach((block, i) => {
      const all = holders.get(tags[i]?.toString('hex') ?? '') ?? [];
      expect(block).toHaveLength(Math.min(all.length, limit));
      expect(all).toEqual(expect.arrayContaining(block));
    });
  }
  expect(identitiesWithTags(store, 'another-tenant', tags, 1000).flat()).toEqual([]);

  const links = store
    .statement('SELECT identity_id, record_id FROM identity_link WHERE tenant_id = ? ORDER BY identity_id, record_id')
    .raw()
    .all(TENANT) as [number, number][];
  const records = new Map<number, number[]>();
  for (const [id, recordId] of links) records.set(id, [...(records.get(id) ?? []), recordId]);
  // 50 identities (two statements), those with the most records first, in descending ID order.
  const identities = [...records.keys()]
    .sort((a, b) => (records.get(b)?.length ?? 0) - (records.get(a)?.length ?? 0) || b - a)
    .slice(0, 50);
  expect(records.get(identities[0] ?? 0)?.length).toBeGreaterThan(1);
  for (const limit of [1, 100]) {
    const members = candidateMembers(store, TENANT, identities, limit);
    expect([...members.keys()]).toEqual(identities);
    for (const id of identities)
      expect(members.get(id)?.map((m) => [m.identityId, m.recordId])).toEqual(
        (records.get(id) ?? []).slice(0, limit).map((recordId) => [id, recordId]),
      );
  }
  expect([...candidateMembers(store, 'another-tenant', identities, 100).values()].flat()).toEqual([]);
}

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('tag and member reads on %s', (_, postgres) => {
  it('identitiesHolding finds each identity holding its tag, and none for a tag it does not hold', async () => {
    await onSandbox(postgres, checkHolding);
  }, 240_000);

  it('identitiesWithTags and candidateMembers give every block and member list as the rows say, across statements', async () => {
    await onSandbox(postgres, checkBlocks);
  }, 240_000);
});
