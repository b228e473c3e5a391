import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, movedAway, ndjson, openRegistry, patient, testProfile } from '../../helpers/registry.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { opensReviewCase } from '../../../engine/ingest/review-gate.ts';
import type { LocalEngine } from '../../../engine/local-engine.ts';
import type { MatchingProfile } from '../../../engine/contract/profile.ts';

/**
 * Ingestion, imports and reconciliation open a review case only for a pair the model scores at Probable or
 * above (engine/ingest/review-gate.ts). The pairs are chosen so the rule has something to refuse: a namesake
 * who shares blocking keys but scores far below Probable, and a near-duplicate whose score lies between the
 * default Probable threshold and a raised one.
 */

const A = patient({ id: 'h1', mrn: 'A1' });
/** Same names (so the same blocking keys), another birth date, address and phone: a namesake, not the person. */
const NAMESAKE = patient({
  id: 'c-namesake',
  birthDate: '1950-11-02',
  line: '4 Mill Lane',
  city: 'Leeds',
  postalCode: 'LS2 9JT',
  phone: '0113 496 0000',
});
/** Both names misspelt, moved house, no phone: probable under the default thresholds, not certain. */
const MOVED = movedAway('c-moved');

function withProbable(probable: number): MatchingProfile {
  const profile = testProfile();
  const { Certain } = profile.MatchingRules.Thresholds;
  return {
    ...profile,
    MatchingRules: {
      ...profile.MatchingRules,
      Thresholds: { Certain: Math.max(Certain, probable), Probable: probable },
    },
  };
}

async function score(engine: LocalEngine, localId: string): Promise<number> {
  const explained = await engine.call(
    'matching/explain',
    { left: { sourceSystem: 'hospital', localId: 'A1' }, right: { sourceSystem: 'clinic', localId } },
    ctx(),
  );
  return explained.score;
}

interface CaseRow {
  readonly kind: string;
  readonly score: number;
  readonly local_ids: string;
}

/** Every review case with the local IDs of the records of both identities it joins. */
function cases(engine: LocalEngine): CaseRow[] {
  return engine.env.store
    .statement(
      `SELECT c.kind, c.score,
              (SELECT group_concat(r.local_id, ',') FROM identity_link l JOIN source_record r ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id
                WHERE l.tenant_id = c.tenant_id AND l.identity_id IN (c.left_identity_id, c.right_identity_id)) AS local_ids
         FROM review_case c WHERE c.tenant_id = 't1' ORDER BY c.kind, c.case_id`,
    )
    .all() as CaseRow[];
}

async function reconcile(engine: LocalEngine): Promise<number> {
  const { jobId } = await engine.call('maintenance/reconcile', { reason: 'review gate', batchSize: 25 }, ctx());
  await runWorker(engine.env, { tenants: ['t1'], once: true });
  const job = await engine.call('jobs/get', { jobId }, ctx());
  expect(job.status).toBe('completed');
  return job.counters.reviewCreated;
}

describe('review cases only at Probable or above', () => {
  it('the gate: decision and score must both reach Probable', () => {
    expect(opensReviewCase({ score: 0.5, decision: 'probable' }, 0.5)).toBe(true);
    expect(opensReviewCase({ score: 1, decision: 'certain' }, 0.5)).toBe(true);
    expect(opensReviewCase({ score: 0.4999, decision: 'probable' }, 0.5)).toBe(false);
    expect(opensReviewCase({ score: 0.7, decision: 'no-match' }, 0.5)).toBe(false);
  });

  it('a namesake below Probable opens no case in ingestion or reconciliation; a pair at exactly Probable does', async () => {
    const engine = openRegistry(tempDir());
    const probable = testProfile().MatchingRules.Thresholds.Probable;
    await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(A) }, ctx());
    // The nameless record agrees on everything else: held to exactly Probable (NoNameEvidence), so it goes to review.
    const nameless = { ...patient({ id: 'c-nameless' }), name: [] };
    const report = await engine.call(
      'records/ingest',
      { sourceSystem: 'clinic', ndjson: ndjson(NAMESAKE, nameless) },
      ctx(),
    );
    expect(report).toMatchObject({ created: 2, autoLinked: 0, rejected: [] });
    expect(await score(engine, 'c-namesake')).toBeLessThan(probable);
    expect(await score(engine, 'c-nameless')).toBe(probable);
    expect(report.reviewCasesCreated).toBe(1);
    expect(report.reviewRate).toEqual({ reviewCases: 1, matched: 2, perThousand: 500 });
    expect(await reconcile(engine)).toBe(0);
    const all = cases(engine);
    expect(all.map((c) => [c.kind, c.local_ids.split(',').sort().join(',')])).toEqual([
      ['IngestionMatch', 'A1,c-nameless'],
    ]);
    for (const c of all) expect(c.score).toBeGreaterThanOrEqual(probable);
    engine.close();
  });

  it('a pair between the default and a raised Probable opens a case under the default only, in ingestion and in reconciliation', async () => {
    const raised = 0.999;
    for (const [probable, expected] of [
      [testProfile().MatchingRules.Thresholds.Probable, 1],
      [raised, 0],
    ] as const) {
      const engine = openRegistry(tempDir(), ['t1'], withProbable(probable));
      await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(A) }, ctx());
      const report = await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(MOVED) }, ctx());
      const s = await score(engine, 'c-moved');
      expect(s).toBeGreaterThanOrEqual(testProfile().MatchingRules.Thresholds.Probable);
      expect(s).toBeLessThan(raised);
      expect(report.reviewCasesCreated, `Probable ${String(probable)}`).toBe(expected);
      // Reconciliation asks again only when no case is open for the pair: dismissing opens the question anew.
      engine.env.store.statement("UPDATE review_case SET status = 'dismissed' WHERE tenant_id = 't1'").run();
      expect(await reconcile(engine), `Probable ${String(probable)}`).toBe(expected);
      for (const c of cases(engine)) expect(c.score).toBeGreaterThanOrEqual(probable);
      engine.close();
    }
  });
});
