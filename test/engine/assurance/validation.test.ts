import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { tableCounts } from '../../helpers/registry.ts';
import { EngineError } from '../../../engine/contract/errors.ts';
import type { LabelPair } from '../../../engine/assurance/labels.ts';
import type { LocalEngine } from '../../../engine/local-engine.ts';
import { ctx, LABELS, PEOPLE, tinyRegistry } from './assurance-registry.ts';

const ref = (localId: string, sourceSystem = 'clinic'): LabelPair['left'] => ({ sourceSystem, localId });
const pair = (left: string, right: string, isMatch: boolean): LabelPair => ({
  left: ref(left),
  right: ref(right),
  isMatch,
});

async function rejection(
  engine: LocalEngine,
  pairs: LabelPair[],
  extra: { rowNumbers?: number[]; datasetId?: string } = {},
): Promise<EngineError> {
  const before = tableCounts(engine);
  const error = await engine
    .call(
      'matching/evaluate',
      {
        datasetId: extra.datasetId ?? 'd',
        pairs,
        thresholds: [0.5],
        maximumErrorExamples: 5,
        ...(extra.rowNumbers === undefined ? {} : { rowNumbers: extra.rowNumbers }),
      },
      ctx(),
    )
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(EngineError);
  // Nothing is written for a rejected request: not even the audit record.
  expect(tableCounts(engine)).toEqual(before);
  return error as EngineError;
}

/** The issues as "path: message" lines. */
const lines = (error: EngineError): string[] => error.issues.map((i) => `${i.path}: ${i.message}`);

describe('label dataset validation through matching/evaluate and matching/calibrate', () => {
  it('lists every offending row and rule in one validation error, without patient values', async () => {
    const dir = tempDir();
    const engine = await tinyRegistry(dir, ['t1', 't2']);
    // A record that exists only in tenant t2.
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'clinic',
        ndjson:
          JSON.stringify({ resourceType: 'Patient', id: 'ELSEWHERE-1', name: [{ family: 'Ngata', given: ['Rua'] }] }) +
          '\n',
      },
      ctx('t2'),
    );
    const error = await rejection(engine, [
      pair('PX01', 'PX02', true), // fine
      pair('PX01', 'GHOST', false), // missing record
      pair('PX03', 'PX03', true), // self-pair
      pair('PX02', 'PX01', true), // mirror of row 0 with the same label: duplicate
      pair('PX04', 'PX03', false), // the next row contradicts it (a mirror with the other label)
      pair('PX03', 'PX04', true),
      pair('PX05', 'ELSEWHERE-1', false), // cross-tenant
      { left: ref('PX06'), right: ref('PX0\u00077'), isMatch: false }, // control character
    ]);
    expect(error.kind).toBe('validation');
    expect(lines(error)).toEqual([
      "pairs[1]: right record does not exist in this tenant (labels may refer only to this tenant's records)",
      'pairs[2]: self-pair: left and right are the same record',
      'pairs[3]: duplicate pair: duplicates pairs[0]',
      'pairs[5]: contradictory pair: labelled match here and non-match at pairs[4]',
      // Another tenant's record is rejected exactly like a missing one: nothing is revealed about other tenants.
      "pairs[6]: right record does not exist in this tenant (labels may refer only to this tenant's records)",
      'pairs[7]: right.localId contains a control character',
    ]);
    const text = JSON.stringify(error.toData());
    for (const person of PEOPLE) expect(text).not.toContain(person.family);
    expect(text).not.toContain('GHOST');
    expect(text).not.toContain('ELSEWHERE');
    engine.close();
  });

  it('names rows by TSV line when row numbers are given', async () => {
    const engine = await tinyRegistry(tempDir());
    const error = await rejection(engine, [pair('PX01', 'PX02', true), pair('PX01', 'GHOST', false)], {
      rowNumbers: [2, 5],
    });
    expect(lines(error)).toEqual([
      "line 5: right record does not exist in this tenant (labels may refer only to this tenant's records)",
    ]);
    const mismatch = await rejection(engine, [pair('PX01', 'PX02', true), pair('PX01', 'PX03', false)], {
      rowNumbers: [2],
    });
    expect(lines(mismatch)).toEqual(['rowNumbers: must have one entry per pair (2); found 1']);
    engine.close();
  });

  it('rejects a dataset lacking either class', async () => {
    const engine = await tinyRegistry(tempDir());
    const onlyMatches = await rejection(
      engine,
      LABELS.filter((p) => p.isMatch),
    );
    expect(lines(onlyMatches)).toEqual([
      'pairs: the dataset must contain both matches and non-matches; found 5 matches and 0 non-matches',
    ]);
    const empty = await rejection(engine, []);
    expect(lines(empty)).toEqual([
      'pairs: the dataset must contain both matches and non-matches; found 0 matches and 0 non-matches',
    ]);
    engine.close();
  });

  it('rejects more than 10,000 pairs before looking at any record', async () => {
    const engine = await tinyRegistry(tempDir());
    const many = Array.from({ length: 10_001 }, (_, i) => pair('PX01', `R${String(i)}`, i % 2 === 0));
    const error = await rejection(engine, many);
    expect(error.issues.map((i) => i.path)).toEqual(['pairs']);
    expect(error.issues[0]?.message).toMatch(/10000/);
    engine.close();
  });

  it('rejects a control character in the dataset ID', async () => {
    const engine = await tinyRegistry(tempDir());
    const error = await rejection(engine, LABELS, { datasetId: 'bad\nid' });
    expect(lines(error)).toEqual(['datasetId: contains a control character']);
    engine.close();
  });

  it('requires at least ten matches and ten non-matches for calibration', async () => {
    const engine = await tinyRegistry(tempDir());
    const before = tableCounts(engine);
    const error = await engine
      .call(
        'matching/calibrate',
        {
          datasetId: 'd',
          modelVersion: 'm1',
          pairs: LABELS,
          priorMatchProbability: 0.1,
          smoothing: 1,
          validationFraction: 0.3,
          targetPrecision: 0.99,
        },
        ctx(),
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(EngineError);
    expect(lines(error as EngineError)).toEqual([
      'pairs: at least 10 matches and 10 non-matches are required; found 5 matches and 4 non-matches',
    ]);
    expect(tableCounts(engine)).toEqual(before);
    engine.close();
  });
});
