import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { isEngineError } from '../../../engine/contract/errors.ts';
import { readLabelTsv } from '../../../engine/contract/label-tsv.ts';
import { listAudit } from '../../../engine/store/audit.ts';
import type { LocalEngine } from '../../../engine/local-engine.ts';

/** A clinic record of the same birth date with both names misspelt, moved house, no phone: a probable match. */
function probableTwinOf(id: string, given: string, family: string): Record<string, unknown> {
  return {
    ...patient({ id, given: [given], family, line: '9 Ocean Drive', city: 'Brighton', postalCode: 'BN2 1TT' }),
    telecom: [],
  };
}

async function refusal(promise: Promise<unknown>): Promise<{ kind: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isEngineError(error)) return { kind: error.kind, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

async function reconcile(engine: LocalEngine): Promise<{ jobId: string; created: number }> {
  const { jobId } = await engine.call('maintenance/reconcile', { reason: 'review test', batchSize: 25 }, ctx());
  await runWorker(engine.env, { tenants: ['t1'], once: true });
  const job = await engine.call('jobs/get', { jobId }, ctx());
  expect(job.status).toBe('completed');
  return { jobId, created: job.counters.reviewCreated };
}

describe('review cases', () => {
  it('are listed with their origin, read beside both identities, decided once, remembered and exported', async () => {
    const engine = openRegistry(tempDir(), ['t1', 't2']);
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'A1' })) },
      ctx(),
    );
    expect(
      (
        await engine.call(
          'records/ingest',
          { sourceSystem: 'clinic', ndjson: ndjson(probableTwinOf('c1', 'Anabel', 'Fairwether')) },
          ctx(),
        )
      ).reviewCasesCreated,
    ).toBe(1);

    const listed = await engine.call('reviews/list', {}, ctx());
    expect(listed.total).toBe(1);
    const [first] = listed.rows;
    expect(first).toMatchObject({
      kind: 'IngestionMatch',
      status: 'open',
      jobId: null,
      sourceSystem: 'clinic',
      review: null,
      decision: 'probable',
    });
    expect((await engine.call('reviews/list', { sourceSystem: 'hospital' }, ctx())).total).toBe(0);
    // The sources the tenant's cases name, whatever the filter; another tenant's cases name none of them.
    expect(listed.sources).toEqual(['clinic']);
    expect((await engine.call('reviews/list', { sourceSystem: 'hospital' }, ctx())).sources).toEqual(['clinic']);
    expect((await engine.call('reviews/list', {}, ctx('t2'))).sources).toEqual([]);
    expect((await engine.call('reviews/list', { kind: 'PopulationReconciliation' }, ctx())).total).toBe(0);
    const caseId = first?.caseId ?? '';

    const detail = await engine.call('reviews/get', { caseId }, ctx());
    expect(detail.case.stale).toBe(false);
    expect([...detail.left.records, ...detail.right.records].map((r) => r.localId).sort()).toEqual(['A1', 'c1']);
    expect(detail.bestPair?.score).toBeCloseTo(first?.score ?? -1, 6);
    expect(detail.decisions).toEqual([]);
    // Flags and a record graph belong to link quality cases, about one identity; this case is about two.
    expect(detail.flags).toBeNull();
    expect(detail.graph).toBeNull();

    // Another tenant sees nothing of it.
    expect((await engine.call('reviews/list', { status: 'all' }, ctx('t2'))).total).toBe(0);
    expect((await refusal(engine.call('reviews/get', { caseId }, ctx('t2')))).kind).toBe('not_found');
    expect(
      (await refusal(engine.call('reviews/decide', { caseId, decision: 'different-people', reason: 'x' }, ctx('t2'))))
        .kind,
    ).toBe('not_found');

    // Unsure keeps the case open; different people resolves it; a second final decision is refused.
    await engine.call('reviews/decide', { caseId, decision: 'unsure', reason: 'need the GP letter' }, ctx());
    expect((await engine.call('reviews/get', { caseId }, ctx())).case).toMatchObject({
      status: 'open',
      review: { decision: 'unsure', actor: 'test' },
    });
    const decided = await engine.call(
      'reviews/decide',
      { caseId, decision: 'different-people', reason: 'Sibling, per GP letter' },
      ctx(),
    );
    expect(decided.case).toMatchObject({ status: 'resolved', review: { decision: 'different-people' } });
    const again = await refusal(
      engine.call('reviews/decide', { caseId, decision: 'same-person', reason: 'changed my mind' }, ctx()),
    );
    expect(again.kind).toBe('conflict');
    expect(again.message).toContain('already decided');
    expect((await engine.call('reviews/get', { caseId }, ctx())).decisions.map((d) => d.decision)).toEqual([
      'unsure',
      'different-people',
    ]);

    // Audited with the decision, never the reason.
    const audits = listAudit(engine.env.store, 't1').filter((a) => a.action === 'review.decide');
    expect(audits.map((a) => a.detail['decision'])).toEqual(['different-people', 'unsure']);
    expect(JSON.stringify(audits)).not.toContain('GP letter');

    // A second probable pair, decided the same person (only "different people" is remembered); then a new
    // profile version and a reconciliation: the second pair is asked again, the first is not.
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'hospital',
        ndjson: ndjson(
          patient({ id: 'h2', mrn: 'B2', given: ['Rosalind'], family: 'Whitcombe', birthDate: '1971-11-02' }),
        ),
      },
      ctx(),
    );
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'clinic',
        ndjson: ndjson({ ...probableTwinOf('c2', 'Rosalyn', 'Whitcomb'), birthDate: '1971-11-02' }),
      },
      ctx(),
    );
    const secondCase = (await engine.call('reviews/list', {}, ctx())).rows[0]?.caseId ?? '';
    await engine.call(
      'reviews/decide',
      { caseId: secondCase, decision: 'same-person', reason: 'same NHS number on the letter' },
      ctx(),
    );
    const profile = await engine.call('profile/get', {}, ctx());
    await engine.call(
      'profile/apply',
      { document: { SourceTrust: [...profile.profile.SourceTrust].reverse() }, reason: 'trust the clinic first' },
      ctx(),
    );
    const { jobId, created } = await reconcile(engine);
    expect(created).toBe(1);
    const fromJob = await engine.call('reviews/list', { jobId }, ctx());
    expect(fromJob.rows.map((r) => [r.kind, r.jobId])).toEqual([['PopulationReconciliation', jobId]]);
    const remembered = [first?.leftEnterpriseId, first?.rightEnterpriseId].sort();
    expect([fromJob.rows[0]?.leftEnterpriseId, fromJob.rows[0]?.rightEnterpriseId].sort()).not.toEqual(remembered);

    // A changed record makes the new case stale: the decision is refused and nothing is written.
    const staleId = fromJob.rows[0]?.caseId ?? '';
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'hospital',
        ndjson: ndjson(
          patient({
            id: 'h2',
            mrn: 'B2',
            given: ['Rosalind'],
            family: 'Whitcombe',
            birthDate: '1971-11-02',
            phone: '020 7946 0000',
            lastUpdated: '2026-02-01T00:00:00Z',
          }),
        ),
      },
      ctx(),
    );
    expect((await engine.call('reviews/get', { caseId: staleId }, ctx())).case.stale).toBe(true);
    expect((await engine.call('reviews/list', { jobId }, ctx())).rows.map((r) => r.stale)).toEqual([true]);
    expect((await engine.call('reviews/list', { jobId, currentOnly: true }, ctx())).total).toBe(0);
    const stale = await refusal(
      engine.call('reviews/decide', { caseId: staleId, decision: 'same-person', reason: 'same NHS letter' }, ctx()),
    );
    expect(stale.kind).toBe('conflict');
    expect(stale.message).toContain('stale');
    expect((await engine.call('reviews/get', { caseId: staleId }, ctx())).decisions).toEqual([]);

    // Decided cases as labels: the best-scoring record pair of each.
    const labels = await engine.call('reviews/labels', {}, ctx());
    expect(labels.labels).toBe(2);
    expect(labels.note).toContain('review queue');
    const read = readLabelTsv(labels.tsv);
    expect(read.issues).toEqual([]);
    expect(read.pairs.map((p) => [[p.left.localId, p.right.localId].sort(), p.isMatch])).toEqual([
      [['A1', 'c1'], false],
      [['B2', 'c2'], true],
    ]);
    engine.close();
  });

  it('pages and sorts', async () => {
    const engine = openRegistry(tempDir());
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'hospital',
        ndjson: ndjson(
          patient({ id: 'h1', mrn: 'A1' }),
          patient({ id: 'h2', mrn: 'B2', given: ['Rosalind'], family: 'Whitcombe', birthDate: '1971-11-02' }),
        ),
      },
      ctx(),
    );
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'clinic',
        ndjson: ndjson(probableTwinOf('c1', 'Anabel', 'Fairwether'), {
          ...probableTwinOf('c2', 'Rosalyn', 'Whitcomb'),
          birthDate: '1971-11-02',
        }),
      },
      ctx(),
    );
    const all = await engine.call('reviews/list', { sort: 'score-high' }, ctx());
    expect(all.total).toBe(2);
    const scores = all.rows.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const low = await engine.call('reviews/list', { sort: 'score-low', limit: 1 }, ctx());
    expect(low.rows.map((r) => r.score)).toEqual([Math.min(...scores)]);
    const second = await engine.call('reviews/list', { sort: 'score-high', limit: 1, offset: 1 }, ctx());
    expect(second).toMatchObject({ total: 2, rows: [{ caseId: all.rows[1]?.caseId }] });
    engine.close();
  });
});
