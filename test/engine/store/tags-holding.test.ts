/**
 * identitiesHolding (store/tags.ts), the probe re-index validation settles identities with, on both stores: it finds
 * an identity's own tags, passed as views into a larger buffer as materialTag returns them, and no identity for a tag
 * it does not hold, across more probes than one statement takes. On PostgreSQL a probe that silently found nothing
 * would not show in re-index results (validation falls back to reading every tag), only in its cost.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { identitiesHolding } from '../../../engine/store/tags.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { scratchDir } from '../../helpers/temp.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';
import { TENANT, configOf, makeSandbox } from '../jobs/helpers.ts';

async function check(postgres: boolean): Promise<void> {
  const { dir, cleanup } = scratchDir();
  onTestFinished(cleanup);
  const dbPath = await makeSandbox(dir, 'tags', 60, 5, postgres ? await freshDatabase() : undefined);
  const engine = LocalEngine.open({ dbPath, settingsPath: configOf(dbPath) });
  onTestFinished(() => {
    engine.close();
  });
  withTenant(TENANT, () => {
    const { store } = engine.env;
    const rows = store
      .statement('SELECT identity_id, tag FROM blocking_tag WHERE tenant_id = ? ORDER BY identity_id, tag')
      .raw()
      .all(TENANT) as [number, Buffer][];
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
      swapped
        .filter((p) => rows.some(([id, tag]) => id === p.identityId && tag.equals(p.tag)))
        .map((p) => p.identityId),
    );
    expect(identitiesHolding(store, TENANT, owned)).toEqual(new Set(owned.map((p) => p.identityId)));
    expect(identitiesHolding(store, TENANT, swapped)).toEqual(heldBySomeoneElse);
    expect(identitiesHolding(store, TENANT, [])).toEqual(new Set());
  });
}

describe('identitiesHolding', () => {
  it('finds each identity holding its tag, and none for a tag it does not hold, on SQLite', async () => {
    await check(false);
  }, 120_000);

  it('does the same on PostgreSQL', async () => {
    await check(true);
  }, 240_000);
});
