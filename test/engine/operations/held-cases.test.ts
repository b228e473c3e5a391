/**
 * A review case records the rule that held its pair's score at the Probable threshold when it was opened, by
 * ingestion and by reconciliation alike, so the list can say why a case scores exactly 0.5; a case no rule held
 * records none. Real SQLite registry, the engine's own operations.
 */
import { describe, expect, it } from 'vitest';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { ctx, movedAway, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import { tempDir } from '../../helpers/temp.ts';

describe('a held review case', () => {
  it('names the rule that held it, from ingestion and from reconciliation; a case no rule held names none', async () => {
    const engine = openRegistry(tempDir());
    try {
      // Beatrice: Annabel's family name, birth date, address and phone, another given name, both with a sex: a
      // possible twin, held at Probable. The moved-away record: both names misspelt, Probable on its own.
      await engine.call(
        'records/ingest',
        {
          sourceSystem: 'clinic',
          ndjson: ndjson(patient({ id: 'a' }), patient({ id: 'b', given: ['Beatrice'] }), movedAway('c')),
        },
        ctx(),
      );
      const opened = await engine.call('reviews/list', { sort: 'oldest' }, ctx());
      const byRule = new Map(opened.rows.map((r) => [r.limitedBy, r]));
      expect([...byRule.keys()].sort()).toEqual([null, 'PossibleTwin'].sort());
      expect(byRule.get('PossibleTwin')?.score).toBe(0.5);
      expect(byRule.get(null)?.score).toBeGreaterThan(0.5);
      expect(byRule.get(null)?.score).toBeLessThan(0.97);

      // Annabel's record changes (a new phone): her identity's version moves on, both cases about her go out of date,
      // and a reconciliation asks about her pairs again, at the current versions, with the same rules.
      await engine.call(
        'records/ingest',
        {
          sourceSystem: 'clinic',
          ndjson: ndjson({ ...patient({ id: 'a', lastUpdated: '2030-01-01T00:00:00Z' }), telecom: [] }),
        },
        ctx(),
      );
      const { jobId } = await engine.call('maintenance/reconcile', { reason: 'held cases', batchSize: 25 }, ctx());
      await runWorker(engine.env, { tenants: ['t1'], once: true });
      const reconciled = await engine.call('reviews/list', { jobId }, ctx());
      expect(reconciled.rows.map((r) => [r.kind, r.limitedBy]).sort()).toEqual(
        [
          ['PopulationReconciliation', 'PossibleTwin'],
          ['PopulationReconciliation', null],
        ].sort(),
      );
    } finally {
      engine.close();
    }
  });
});
