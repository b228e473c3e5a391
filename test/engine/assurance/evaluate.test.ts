import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { listAudit } from '../../../engine/store/audit.ts';
import { ndjson, patient } from '../../helpers/registry.ts';
import { ctx, LABELS, PEOPLE, tinyRegistry } from './assurance-registry.ts';

const WILSON_3_OF_4 = [0.3006418, 0.9544127]; // R: prop.test(3, 4, correct = FALSE)$conf.int
const WILSON_3_OF_5 = [0.2307243, 0.8823792]; // R: prop.test(3, 5, correct = FALSE)$conf.int
const WILSON_5_OF_9 = [0.2666513, 0.8112215]; // R: prop.test(5, 9, correct = FALSE)$conf.int

describe('matching/evaluate on a hand-worked registry', () => {
  it('reports versions, counts, metrics with nulls, blocking recall, field means and bounded error examples', async () => {
    const engine = await tinyRegistry(tempDir());
    const report = await engine.call(
      'matching/evaluate',
      { datasetId: 'hand-1', pairs: LABELS, thresholds: [0, 0.5], maximumErrorExamples: 3 },
      ctx(),
    );

    expect(report.versions).toEqual({
      matchingProfileVersion: 1,
      comparatorVersion: 'comparators-2',
      scoreMethod: 'fellegi-sunter',
      scoreMethodVersion: 'default-fs-2',
    });
    expect(report.labels).toEqual({ pairs: 9, matches: 5, nonMatches: 4, distinctRecords: 12 });
    expect(report.decidedBy).toEqual({ trustedIdentifier: 4, hardConflict: 5, score: 0 });

    // Threshold 0.5: TP 3, FP 1, TN 3, FN 2.
    const [atZero, atHalf] = report.thresholds;
    expect(atHalf).toMatchObject({ threshold: 0.5, tp: 3, fp: 1, tn: 3, fn: 2 });
    expect(atHalf?.precision).toBeCloseTo(0.75, 12);
    expect(atHalf?.recall).toBeCloseTo(0.6, 12);
    expect(atHalf?.specificity).toBeCloseTo(0.75, 12);
    expect(atHalf?.npv).toBeCloseTo(0.6, 12);
    expect(atHalf?.f1).toBeCloseTo(6 / 9, 12);
    expect(atHalf?.mcc).toBeCloseTo(7 / 20, 12); // (3·3 − 1·2) / sqrt(4·5·4·5)
    expect(atHalf?.precisionInterval?.lower).toBeCloseTo(WILSON_3_OF_4[0] ?? 0, 6);
    expect(atHalf?.precisionInterval?.upper).toBeCloseTo(WILSON_3_OF_4[1] ?? 0, 6);
    expect(atHalf?.recallInterval?.lower).toBeCloseTo(WILSON_3_OF_5[0] ?? 0, 6);
    expect(atHalf?.recallInterval?.upper).toBeCloseTo(WILSON_3_OF_5[1] ?? 0, 6);

    // Threshold 0: everything predicted a match, so NPV and MCC have no denominator: null, never 0.
    expect(atZero).toMatchObject({
      threshold: 0,
      tp: 5,
      fp: 4,
      tn: 0,
      fn: 0,
      recall: 1,
      specificity: 0,
      npv: null,
      mcc: null,
    });
    expect(atZero?.precision).toBeCloseTo(5 / 9, 12);
    expect(atZero?.f1).toBeCloseTo(10 / 14, 12);
    expect(atZero?.precisionInterval?.lower).toBeCloseTo(WILSON_5_OF_9[0] ?? 0, 6);
    expect(atZero?.recallInterval?.upper).toBe(1);

    // PX11-PX12 share no blocking key; the other four true pairs share several.
    expect(report.blockingRecall).toMatchObject({
      truePairs: 5,
      found: 4,
      missed: 1,
      recall: 0.8,
      maximumBlockSize: 500,
    });
    expect(report.blockingRecall.rule).toMatch(/share at least one blocking key/);

    const family = report.fieldSimilarity.find((f) => f.field === 'familyName');
    expect(family).toMatchObject({ matchObserved: 5, nonMatchObserved: 4 });
    // Four of the five matches have equal family names; PX11-PX12 do not.
    expect(family?.matchMean).toBeLessThan(1);
    expect(family?.matchMean).toBeGreaterThan(0.8 - 1e-9);
    const email = report.fieldSimilarity.find((f) => f.field === 'email');
    expect(email).toEqual({
      field: 'email',
      matchMean: null,
      matchObserved: 0,
      nonMatchMean: null,
      nonMatchObserved: 0,
    });

    // Allowance 3: false positives (score >= 0, highest first) get 2, false negatives (score < 0.5) get 1.
    const { falsePositives, falseNegatives } = report.errorExamples;
    expect(falsePositives.map((e) => [e.left.localId, e.right.localId, e.score])).toEqual([
      ['PX07', 'PX08', 1],
      ['PX01', 'PX03', 0],
    ]);
    expect(falseNegatives.map((e) => [e.left.localId, e.right.localId, e.score, e.decidedBy])).toEqual([
      ['PX09', 'PX10', 0, 'hard-conflict'],
    ]);
    expect(falsePositives[0]?.evidence.map((e) => e.field)).toContain('birthDate');
    // Examples carry references, scores and evidence: no demographic value.
    const text = JSON.stringify(report.errorExamples);
    for (const person of PEOPLE) {
      expect(text).not.toContain(person.family.toLowerCase());
      expect(text).not.toContain(person.birthDate);
    }
    engine.close();
  });

  it('caps error examples at 100 and gives a kind with few examples share to the other', async () => {
    const engine = await tinyRegistry(tempDir());
    const report = await engine.call(
      'matching/evaluate',
      { datasetId: 'hand-1', pairs: LABELS, thresholds: [0, 0.5], maximumErrorExamples: 1000 },
      ctx(),
    );
    expect(report.errorExamples.requested).toBe(1000);
    expect(report.errorExamples.falsePositives).toHaveLength(4);
    expect(report.errorExamples.falseNegatives).toHaveLength(2);
    const none = await engine.call(
      'matching/evaluate',
      { datasetId: 'hand-1', pairs: LABELS, thresholds: [0.5], maximumErrorExamples: 0 },
      ctx(),
    );
    expect(none.errorExamples.falsePositives).toEqual([]);
    expect(none.errorExamples.falseNegatives).toEqual([]);
    engine.close();
  });

  it('writes exactly one audit record holding only the dataset ID, digest, class counts and action', async () => {
    const engine = await tinyRegistry(tempDir());
    const before = listAudit(engine.env.store, 't1').length;
    const report = await engine.call(
      'matching/evaluate',
      { datasetId: 'hand-1', pairs: LABELS, thresholds: [0.5], maximumErrorExamples: 5 },
      ctx(),
    );
    const audit = listAudit(engine.env.store, 't1');
    expect(audit.length).toBe(before + 1);
    const [record] = audit;
    expect(record?.action).toBe('matching.evaluate');
    expect(record?.detail).toEqual({
      datasetId: 'hand-1',
      datasetDigest: report.datasetDigest,
      matches: 5,
      nonMatches: 4,
    });
    const text = JSON.stringify(record);
    expect(text).not.toContain('PX');
    expect(text).not.toContain('clinic');
    engine.close();
  });

  it('changes no patient, link or configuration', async () => {
    const engine = await tinyRegistry(tempDir());
    const count = (table: string): number =>
      (engine.env.store.statement(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const tables = ['source_record', 'identity', 'identity_link', 'blocking_tag', 'review_case', 'matching_profile'];
    const before = tables.map(count);
    const profile = await engine.call('profile/get', {}, ctx());
    await engine.call(
      'matching/evaluate',
      { datasetId: 'hand-1', pairs: LABELS, thresholds: [0.5], maximumErrorExamples: 5 },
      ctx(),
    );
    expect(tables.map(count)).toEqual(before);
    expect(await engine.call('profile/get', {}, ctx())).toEqual(profile);
    engine.close();
  });

  it('re-prepares a record that changed since an earlier evaluation (prepared records are reused only when unchanged)', async () => {
    const engine = await tinyRegistry(tempDir());
    const run = async (): Promise<number | null | undefined> =>
      (
        await engine.call(
          'matching/evaluate',
          { datasetId: 'd', pairs: LABELS, thresholds: [0.5], maximumErrorExamples: 0 },
          ctx(),
        )
      ).fieldSimilarity.find((f) => f.field === 'familyName')?.matchMean;
    const before = await run();
    const person = PEOPLE[1];
    const updated = patient({ ...person, family: 'Zbigniewska', lastUpdated: '2030-01-01T00:00:00Z' });
    expect(
      (await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(updated) }, ctx())).updated,
    ).toBe(1);
    const after = await run();
    expect(after).toBeLessThan(before ?? 0);
    engine.close();
  });

  it('digests the ordered pairs reproducibly: the label TSV with 1/0 outcomes, order-sensitive', async () => {
    const engine = await tinyRegistry(tempDir());
    const run = async (pairs: typeof LABELS): Promise<string> =>
      (
        await engine.call(
          'matching/evaluate',
          { datasetId: 'd', pairs, thresholds: [0.5], maximumErrorExamples: 0 },
          ctx(),
        )
      ).datasetDigest;
    const tsv = LABELS.map(
      (p) =>
        `${p.left.sourceSystem}\t${p.left.localId}\t${p.right.sourceSystem}\t${p.right.localId}\t${p.isMatch ? '1' : '0'}\n`,
    ).join('');
    const digest = await run(LABELS);
    expect(digest).toBe(createHash('sha256').update(tsv, 'utf8').digest('hex'));
    expect(await run(LABELS)).toBe(digest);
    expect(await run([...LABELS].reverse())).not.toBe(digest);
    engine.close();
  });
});
