/**
 * identitiesWithTags and candidateMembers (store/tags.ts, store/records.ts), the two reads of candidate discovery, on
 * both stores: across more tags and identities than one statement takes (32), each tag's block and each identity's
 * members equal what the rows say, at most `limit` of each, in the order asked; another tenant finds none.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { identitiesWithTags } from '../../../engine/store/tags.ts';
import { candidateMembers } from '../../../engine/store/records.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { scratchDir } from '../../helpers/temp.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';
import { TENANT, configOf, makeSandbox } from '../jobs/helpers.ts';

async function check(postgres: boolean): Promise<void> {
  const { dir, cleanup } = scratchDir();
  onTestFinished(cleanup);
  const dbPath = await makeSandbox(dir, 'blocks', 120, 5, postgres ? await freshDatabase() : undefined);
  const engine = LocalEngine.open({ dbPath, settingsPath: configOf(dbPath) });
  onTestFinished(() => {
    engine.close();
  });
  withTenant(TENANT, () => {
    const { store } = engine.env;
    const rows = store
      .statement('SELECT tag, identity_id FROM blocking_tag WHERE tenant_id = ? ORDER BY tag, identity_id')
      .raw()
      .all(TENANT) as [Buffer, number][];
    const holders = new Map<string, number[]>();
    for (const [tag, id] of rows) holders.set(tag.toString('hex'), [...(holders.get(tag.toString('hex')) ?? []), id]);
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
  });
}

describe('candidate discovery reads', () => {
  it('give every block and every member list as the rows say, across statements, on SQLite', async () => {
    await check(false);
  }, 120_000);

  it('do the same on PostgreSQL', async () => {
    await check(true);
  }, 240_000);
});
