/**
 * The source systems a tenant's rows name (sourceSystemsOf), for records and for review cases: each once, in order,
 * none of another tenant's (nor, for cases, of a case opened outside an ingestion, which has no source), read a step
 * per source from an index rather than by reading every row.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, movedAway, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import type { Store } from '../../../engine/store/store.ts';
import { insertReviewCase, type ReviewCaseWrite } from '../../../engine/store/reviews.ts';
import { sourceSystemsOf } from '../../../engine/store/source-systems.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';

const SOURCES = ['hospital', 'clinic', 'st-marys-hospital', 'Community-Pharmacy', 'northside-gp'];

/**
 * t1's sources are `inT1`, t2's the hospital alone, an unknown tenant's none; and each step of the scan is a search
 * of `index`, never a scan of the tenant's rows.
 */
function expectSources(
  store: Store,
  table: 'source_record' | 'review_case',
  inT1: readonly string[],
  index: string,
): void {
  expect(sourceSystemsOf(store, table, 't1')).toEqual(inT1);
  expect(sourceSystemsOf(store, table, 't2')).toEqual(['hospital']);
  expect(sourceSystemsOf(store, table, 'no-such-tenant')).toEqual([]);
  const plan = (
    store
      .statement(
        `EXPLAIN QUERY PLAN SELECT min(source_system) FROM ${table}
         WHERE tenant_id = ? AND source_system IS NOT NULL AND source_system > ?`,
      )
      .all('t1', 'clinic') as { detail: string }[]
  ).map((row) => row.detail);
  expect(plan.join('\n')).toMatch(new RegExp(`SEARCH ${table} USING COVERING INDEX ${index}`));
}

describe("the sources a tenant's rows name", () => {
  it('records: each once, in order, from the key, without another tenant’s, a source dropped from the profile too', async () => {
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

    expectSources(
      store,
      'source_record',
      ['Community-Pharmacy', 'clinic', 'northside-gp', 'st-marys-hospital'],
      'sqlite_autoindex_source_record_1',
    );
    engine.close();
  });

  it('review cases: each once, in order, from the index, without another tenant’s', async () => {
    const engine = openRegistry(tempDir(), ['t1', 't2']);
    const { store } = engine.env;
    // One case in each tenant, opened by the second record's ingestion: from the clinic in t1, the hospital in t2.
    for (const [tenantId, first, source] of [
      ['t1', 'hospital', 'clinic'],
      ['t2', 'clinic', 'hospital'],
    ] as const) {
      await engine.call(
        'records/ingest',
        { sourceSystem: first, ndjson: ndjson(patient({ id: 'h1', mrn: 'A1' })) },
        ctx(tenantId),
      );
      await engine.call(
        'records/ingest',
        { sourceSystem: source, ndjson: ndjson(movedAway('c-moved')) },
        ctx(tenantId),
      );
    }
    // The cases written below are about t1's two identities.
    const [left, right] = store
      .statement("SELECT left_identity_id, right_identity_id FROM review_case WHERE tenant_id = 't1'")
      .raw()
      .get() as [number, number];
    const write = (n: number, sourceSystem: string | null): void => {
      const c: ReviewCaseWrite = {
        caseId: `rc-${n.toString(16).padStart(32, '0')}`,
        kind: 'IngestionMatch',
        leftIdentityId: left,
        leftVersion: 1,
        rightIdentityId: right,
        rightVersion: 1,
        profileVersion: 1,
        score: 0.5,
        decision: 'probable',
        evidence: [],
        sourceSystem,
      };
      withTenant('t1', () => store.write(() => insertReviewCase(store, 't1', c, new Date().toISOString())));
    };
    // 600 more cases in t1 from three sources, and cases without a source.
    const sources = ['st-marys-hospital', 'Community Pharmacy', 'northside-gp'];
    for (let n = 1; n <= 600; n++) write(n, sources[n % 3] ?? null);
    for (let n = 601; n <= 610; n++) write(n, null);

    expectSources(
      store,
      'review_case',
      ['Community Pharmacy', 'clinic', 'northside-gp', 'st-marys-hospital'],
      'review_case_by_source',
    );
    engine.close();
  });
});
