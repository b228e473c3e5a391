/**
 * The console's label preview runs the engine's own reader and dataset rules (engine/contract): for the same
 * text it lists the same row errors, with the same line numbers and rules, as the engine's rejection of the
 * file, except the one rule only the registry can check (a record that does not exist).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { EngineError } from '../../../engine/contract/errors.ts';
import { labelsToTsv, readLabelTsv } from '../../../engine/contract/label-tsv.ts';
import { labelRuleIssues } from '../../../engine/contract/label-rules.ts';
import { parseLabelsTsv } from '../../../engine/assurance/labels.ts';
import { datasetDigest } from '../../../engine/assurance/dataset-digest.ts';
import { createHash } from 'node:crypto';

const ctx = { tenantId: 'demo', actor: 'test' };

/** What the page shows before sending: reader issues, else the dataset rules with rows named by line. */
function preview(text: string) {
  const read = readLabelTsv(text);
  if (read.issues.length > 0) return read.issues;
  return labelRuleIssues(read.pairs, {
    rowName: (i) => `line ${String(read.lineNumbers[i] ?? i + 1)}`,
    recordExists: () => true,
  });
}

function rejection(run: () => unknown): EngineError {
  try {
    run();
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('the label preview reads with the engine’s rules', () => {
  it('lists the same row errors as the engine’s parser, for any text (property)', () => {
    const cell = fc.constantFrom(
      'EHR',
      'A1',
      ' LAB ',
      '',
      'x\u0007y',
      'match',
      'non-match',
      'TRUE',
      '0',
      'yes',
      'leftSource',
      'isMatch',
    );
    const line = fc.array(cell, { minLength: 0, maxLength: 7 }).map((cells) => cells.join('\t'));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (lines, eol, bom) => {
        const text = (bom ? '\uFEFF' : '') + lines.join(eol);
        const read = readLabelTsv(text);
        let engineIssues: readonly unknown[] = [];
        try {
          const parsed = parseLabelsTsv(text);
          expect(parsed.pairs).toEqual(read.pairs);
          expect(parsed.lineNumbers).toEqual(read.lineNumbers);
        } catch (error) {
          if (!(error instanceof EngineError)) throw error;
          engineIssues = error.issues;
        }
        expect(read.issues).toEqual(engineIssues);
        // Never a cell value in a message.
        for (const issue of read.issues) {
          for (const value of ['EHR', 'A1', 'LAB', 'yes', '\u0007']) expect(issue.message).not.toContain(value);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('counts rows, finds the header and names lines (hand-worked)', () => {
    const text =
      'leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch\n\nEHR\tA1\tLAB\tB1\tmatch\nEHR\tA2\tLAB\tB2\tmaybe\nEHR\tA3\n';
    const read = readLabelTsv(text);
    expect(read.headerLine).toBe(1);
    expect(read.rows).toBe(3);
    expect(read.lineNumbers).toEqual([3]);
    expect(read.issues).toEqual([
      { path: 'line 4', message: 'column isMatch: expected match/non-match, true/false or 1/0' },
      { path: 'line 5', message: 'expected 5 tab-separated columns, found 2' },
    ]);
  });

  it('shows the engine’s dataset-rule errors, line for line, before anything is sent', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    try {
      await engine.call('sandbox/create', { syntheticPeople: 60, seed: 4 }, ctx);
      const { pairs } = await engine.call('labels/sample', { maxPairs: 20, seed: 2 }, ctx);
      const [a, b, c] = pairs;
      if (a === undefined || b === undefined || c === undefined) throw new Error('too few pairs');
      // A duplicate (a mirrored), a contradiction (b with the other label) and a self-pair, among valid rows.
      const rows = [
        ...pairs,
        { left: a.right, right: a.left, isMatch: a.isMatch },
        { ...b, isMatch: !b.isMatch },
        { left: c.left, right: c.left, isMatch: false },
      ];
      const text = labelsToTsv(rows, { header: true });
      const shown = preview(text);
      expect(shown.length).toBe(3);
      const read = readLabelTsv(text);
      const error = await engine
        .call(
          'matching/evaluate',
          { datasetId: 'x', pairs: read.pairs, rowNumbers: read.lineNumbers, thresholds: [0.5] },
          ctx,
        )
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).issues).toEqual(shown);
      expect(shown.map((i) => i.path)).toEqual([
        `line ${String(pairs.length + 2)}`,
        `line ${String(pairs.length + 3)}`,
        `line ${String(pairs.length + 4)}`,
      ]);
    } finally {
      engine.close();
    }
  });

  it('writes labels in the dataset digest’s form: the text’s SHA-256 is the digest', () => {
    const pairs = [
      { left: { sourceSystem: 'EHR', localId: 'A1' }, right: { sourceSystem: 'LAB', localId: 'B1' }, isMatch: true },
      { left: { sourceSystem: 'EHR', localId: 'A2' }, right: { sourceSystem: 'LAB', localId: 'B2' }, isMatch: false },
    ];
    const text = labelsToTsv(pairs);
    expect(text).toBe('EHR\tA1\tLAB\tB1\t1\nEHR\tA2\tLAB\tB2\t0\n');
    expect(createHash('sha256').update(text, 'utf8').digest('hex')).toBe(datasetDigest(pairs));
    expect(readLabelTsv(labelsToTsv(pairs, { header: true })).pairs).toEqual(pairs);
    expect(rejection(() => parseLabelsTsv('a\tb')).kind).toBe('validation');
  });
});
