/**
 * A review case records the rule that held its pair's score at the Probable threshold when it was opened, and the score
 * its fields gave before the hold, by ingestion and by reconciliation alike, so the list can say why a case scores
 * exactly 0.5 and put such cases in order; a case no rule held records neither. Real SQLite registry, the engine's own
 * operations.
 */
import { describe, expect, it } from 'vitest';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { ctx, movedAway, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import { tempDir } from '../../helpers/temp.ts';

describe('a held review case', () => {
  it('names the rule that held it and the score it was held from, from ingestion and from reconciliation', async () => {
    const engine = openRegistry(tempDir());
    try {
      // Beatrice: Annabel's family name, birth date, address and phone, another given name, both with a sex: a
      // possible twin, held at Probable. The moved-away record: both names misspelt, Probable on its own. Celia: a
      // third given name at another address line, no phone: a possible twin of both, on less evidence.
      const celia = { ...patient({ id: 'd', given: ['Celia'], line: '40 Hill Street' }), telecom: [] };
      await engine.call(
        'records/ingest',
        {
          sourceSystem: 'clinic',
          ndjson: ndjson(patient({ id: 'a' }), patient({ id: 'b', given: ['Beatrice'] }), movedAway('c'), celia),
        },
        ctx(),
      );
      const opened = await engine.call('reviews/list', { sort: 'oldest' }, ctx());
      expect(opened.rows.map((r) => r.limitedBy).sort()).toEqual([
        'PossibleTwin',
        'PossibleTwin',
        'PossibleTwin',
        null,
      ]);
      const held = opened.rows.filter((r) => r.limitedBy !== null);
      for (const r of held) {
        expect(r.score).toBe(0.5);
        expect(r.heldFrom).toBeGreaterThan(0.5);
        expect(r.heldFrom).toBeLessThanOrEqual(1);
      }
      const free = opened.rows.find((r) => r.limitedBy === null);
      expect(free?.score).toBeGreaterThan(0.5);
      expect(free?.score).toBeLessThan(0.97);
      expect(free?.heldFrom).toBeNull();

      // The held cases tie at 0.5; by score, the score they were held from orders them, either way.
      const heldFrom = (rows: typeof opened.rows): (number | null)[] =>
        rows.filter((r) => r.limitedBy !== null).map((r) => r.heldFrom);
      const descending = [...heldFrom(held)].sort((x, y) => (y ?? 0) - (x ?? 0));
      expect(new Set(descending).size).toBe(3);
      expect(heldFrom((await engine.call('reviews/list', { sort: 'score-high' }, ctx())).rows)).toEqual(descending);
      expect(heldFrom((await engine.call('reviews/list', { sort: 'score-low' }, ctx())).rows)).toEqual(
        [...descending].reverse(),
      );

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
      // Annabel's three pairs: Beatrice and Celia held again, each with the score it was held from; the moved-away one not.
      expect(reconciled.rows.map((r) => [r.kind, r.limitedBy, r.heldFrom !== null]).sort()).toEqual(
        [
          ['PopulationReconciliation', 'PossibleTwin', true],
          ['PopulationReconciliation', 'PossibleTwin', true],
          ['PopulationReconciliation', null, false],
        ].sort(),
      );
    } finally {
      engine.close();
    }
  });
});
