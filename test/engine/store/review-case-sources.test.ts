/**
 * The source systems a tenant's review cases name (reviewCaseSources): each once, in order, none of another tenant's
 * and none for cases opened outside an ingestion (no source), read a step per source from review_case_by_source
 * rather than by reading every case.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, movedAway, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import { insertReviewCase, reviewCaseSources, type ReviewCaseWrite } from '../../../engine/store/reviews.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';

describe("the sources a tenant's review cases name", () => {
  it('are each listed once, in order, from the index, without another tenant’s', async () => {
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

    expect(reviewCaseSources(store, 't1')).toEqual([
      'Community Pharmacy',
      'clinic',
      'northside-gp',
      'st-marys-hospital',
    ]);
    expect(reviewCaseSources(store, 't2')).toEqual(['hospital']);
    expect(reviewCaseSources(store, 'no-such-tenant')).toEqual([]);
    // Each step is a search of the source index, never a scan of the tenant's cases.
    const plan = (
      store
        .statement(
          `EXPLAIN QUERY PLAN SELECT min(source_system) FROM review_case
           WHERE tenant_id = ? AND source_system IS NOT NULL AND source_system > ?`,
        )
        .all('t1', 'clinic') as { detail: string }[]
    ).map((row) => row.detail);
    expect(plan.join('\n')).toMatch(/SEARCH review_case USING COVERING INDEX review_case_by_source/);
    engine.close();
  });
});
