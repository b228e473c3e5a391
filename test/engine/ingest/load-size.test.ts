/**
 * A load's pairs are judged at the size it brings the registry to (engine/ingest/load-size.ts): a load's first records
 * are linked as its last are, not under the higher prior of the registry they arrive in while it is still small.
 *
 * The pair is registry-prior.test.ts's: one given name, one birth date and one sex, a family name only partly alike
 * ("guillermo halvorson" and "guillermo hyatt"). Each tenant starts as a registry of 100 records (name counts only,
 * none of the pair's names) under a model whose prior was set for 100 records, so a load of 600 records lowers the
 * prior to a sixth of it: enough to take the pair from Certain to Probable.
 */
import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, testProfile } from '../../helpers/registry.ts';
import type { LocalEngine } from '../../../engine/local-engine.ts';
import { ingestStream } from '../../../engine/operations/ingest.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { linesOfBytes, linesOfText, recordsAfterLoad } from '../../../engine/ingest/load-size.ts';
import type { MatchingProfile } from '../../../engine/contract/profile.ts';
import { countsOfRegistry, namesakes, priorSetFor, strangers } from '../../helpers/load-size.ts';

const REGISTRY_BEFORE = 100;
const [HALVORSON, HYATT] = namesakes((index) => ({ id: `p${String(index)}` }));
const others = (count: number): Record<string, unknown>[] => strangers(count, (i) => ({ id: `o${String(i)}` }));

function profileOfSmallRegistry(): MatchingProfile {
  return priorSetFor(testProfile(), REGISTRY_BEFORE);
}

function registryOf100(engine: LocalEngine, tenantId: string): void {
  countsOfRegistry(engine, tenantId, REGISTRY_BEFORE);
}

async function pairOutcome(engine: LocalEngine, tenantId: string) {
  const identities = await engine.call('identities/list', { limit: 1000, offset: 0 }, ctx(tenantId));
  const enterprise = (localId: string): string | undefined =>
    identities.rows.find((row) => row.localId === localId)?.enterpriseId;
  const reviews = await engine.call('reviews/list', { status: 'open', limit: 1000, offset: 0 }, ctx(tenantId));
  const pair = [enterprise('p1'), enterprise('p2')].sort().join(' ');
  const aboutThePair = reviews.rows.filter(
    (row) => [row.leftEnterpriseId, row.rightEnterpriseId].sort().join(' ') === pair,
  );
  return { linked: enterprise('p1') === enterprise('p2'), reviews: aboutThePair.length, records: identities.total };
}

describe('a load judged at the size it brings the registry to', () => {
  it('counts the lines of text and of a byte stream split anywhere, a last line without its line feed included', async () => {
    expect(linesOfText('')).toBe(0);
    expect(linesOfText('{}\n{}\n')).toBe(2);
    expect(linesOfText('{}\n\n{}')).toBe(3);
    const bytes = Buffer.from('{"a":1}\n{"b":2}\n\n{"c":3}');
    const split = (at: number[]): Buffer[] =>
      [0, ...at].map((start, i) => bytes.subarray(start, [...at, bytes.length][i]));
    for (const at of [[], [1], [7, 8], [8, 16, 17], [bytes.length - 1]])
      expect(await linesOfBytes(split(at))).toBe(linesOfText(bytes.toString()));
    expect(await linesOfBytes([Buffer.from('{}\n'), Buffer.alloc(0)])).toBe(1);
    expect(await linesOfBytes([])).toBe(0);
  });

  it('links a pair at the head of a large load as the load links it at its end, where it linked it before', async () => {
    const engine = openRegistry(tempDir(), ['alone', 'head'], profileOfSmallRegistry());
    for (const tenantId of ['alone', 'head']) registryOf100(engine, tenantId);

    // The pair alone: a registry of 102 records, the prior as set; linked.
    await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(HALVORSON, HYATT) }, ctx('alone'));
    expect(await pairOutcome(engine, 'alone')).toEqual({ linked: true, reviews: 0, records: 2 });

    // The pair first of 500 records: judged at the 600 records the load brings the registry to, a sixth of the prior;
    // a review case, where it was linked when judged at the 101 records the registry held when it came.
    const load = ndjson(HALVORSON, HYATT, ...others(498));
    expect(withTenantRecordsAfter(engine, 'head', load)).toBe(REGISTRY_BEFORE + 500);
    await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: load }, ctx('head'));
    expect(await pairOutcome(engine, 'head')).toEqual({ linked: false, reviews: 1, records: 500 });
    const explained = await engine.call(
      'matching/explain',
      { left: { sourceSystem: 'clinic', localId: 'p1' }, right: { sourceSystem: 'clinic', localId: 'p2' } },
      ctx('head'),
    );
    expect(explained.decision).toBe('probable');
    engine.close();
  });

  it('takes the records a source already has as ones its file brings again, and the size a caller says the registry will reach', async () => {
    const dir = tempDir();
    const engine = openRegistry(dir, ['t1'], profileOfSmallRegistry());
    registryOf100(engine, 't1');
    const { store } = engine.env;
    const after = (sourceSystem: string, lines: number, expectedRecords?: number): number =>
      store.read(() => recordsAfterLoad(store, 't1', sourceSystem, { lines, expectedRecords }));
    expect(after('clinic', 0)).toBe(0);
    expect(after('clinic', 300)).toBe(REGISTRY_BEFORE + 300);
    expect(after('clinic', 300, 1_000_000)).toBe(1_000_000);
    expect(after('clinic', 300, 50)).toBe(REGISTRY_BEFORE + 300);

    // An interrupted file run again: its stored records are not counted twice.
    const file = join(dir, 'clinic.ndjson');
    writeFileSync(file, ndjson(...others(40)));
    await withTenant('t1', () => ingestStream(engine.env, ctx('t1'), 'clinic', createReadStream(file), undefined, {}));
    expect(after('clinic', 40)).toBe(0);
    expect(after('clinic', 100)).toBe(REGISTRY_BEFORE + 40 + 60);
    expect(after('hospital', 100)).toBe(REGISTRY_BEFORE + 40 + 100);
    engine.close();
  });

  it('judges a pair at the size the caller says the registry will reach, however small the load', async () => {
    const dir = tempDir();
    const engine = openRegistry(dir, ['t1'], profileOfSmallRegistry());
    registryOf100(engine, 't1');
    const file = join(dir, 'pair.ndjson');
    writeFileSync(file, ndjson(HALVORSON, HYATT));
    await withTenant('t1', () =>
      ingestStream(engine.env, ctx('t1'), 'clinic', createReadStream(file), undefined, { expectedRecords: 600 }),
    );
    expect(await pairOutcome(engine, 't1')).toEqual({ linked: false, reviews: 1, records: 2 });
    engine.close();
  });
});

function withTenantRecordsAfter(engine: LocalEngine, tenantId: string, text: string): number {
  const { store } = engine.env;
  return store.read(() => recordsAfterLoad(store, tenantId, 'clinic', { lines: linesOfText(text) }));
}
