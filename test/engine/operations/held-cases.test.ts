/**
 * A review case records the rule that held its pair's score at the Probable threshold when it was opened, and the score
 * its fields gave before the hold, by ingestion and by reconciliation alike, so the list can say why a case scores
 * exactly 0.5 and put such cases in order; a case no rule held records neither. Real SQLite registry, the engine's own
 * operations.
 */
import { describe, expect, it } from 'vitest';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { ctx, movedAway, ndjson, NHI_SYSTEM, openRegistry, patient, testProfile } from '../../helpers/registry.ts';
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

  it('holds a pair whose middle names name two people; a record with the initial of one links', async () => {
    const engine = openRegistry(tempDir());
    try {
      // Annabel Louise and Annabel Marie: one family name, birth date and town, two middle names, two addresses.
      const first = await engine.call(
        'records/ingest',
        {
          sourceSystem: 'clinic',
          ndjson: ndjson(
            patient({ id: 'louise', given: ['Annabel', 'Louise'] }),
            patient({ id: 'marie', given: ['Annabel', 'Marie'], line: '40 Hill Street', phone: '023 9200 7788' }),
          ),
        },
        ctx(),
      );
      expect(first).toMatchObject({ created: 2, autoLinked: 0, newIdentities: 2, reviewCasesCreated: 1 });
      const opened = await engine.call('reviews/list', {}, ctx());
      expect(opened.rows).toHaveLength(1);
      expect(opened.rows[0]).toMatchObject({ limitedBy: 'MiddleNameConflict', score: 0.5 });
      expect(opened.rows[0]?.heldFrom).toBeGreaterThan(0.97);
      const explained = await engine.call(
        'matching/explain',
        { left: { sourceSystem: 'clinic', localId: 'louise' }, right: { sourceSystem: 'clinic', localId: 'marie' } },
        ctx(),
      );
      expect(explained).toMatchObject({ decision: 'probable', limitedBy: 'MiddleNameConflict' });
      // Annabel L: an initial tells neither apart, so she links to one and the other becomes a case for a person.
      const second = await engine.call(
        'records/ingest',
        { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'initial', given: ['Annabel', 'L'] })) },
        ctx(),
      );
      expect(second).toMatchObject({ created: 1, autoLinked: 1, reviewCasesCreated: 1 });
    } finally {
      engine.close();
    }
  });

  it("shows, on a held case's page, the pair the rule held on the strongest evidence", async () => {
    const engine = openRegistry(tempDir());
    try {
      // Annabel's identity holds two records: first one at another address line with no phone, then her full record.
      // Beatrice, her possible twin, is held against both at exactly 0.5, from two different scores.
      const elsewhere = { ...patient({ id: 'a1', line: '40 Hill Street' }), telecom: [] };
      await engine.call(
        'records/ingest',
        { sourceSystem: 'clinic', ndjson: ndjson(elsewhere, patient({ id: 'a2' })) },
        ctx(),
      );
      await engine.call(
        'records/ingest',
        { sourceSystem: 'clinic', ndjson: ndjson(patient({ id: 'b', given: ['Beatrice'] })) },
        ctx(),
      );
      const { rows } = await engine.call('reviews/list', {}, ctx());
      expect(rows).toHaveLength(1);
      const [opened] = rows;
      expect(opened?.limitedBy).toBe('PossibleTwin');

      const explain = async (left: string): Promise<{ score: number; heldFrom: number | undefined }> => {
        const e = await engine.call(
          'matching/explain',
          { left: { sourceSystem: 'clinic', localId: left }, right: { sourceSystem: 'clinic', localId: 'b' } },
          ctx(),
        );
        return { score: e.score, heldFrom: e.heldFrom };
      };
      const [weaker, stronger] = [await explain('a1'), await explain('a2')];
      expect([weaker.score, stronger.score]).toEqual([0.5, 0.5]);
      expect(stronger.heldFrom).toBeGreaterThan(weaker.heldFrom ?? 1);

      // The first record found ties the second at 0.5; the page shows the pair held from the higher score.
      const detail = await engine.call('reviews/get', { caseId: opened?.caseId ?? '' }, ctx());
      expect(detail.bestPair?.left.localId).toBe('a2');
      expect(detail.bestPair?.right.localId).toBe('b');
      expect(detail.bestPair?.score).toBe(0.5);
      // Ingestion opened the case on that pair too, and a reconciliation asks about it again on the same pair.
      expect(opened?.heldFrom).toBeCloseTo(stronger.heldFrom ?? 0, 6);
      const moved = {
        ...patient({ id: 'a1', line: '40 Hill Street', lastUpdated: '2030-01-01T00:00:00Z' }),
        telecom: [],
      };
      await engine.call(
        'records/ingest',
        { sourceSystem: 'clinic', ndjson: ndjson({ ...moved, gender: 'female' }) },
        ctx(),
      );
      const { jobId } = await engine.call('maintenance/reconcile', { reason: 'held pair', batchSize: 25 }, ctx());
      await runWorker(engine.env, { tenants: ['t1'], once: true });
      const reconciled = await engine.call('reviews/list', { jobId }, ctx());
      expect(reconciled.rows.map((r) => r.limitedBy)).toEqual(['PossibleTwin']);
      expect(reconciled.rows[0]?.heldFrom).toBeCloseTo(stronger.heldFrom ?? 0, 6);
    } finally {
      engine.close();
    }
  });

  it('opens a case held for a number shared in a household, and links nothing', async () => {
    // The national number named personal, not trusted: Annabel's number copied onto her daughter's record.
    const profile = { ...testProfile(), TrustedIdentifierSystems: [], PersonalIdentifierSystems: [NHI_SYSTEM] };
    const engine = openRegistry(tempDir(), ['t1'], profile);
    try {
      const mother = patient({ id: 'm', nhi: 'ZAB1234' });
      const daughter = patient({ id: 'd', given: ['Sofia'], birthDate: '2014-06-01', nhi: 'ZAB1234' });
      const ingested = await engine.call(
        'records/ingest',
        { sourceSystem: 'clinic', ndjson: ndjson(mother, daughter) },
        ctx(),
      );
      expect([ingested.created, ingested.newIdentities, ingested.autoLinked, ingested.reviewCasesCreated]).toEqual([
        2, 2, 0, 1,
      ]);
      const [opened] = (await engine.call('reviews/list', {}, ctx())).rows;
      expect([opened?.limitedBy, opened?.score]).toEqual(['SharedIdentifier', 0.5]);
      expect(opened?.heldFrom).toBeGreaterThan(0.97);
    } finally {
      engine.close();
    }
  });
});
