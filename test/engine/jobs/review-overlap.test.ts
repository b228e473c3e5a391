import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, movedAway, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';

describe('reconciliation and open review cases', () => {
  it('does not reopen a pair that is already under review at the same versions, and opens it again once an identity changed', async () => {
    const engine = openRegistry(tempDir());
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'A1' })) },
      ctx(),
    );
    // Same birth date, given and family name misspelt, moved house, no phone: a probable match, so ingestion
    // opens a review case.
    const moved = movedAway('c2');
    expect(
      (await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(moved) }, ctx()))
        .reviewCasesCreated,
    ).toBe(1);

    const reconcile = async (): Promise<number> => {
      const { jobId } = await engine.call('maintenance/reconcile', { reason: 'overlap check', batchSize: 25 }, ctx());
      await runWorker(engine.env, { tenants: ['t1'], once: true });
      const job = await engine.call('jobs/get', { jobId }, ctx());
      expect(job.status).toBe('completed');
      return job.counters.reviewCreated;
    };
    expect(await reconcile()).toBe(0);
    const kinds = (): string[] =>
      engine.env.store
        .statement("SELECT kind FROM review_case WHERE tenant_id = 't1' ORDER BY kind")
        .pluck()
        .all() as string[];
    expect(kinds()).toEqual(['IngestionMatch']);

    // The hospital record changes (a new phone): its identity's version moves on, so the pair is a new question.
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'hospital',
        ndjson: ndjson(patient({ id: 'h1', mrn: 'A1', phone: '023 9200 9999', lastUpdated: '2026-01-01T00:00:00Z' })),
      },
      ctx(),
    );
    expect(await reconcile()).toBe(1);
    expect(kinds()).toEqual(['IngestionMatch', 'PopulationReconciliation']);
    engine.close();
  });
});
