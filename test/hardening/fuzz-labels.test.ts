/**
 * Property-based test of the label TSV surface (issue 7, "keep it that way"): arbitrary files mixing good
 * rows, references to records that do not exist (patient-like canaries), control characters, overlong cells,
 * wrong column counts, blank lines, CRLF, a byte order mark and a header. Evaluation and calibration either
 * succeed or reject with a validation error whose every issue names a line (or `pairs`), never a planted
 * value, and a rejection writes nothing (the audit trail is unchanged).
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../engine/local-engine.ts';
import { parseLabelsTsv } from '../../engine/assurance/labels.ts';
import { isEngineError } from '../../engine/contract/errors.ts';

import { CANARIES, expectNoPlanted, expectSafeRejection, plantedText } from './fuzz-helpers.ts';
import { scratchDir } from '../helpers/temp.ts';

const CTX = { tenantId: 'labels-fuzz', actor: 'test' };
let engine: LocalEngine;
let cleanup: () => void;
let refs: { sourceSystem: string; localId: string; enterpriseId: string }[];

beforeAll(async () => {
  const temp = scratchDir('mpi-fuzz-labels-');
  cleanup = temp.cleanup;
  engine = LocalEngine.open({ dbPath: join(temp.dir, 'labels.db') });
  await engine.call('sandbox/create', { syntheticPeople: 80, seed: 12 }, CTX);
  refs = (await engine.call('identities/list', { limit: 1000, offset: 0 }, CTX)).rows;
});

afterAll(() => {
  engine.close();
  cleanup();
});

function auditCount(): number {
  return engine.env.store
    .statement('SELECT COUNT(*) FROM audit_record WHERE tenant_id = ?')
    .pluck()
    .get(CTX.tenantId) as number;
}

const outcome = fc.constantFrom('1', '0', 'match', 'non-match', 'TRUE', 'false');

function row(clean: boolean): fc.Arbitrary<string> {
  const ref = fc
    .integer({ min: 0, max: 10_000 })
    .map((i) => refs[i % refs.length] ?? { sourceSystem: 'x', localId: 'y' });
  const good = fc
    .tuple(ref, ref, outcome)
    .map(([a, b, o]) => `${a.sourceSystem}\t${a.localId}\t${b.sourceSystem}\t${b.localId}\t${o}`);
  // Same person or not decides nothing here: both labels must be handled.
  const linked = fc.integer({ min: 0, max: 10_000 }).map((i) => {
    const a = refs[i % refs.length];
    const b = refs.find((r) => r.enterpriseId === a?.enterpriseId && r !== a) ?? refs[(i + 1) % refs.length];
    return `${a?.sourceSystem ?? ''}\t${a?.localId ?? ''}\t${b?.sourceSystem ?? ''}\t${b?.localId ?? ''}\tmatch`;
  });
  const planted = plantedText(CANARIES);
  const missing = fc
    .tuple(ref, planted, outcome)
    .map(([a, p, o]) => `${a.sourceSystem}\t${a.localId}\t${a.sourceSystem}\t${p}\t${o}`);
  const long = fc
    .tuple(ref, fc.constantFrom(...CANARIES))
    .map(([a, c]) => `${a.sourceSystem}\t${c.repeat(30)}\t${a.sourceSystem}\t${a.localId}\t1`);
  const badOutcome = fc
    .tuple(ref, ref, fc.constantFrom(...CANARIES))
    .map(([a, b, c]) => `${a.sourceSystem}\t${a.localId}\t${b.sourceSystem}\t${b.localId}\t${c}`);
  const columns = fc.array(fc.oneof(planted, fc.constant('x')), { maxLength: 8 }).map((cells) => cells.join('\t'));
  const blank = fc.constantFrom('', '   ', '\t');
  if (clean) return fc.oneof({ weight: 2, arbitrary: good }, linked, blank);
  return fc.oneof(
    { weight: 6, arbitrary: good },
    { weight: 3, arbitrary: linked },
    missing,
    long,
    badOutcome,
    columns,
    blank,
  );
}

const rows = fc.oneof(
  fc.array(row(true), { minLength: 20, maxLength: 60 }),
  fc.array(row(false), { minLength: 0, maxLength: 40 }),
);
const file = fc
  .tuple(fc.boolean(), fc.boolean(), fc.constantFrom('\n', '\r\n'), rows)
  .map(
    ([bom, header, eol, rows]) =>
      (bom ? '\uFEFF' : '') +
      [...(header ? ['leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch'] : []), ...rows].join(eol) +
      eol,
  );

describe('label files, fuzzed', () => {
  it('evaluate and calibrate accept or reject cleanly, name lines, never echo a planted value, write nothing on rejection', async () => {
    const seen = { accepted: 0, rejected: 0 };
    await fc.assert(
      fc.asyncProperty(
        file,
        fc.boolean(),
        fc.constantFrom('set-1', `set ${CANARIES[0] ?? ''}`),
        async (text, calibrate, datasetId) => {
          let parsed: ReturnType<typeof parseLabelsTsv>;
          try {
            parsed = parseLabelsTsv(text);
          } catch (error) {
            const rejected = expectSafeRejection(error, CANARIES);
            for (const issue of rejected.issues) expect(issue.path).toMatch(/^line \d+$/);
            seen.rejected++;
            return;
          }
          const before = auditCount();
          const request = { datasetId, pairs: parsed.pairs, rowNumbers: parsed.lineNumbers };
          try {
            const result = calibrate
              ? await engine.call(
                  'matching/calibrate',
                  {
                    ...request,
                    modelVersion: 'fuzz-1',
                    priorMatchProbability: 0.1,
                    smoothing: 1,
                    validationFraction: 0.3,
                    targetPrecision: 0.9,
                  },
                  CTX,
                )
              : await engine.call('matching/evaluate', { ...request, thresholds: [0.5, 0.9] }, CTX);
            expect(result).toBeDefined();
            expect(auditCount()).toBe(before + 1);
            seen.accepted++;
          } catch (error) {
            const rejected = expectSafeRejection(error, CANARIES);
            for (const issue of rejected.issues)
              expect(issue.path).toMatch(/^(line \d+|pairs|datasetId|validationFraction)$/);
            expect(auditCount()).toBe(before);
            expect(isEngineError(error)).toBe(true);
            seen.rejected++;
          }
        },
      ),
      { numRuns: 80 },
    );
    // Both outcomes were exercised, not only early rejections.
    expect(seen.accepted).toBeGreaterThan(5);
    expect(seen.rejected).toBeGreaterThan(5);
  });

  it('a dataset ID or model version holding a planted value is refused without repeating it', async () => {
    const good = refs.slice(0, 2);
    const pairs = [{ left: good[0] ?? refs[0], right: good[1] ?? refs[1], isMatch: true }].map((p) => ({
      left: { sourceSystem: p.left?.sourceSystem ?? '', localId: p.left?.localId ?? '' },
      right: { sourceSystem: p.right?.sourceSystem ?? '', localId: p.right?.localId ?? '' },
      isMatch: p.isMatch,
    }));
    for (const canary of CANARIES) {
      try {
        await engine.call('matching/evaluate', { datasetId: `${canary}\u001b[0m`, pairs, thresholds: [0.5] }, CTX);
        throw new Error('expected a rejection');
      } catch (error) {
        expectNoPlanted(JSON.stringify(expectSafeRejection(error, [canary]).toData()), [canary]);
      }
    }
  });
});
