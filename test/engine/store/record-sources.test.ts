/**
 * The source systems a tenant's records came from (recordSources): each once, in order, none of another tenant's,
 * read a step per source from source_record's (tenant_id, source_system, local_id) key rather than by reading every
 * record.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import { recordSources } from '../../../engine/store/records.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';

const SOURCES = ['hospital', 'clinic', 'st-marys-hospital', 'Community-Pharmacy', 'northside-gp'];

describe("the sources a tenant's records came from", () => {
  it('are each listed once, in order, from the key, without another tenant’s, a source dropped from the profile too', async () => {
    const profile = defaultProfile(SOURCES.map((SourceSystem) => ({ SourceSystem })));
    const engine = openRegistry(tempDir(), ['t1', 't2'], profile);
    const { store } = engine.env;
    const people = (prefix: string, n: number) =>
      ndjson(...Array.from({ length: n }, (_, i) => patient({ id: `${prefix}${String(i)}`, family: `F${String(i)}` })));
    for (const source of ['st-marys-hospital', 'Community-Pharmacy', 'northside-gp'])
      await engine.call('records/ingest', { sourceSystem: source, ndjson: people(source, 200) }, ctx('t1'));
    await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: people('c', 3) }, ctx('t1'));
    await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: people('h', 3) }, ctx('t2'));
    // The GP practice leaves the profile; its records stay, and can still be looked up by its name.
    await engine.call(
      'profile/apply',
      {
        document: {
          SourceTrust: SOURCES.filter((s) => s !== 'northside-gp').map((SourceSystem) => ({ SourceSystem })),
        },
        reason: 'test: the practice closed',
      },
      ctx('t1'),
    );

    expect(recordSources(store, 't1')).toEqual(['Community-Pharmacy', 'clinic', 'northside-gp', 'st-marys-hospital']);
    expect(recordSources(store, 't2')).toEqual(['hospital']);
    expect(recordSources(store, 'no-such-tenant')).toEqual([]);
    // Each step is a search of the key, never a scan of the tenant's records.
    const plan = (
      store
        .statement(
          `EXPLAIN QUERY PLAN SELECT min(source_system) FROM source_record WHERE tenant_id = ? AND source_system > ?`,
        )
        .all('t1', 'clinic') as { detail: string }[]
    ).map((row) => row.detail);
    expect(plan.join('\n')).toMatch(/SEARCH source_record USING COVERING INDEX sqlite_autoindex_source_record_1/);
    engine.close();
  });
});
