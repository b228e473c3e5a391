/**
 * An import from a FHIR server is judged at the size it brings the registry to (engine/ingest/load-size.ts), read off
 * its first page's Bundle.total: a pair on its first page is linked as a pair on its last would be. The source holds
 * registry-prior.test.ts's namesakes first, then 498 people who are nobody else; the registry holds 100 records (name
 * counts only) under a model whose prior was set for 100, so the import's 500 lower it to a sixth: from Certain to
 * Probable for the namesakes. Real servers on loopback (test/helpers/fhir/world.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import { readSearchPage } from '../../../engine/fhir-source/bundle.ts';
import {
  CTX,
  importAndReconcile,
  makeRegistry,
  SOURCE_MRN_SYSTEM,
  startWorld,
  TENANT,
  type World,
} from '../../helpers/fhir/world.ts';
import { countsOfRegistry, namesakes, priorSetFor, strangers } from '../../helpers/load-size.ts';
import type { Patient } from '@medplum/fhirtypes';

const FAST = { attempts: 4, baseMs: 5, capMs: 50, maxRetryAfterMs: 1500 };
const mrn = (value: string): Record<string, unknown> => ({ identifier: [{ system: SOURCE_MRN_SYSTEM, value }] });

let world: World;

beforeAll(async () => {
  world = await startWorld();
  const patients = [
    ...namesakes((index) => mrn(`PAIR${String(index)}`)),
    ...strangers(498, (index) => mrn(`S${String(index)}`)),
  ];
  await world.fhir.seed(patients as unknown as Patient[]);
});

afterAll(async () => {
  await world.close();
});

describe('an import judged at the size it brings the registry to', () => {
  it('reads the search size off Bundle.total when it is a whole number, and nothing else', () => {
    const page = (total: unknown): number | null =>
      readSearchPage(JSON.stringify({ resourceType: 'Bundle', type: 'searchset', total, entry: [] })).total;
    expect(page(500)).toBe(500);
    expect(page(0)).toBe(0);
    for (const total of [undefined, -1, 2.5, '500', null, 2 ** 60]) expect(page(total)).toBeNull();
  });

  it('sends the namesakes on its first page to review, as the last page would, where the registry as it stood linked them', async () => {
    const engine = LocalEngine.open({ dbPath: await makeRegistry(world, 'sized') });
    try {
      const { profile } = engine.env.store.read(() => activeProfile(engine.env.store, TENANT));
      await engine.call(
        'profile/apply',
        { document: { MatchingRules: priorSetFor(profile, 100).MatchingRules }, reason: 'a prior set for 100 records' },
        CTX,
      );
      countsOfRegistry(engine, TENANT, 100);
      const job = await importAndReconcile(engine, 'import test', FAST);
      expect(job.status).toBe('completed');
      expect(job.counters.imported).toBe(500);

      const identities = await engine.call('identities/list', { limit: 1000, offset: 0 }, CTX);
      const enterprise = (localId: string): string | undefined =>
        identities.rows.find((row) => row.localId === localId)?.enterpriseId;
      expect(enterprise('PAIR1')).toBeDefined();
      expect(enterprise('PAIR1')).not.toBe(enterprise('PAIR2'));
      const pair = [enterprise('PAIR1'), enterprise('PAIR2')].sort().join(' ');
      const reviews = await engine.call('reviews/list', { status: 'open', limit: 1000, offset: 0 }, CTX);
      expect(
        reviews.rows.filter((row) => [row.leftEnterpriseId, row.rightEnterpriseId].sort().join(' ') === pair),
      ).toHaveLength(1);
    } finally {
      engine.close();
    }
  });
});
