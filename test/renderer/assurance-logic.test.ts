/**
 * The Match assurance page's own computations, without a browser: the label preview gives exactly the
 * engine's row errors (a real sandbox answers the same text), hand-worked threshold metrics and histogram
 * bars from a score distribution, threshold chips, CSV quoting, workbench verdicts to labels, run
 * comparison, and the field weights and differences of two models.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { LocalEngine } from '../../engine/local-engine.ts';
import { EngineError } from '../../engine/contract/errors.ts';
import { labelsToTsv } from '../../engine/contract/label-tsv.ts';
import { scoreDistribution } from '../../engine/contract/statistics/score-distribution.ts';
import type { EvaluationReport, ThresholdMetrics } from '../../engine/contract/assurance.ts';
import type { FellegiSunterModel } from '../../engine/contract/profile.ts';
import { previewLabels, withoutBadRows } from '../../renderer/pages/assurance/label-preview.ts';
import { curvePoints, histogram, metricsAt } from '../../renderer/pages/assurance/score-curves.ts';
import { parseThresholds } from '../../renderer/pages/assurance/thresholds-input.ts';
import { toCsv } from '../../renderer/pages/assurance/csv.ts';
import {
  VERDICTS_CODEC,
  appendNew,
  labelledPairs,
  nextUnlabelled,
  pairKey,
  withVerdict,
  withoutVerdict,
} from '../../renderer/pages/assurance/workbench-labels.ts';
import {
  comparisonRows,
  inTimeOrder,
  unsharedThresholds,
  metricDelta,
} from '../../renderer/pages/assurance/run-comparison.ts';
import { fieldWeights, modelChanges } from '../../renderer/pages/assurance/model-weights.ts';
import { fixed3, NULL_REASON, range } from '../../renderer/pages/assurance/metric-text.ts';
import { scratchDir } from '../helpers/temp.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('the label preview', () => {
  it('lists every row error by line and rule, with counts, and never a cell value (hand-worked)', () => {
    const text = [
      'leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch',
      'a\t1\tb\t2\tmatch',
      '',
      'a\tSECRET-3\tb',
      'a\t4\tb\t5\tperhaps',
      'a\t6\ta\t6\t1',
      'b\t2\ta\t1\ttrue',
      'a\t1\tb\t2\tnon-match',
      'c\t7\td\t8\t0',
    ].join('\n');
    const preview = previewLabels(text);
    expect(preview.headerLine).toBe(1);
    expect(preview.rows).toBe(7);
    expect(preview.pairs).toHaveLength(5);
    expect(preview.lineNumbers).toEqual([2, 6, 7, 8, 9]);
    // Counted among the rows without an error only: line 2 (match) and line 9 (non-match).
    expect([preview.matches, preview.nonMatches]).toEqual([1, 1]);
    expect(preview.issues).toEqual([
      { path: 'line 4', message: 'expected 5 tab-separated columns, found 3' },
      { path: 'line 5', message: 'column isMatch: expected match/non-match, true/false or 1/0' },
      { path: 'line 6', message: 'self-pair: left and right are the same record' },
      { path: 'line 7', message: 'duplicate pair: duplicates line 2' },
      { path: 'line 8', message: 'contradictory pair: labelled non-match here and match at line 2' },
    ]);
    expect(preview.badRows).toBe(5);
    expect(JSON.stringify(preview.issues)).not.toContain('SECRET');
    // Dropping the rows with errors keeps the header, the blank line and the good rows, in order.
    expect(withoutBadRows(text, preview)).toBe(
      ['leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch', 'a\t1\tb\t2\tmatch', '', 'c\t7\td\t8\t0'].join(
        '\n',
      ),
    );
    expect(previewLabels(withoutBadRows(text, preview)).issues).toEqual([]);
    // Calibration needs ten of each class: a dataset-level error, last.
    expect(previewLabels(text, 10).issues.at(-1)).toEqual({
      path: 'pairs',
      message: expect.stringMatching(/at least 10/) as unknown,
    });
  });

  it('gives the same errors, in the same order, as the engine gives for the same text', async () => {
    const dir = scratchDir('mpi-preview-').dir;
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const engine = LocalEngine.open({ dbPath: join(dir, 's.db') });
    cleanups.push(() => {
      engine.close();
    });
    const ctx = { tenantId: 'demo', actor: 'test' };
    await engine.call('sandbox/create', { syntheticPeople: 120, seed: 4 }, ctx);
    const { pairs } = await engine.call('labels/sample', { maxPairs: 40, seed: 3 }, ctx);
    const [p0, p1, p2] = pairs;
    if (p0 === undefined || p1 === undefined || p2 === undefined) throw new Error('too few pairs');
    // Real records, broken only by dataset rules: a self-pair, a mirrored duplicate, a contradiction.
    const broken = [
      ...pairs,
      { left: p0.left, right: p0.left, isMatch: true },
      { left: p1.right, right: p1.left, isMatch: p1.isMatch },
      { left: p2.left, right: p2.right, isMatch: !p2.isMatch },
    ];
    const preview = previewLabels(labelsToTsv(broken, { header: true }));
    expect(preview.issues.length).toBe(3);
    const answer = await engine
      .call(
        'matching/evaluate',
        {
          datasetId: 'd',
          pairs: [...preview.pairs],
          rowNumbers: [...preview.lineNumbers],
          thresholds: [0.5],
          maximumErrorExamples: 0,
        },
        ctx,
      )
      .catch((error: unknown) => error);
    expect(answer).toBeInstanceOf(EngineError);
    expect((answer as EngineError).issues).toEqual(preview.issues);
  });
});

describe('threshold metrics from a score distribution', () => {
  // Hand-worked: 10 bins; matches score 0.95, 0.85, 0.55; non-matches 0.65, 0.25, 0.05.
  const distribution = scoreDistribution([0.95, 0.85, 0.55, 0.65, 0.25, 0.05], [1, 1, 1, 0, 0, 0], undefined, 10);

  it('gives the confusion matrix and metrics at a threshold, snapped to the grid', () => {
    const at = metricsAt(distribution, 0.63); // snaps to 0.6
    expect(at).toMatchObject({ threshold: 0.6, tp: 2, fn: 1, fp: 1, tn: 2 });
    expect(at.precision).toBeCloseTo(2 / 3, 12);
    expect(at.recall).toBeCloseTo(2 / 3, 12);
    expect(at.f1).toBeCloseTo(2 / 3, 12);
    expect(at.mcc).toBeCloseTo(1 / 3, 12); // (2·2 − 1·1) / √(3·3·3·3)
    expect(metricsAt(distribution, 0.5)).toMatchObject({ tp: 3, fp: 1, fn: 0, tn: 2, recall: 1 });
    // Above every score: nothing predicted a match, so precision has no value (null, never 0).
    const top = metricsAt(distribution, 0.99);
    expect(top).toMatchObject({ threshold: 1, tp: 0, fp: 0, precision: null, recall: 0 });
    expect(fixed3(top.precision)).toBe('—');
    expect(NULL_REASON.precision).toMatch(/TP \+ FP = 0/);
    expect(metricsAt(distribution, -3).threshold).toBe(0);
  });

  it('draws the curve at every stride-th edge with Wilson bands, and sums bins into bars', () => {
    const points = curvePoints(distribution, 1);
    expect(points.map((p) => p.threshold)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(points[6]).toMatchObject({ precision: 2 / 3, recall: 2 / 3 });
    const band = points[6]?.precisionBand;
    expect(band?.[0]).toBeLessThan(2 / 3);
    expect(band?.[1]).toBeGreaterThan(2 / 3);
    expect(points[10]?.precisionBand).toBeNull();
    expect(range({ lower: 0.2, upper: 0.9 })).toBe('0.200–0.900');

    const bars = histogram(distribution, 5);
    expect(bars).toEqual([
      { from: 0, matches: 0, nonMatches: 1 },
      { from: 0.2, matches: 0, nonMatches: 1 },
      { from: 0.4, matches: 1, nonMatches: 0 },
      { from: 0.6, matches: 0, nonMatches: 1 },
      { from: 0.8, matches: 2, nonMatches: 0 },
    ]);
    const withOne = scoreDistribution([1], [1], undefined, 10);
    expect(histogram(withOne, 5).at(-1)).toEqual({ from: 0.8, matches: 1, nonMatches: 0 });
    expect(() => histogram(distribution, 3)).toThrow(RangeError);
  });
});

describe('the page’s small rules', () => {
  it('reads threshold chips: numbers from 0 to 1, sorted, without repeats', () => {
    expect(parseThresholds(['0.9', '0.5', '0.9'])).toEqual({ values: [0.5, 0.9], error: undefined });
    expect(parseThresholds(['0.5', 'x']).error).toMatch(/not a threshold/);
    expect(parseThresholds(['1.5']).error).toMatch(/from 0 to 1/);
    expect(parseThresholds([]).error).toBe('Give at least one threshold');
    expect(parseThresholds(Array.from({ length: 51 }, (_, i) => String(i / 100))).error).toBe('At most 50 thresholds');
  });

  it('writes CSV with quoting, empty nulls and formula guards', () => {
    expect(
      toCsv([
        { a: 'x,y', b: null, c: 'say "hi"' },
        { a: '=SUM(A1)', b: 2, c: -1 },
      ]),
    ).toBe('a,b,c\r\n"x,y",,"say ""hi"""\r\n\'=SUM(A1),2,-1\r\n');
    expect(toCsv([])).toBe('');
  });

  it('keeps workbench verdicts by pair, whichever side each record is on, and turns them into labels in the order given', () => {
    const pair = (n: number) => ({
      left: { sourceSystem: 's', localId: `l${String(n)}` },
      right: { sourceSystem: 's', localId: `r${String(n)}` },
    });
    let verdicts = withVerdict(new Map(), pair(3), 'non-match');
    verdicts = withVerdict(verdicts, pair(0), 'match');
    verdicts = withVerdict(verdicts, pair(1), 'unsure');
    expect(labelledPairs(verdicts)).toEqual([
      { left: { sourceSystem: 's', localId: 'l3' }, right: { sourceSystem: 's', localId: 'r3' }, isMatch: false },
      { left: { sourceSystem: 's', localId: 'l0' }, right: { sourceSystem: 's', localId: 'r0' }, isMatch: true },
    ]);
    // The same pair drawn the other way round is the same pair.
    const swapped = { left: pair(0).right, right: pair(0).left };
    expect(pairKey(swapped)).toBe(pairKey(pair(0)));
    expect(withVerdict(verdicts, swapped, 'non-match').size).toBe(3);
    expect(withoutVerdict(verdicts, swapped).size).toBe(2);
    // A new draw appends only pairs not already listed; the next pair to label skips labelled ones.
    const listed = appendNew([pair(0), pair(1)], [pair(1), pair(2), pair(3), swapped]);
    expect(listed.map(pairKey)).toEqual([pair(0), pair(1), pair(2), pair(3)].map(pairKey));
    expect(nextUnlabelled(listed, verdicts, 0)).toBe(2);
    expect(nextUnlabelled(listed, verdicts, 3)).toBe(4);
    // Written down as references and verdicts only; a tampered entry is dropped when read back.
    const written = JSON.parse(JSON.stringify(VERDICTS_CODEC.write(verdicts))) as unknown[];
    expect(JSON.stringify(written)).not.toMatch(/familyName|givenName|birthDate/);
    expect(
      VERDICTS_CODEC.read([...written, { left: 1, right: {}, verdict: 'match' }, { ...pair(9), verdict: 'maybe' }]),
    ).toEqual(verdicts);
    expect(VERDICTS_CODEC.read('nope')).toBeUndefined();
  });

  it('compares two evaluations at the thresholds both asked for', () => {
    const m = (threshold: number, precision: number | null): ThresholdMetrics => ({
      threshold,
      tp: 0,
      fp: 0,
      tn: 0,
      fn: 0,
      precision,
      recall: null,
      specificity: null,
      npv: null,
      f1: null,
      mcc: null,
      precisionInterval: null,
      recallInterval: null,
    });
    const a = { thresholds: [m(0.5, 0.8), m(0.9, 0.9)] } as EvaluationReport;
    const b = { thresholds: [m(0.7, 0.1), m(0.9, 0.95)] } as EvaluationReport;
    expect(comparisonRows(a, b).map((r) => r.threshold)).toEqual([0.9]);
    // The ones left out are named, never dropped silently.
    expect(unsharedThresholds(a, b)).toEqual({ onlyA: [0.5], onlyB: [0.7] });
    expect(metricDelta(0.9, 0.95)).toBe('+0.050');
    expect(metricDelta(0.9, 0.8)).toBe('−0.100');
    expect(metricDelta(null, 0.8)).toMatch(/^—/);
  });

  it('compares two chosen runs earlier first, whichever was ticked first', () => {
    const run = (id: string, createdAt: string) => ({ id, summary: { createdAt } });
    const older = run('older', '2026-11-30T10:19:05.000Z');
    const newer = run('newer', '2026-11-30T10:20:32.000Z');
    expect(inTimeOrder(newer, older).map((r) => r.id)).toEqual(['older', 'newer']);
    expect(inTimeOrder(older, newer).map((r) => r.id)).toEqual(['older', 'newer']);
    // Offsets are moments: 11:00+02:00 is before 10:00Z.
    expect(
      inTimeOrder(run('z', '2026-11-30T10:00:00Z'), run('plus2', '2026-11-30T11:00:00+02:00')).map((r) => r.id),
    ).toEqual(['plus2', 'z']);
    // The same instant keeps the order chosen.
    const twin = run('twin', newer.summary.createdAt);
    expect(inTimeOrder(twin, newer).map((r) => r.id)).toEqual(['twin', 'newer']);
  });

  it('gives each band its ln(m/u) weight and lists what differs between two models', () => {
    const bands = (exact: number) => ({ Exact: exact, Strong: 0.1, Partial: 0.1, Different: 0.8 - exact });
    const model = (prior: number, exact: number): FellegiSunterModel => ({
      kind: 'fellegi-sunter-model',
      modelVersion: `m-${String(exact)}`,
      priorMatchProbability: prior,
      smoothing: 1,
      fields: { familyName: { m: bands(exact), u: bands(0.05) } },
      trainedAgainst: { matchingProfileVersion: 1, comparatorVersion: 'c', scoreMethodVersion: 's' },
      datasetId: 'd',
      datasetDigest: '0'.repeat(64),
      bands: ['Exact', 'Strong', 'Partial', 'Different'],
    });
    const weights = fieldWeights(model(0.01, 0.7));
    expect(weights[0]).toMatchObject({ field: 'familyName', band: 'Exact', m: 0.7, u: 0.05 });
    expect(weights[0]?.weight).toBeCloseTo(Math.log(14), 12);
    expect(weights[1]?.weight).toBe(0);
    const changes = modelChanges(model(0.01, 0.7), model(0.02, 0.6));
    expect(changes.map((c) => c.what)).toEqual([
      'Model version',
      'Prior match probability',
      'Family name, Exact: ln(m/u)',
      'Family name, Different: ln(m/u)',
    ]);
    // Fields in evidence order, not alphabetical: birth date after the names, whatever the document's key order.
    const withDates = (exact: number): FellegiSunterModel => ({
      ...model(0.01, exact),
      fields: { birthDate: { m: bands(exact), u: bands(0.05) }, familyName: { m: bands(exact), u: bands(0.05) } },
    });
    expect(
      modelChanges(withDates(0.7), withDates(0.6))
        .map((c) => c.what)
        .filter((w) => w.endsWith('Exact: ln(m/u)')),
    ).toEqual(['Family name, Exact: ln(m/u)', 'Birth date, Exact: ln(m/u)']);
    expect(modelChanges(model(0.01, 0.7), model(0.01, 0.7))).toEqual([]);
    // Labels of another digest: shown by the digest's first 12 digits, as the saved runs list shows it.
    expect(modelChanges(model(0.01, 0.7), { ...model(0.01, 0.7), datasetDigest: 'ab'.repeat(32) })).toEqual([
      { what: 'Dataset digest', active: '000000000000…', produced: 'abababababab…' },
    ]);
    // A model whose prior scales with the registry against one whose prior is used as given (a calibration's).
    expect(modelChanges({ ...model(0.01, 0.7), priorRecords: 20_000 }, model(0.01, 0.7))).toEqual([
      { what: 'Registry size the prior is set for', active: '20000', produced: '—' },
    ]);
  });
});

describe('the match-weight axis', () => {
  it('is the log2 odds of the score and back, with the probability beside each tick', async () => {
    const { matchWeight, probabilityOfWeight, weightTick } =
      await import('../../renderer/pages/assurance/score-curves.ts');
    expect(matchWeight(0.5)).toBe(0);
    expect(matchWeight(0.8)).toBeCloseTo(2, 12);
    expect(probabilityOfWeight(matchWeight(0.97))).toBeCloseTo(0.97, 12);
    expect(weightTick(5)).toBe('5 (0.970)');
    expect(weightTick(10)).toBe('10 (0.9990)');
    expect(weightTick(-10)).toBe('-10 (0.0010)');
  });
});
