import { describe, expect, it } from 'vitest';
import { labelRuleIssues } from '../../../engine/assurance/label-rules.ts';
import type { LabelRuleOptions } from '../../../engine/assurance/label-rules.ts';
import { MAX_LABEL_PAIRS } from '../../../engine/assurance/labels.ts';
import type { LabelPair, RecordRef } from '../../../engine/assurance/labels.ts';

const ref = (sourceSystem: string, localId: string): RecordRef => ({ sourceSystem, localId });
const pair = (left: RecordRef, right: RecordRef, isMatch: boolean): LabelPair => ({ left, right, isMatch });

const A = ref('EHR', 'A1');
const B = ref('LAB', 'B1');
const C = ref('EHR', 'A2');
const D = ref('LAB', 'B2');
const E = ref('EHR', 'A3');
const F = ref('LAB', 'B3');
/** Exists only in another tenant. */
const OTHER = ref('EHR', 'OTHER-TENANT-7');
/** Exists nowhere. */
const GHOST = ref('EHR', 'GHOST-99');

const key = (r: RecordRef): string => `${r.sourceSystem}|${r.localId}`;
const tenant = new Set([A, B, C, D, E, F].map(key));

function options(overrides: Partial<LabelRuleOptions> = {}): LabelRuleOptions {
  return {
    rowName: (index) => `line ${index + 2}`,
    recordExists: (r) => tenant.has(key(r)),
    ...overrides,
  };
}

/** A valid two-class base: A–B match, C–D non-match. */
const BASE = [pair(A, B, true), pair(C, D, false)];

describe('labelRuleIssues', () => {
  it('accepts a valid dataset', () => {
    expect(labelRuleIssues(BASE, options())).toEqual([]);
  });

  it('rejects more than 10,000 pairs with one dataset issue', () => {
    const many = Array.from({ length: MAX_LABEL_PAIRS + 1 }, (_, i) => pair(A, ref('LAB', `X${i}`), i % 2 === 0));
    let lookups = 0;
    const issues = labelRuleIssues(
      many,
      options({
        recordExists: () => {
          lookups += 1;
          return true;
        },
      }),
    );
    expect(issues).toEqual([{ path: 'pairs', message: 'at most 10000 pairs are allowed; found 10001' }]);
    expect(lookups).toBe(0);
  });

  it('accepts exactly 10,000 pairs', () => {
    const many = Array.from({ length: MAX_LABEL_PAIRS }, (_, i) => pair(A, ref('LAB', `X${i}`), i % 2 === 0));
    expect(labelRuleIssues(many, options({ recordExists: () => true }))).toEqual([]);
  });

  it('rejects control characters and empty values in reference fields, without echoing them', () => {
    const issues = labelRuleIssues(
      [
        ...BASE,
        pair(ref('EHR\u0000', 'A1'), B, true),
        pair(A, ref('LAB', 'SECRET\nB1'), false),
        pair(ref('', 'A1'), ref('LAB', '\u0085'), true),
      ],
      options(),
    );
    expect(issues).toEqual([
      { path: 'line 4', message: 'left.sourceSystem contains a control character' },
      { path: 'line 5', message: 'right.localId contains a control character' },
      { path: 'line 6', message: 'left.sourceSystem is empty' },
      { path: 'line 6', message: 'right.localId contains a control character' },
    ]);
    expect(JSON.stringify(issues)).not.toContain('SECRET');
  });

  it('does not look up malformed references', () => {
    const looked: string[] = [];
    labelRuleIssues(
      [...BASE, pair(ref('EHR\u0007', 'A1'), B, true)],
      options({
        recordExists: (r) => {
          looked.push(key(r));
          return true;
        },
      }),
    );
    expect(looked).not.toContain('EHR\u0007|A1');
  });

  it('rejects a self-pair', () => {
    expect(labelRuleIssues([...BASE, pair(E, ref('EHR', 'A3'), false)], options())).toEqual([
      { path: 'line 4', message: 'self-pair: left and right are the same record' },
    ]);
  });

  it('does not treat the same local id in different source systems as a self-pair', () => {
    expect(
      labelRuleIssues(
        [...BASE, pair(ref('EHR', 'B1'), ref('LAB', 'B1'), false)],
        options({ recordExists: () => true }),
      ),
    ).toEqual([]);
  });

  it('rejects records missing from the tenant, naming the side', () => {
    expect(labelRuleIssues([...BASE, pair(GHOST, E, false), pair(F, GHOST, false)], options())).toEqual([
      {
        path: 'line 4',
        message: "left record does not exist in this tenant (labels may refer only to this tenant's records)",
      },
      {
        path: 'line 5',
        message: "right record does not exist in this tenant (labels may refer only to this tenant's records)",
      },
    ]);
  });

  it('rejects a cross-tenant reference exactly as a missing record, naming neither tenant nor record', () => {
    const issues = labelRuleIssues([...BASE, pair(E, OTHER, false), pair(E, GHOST, false)], options());
    expect(issues).toEqual([
      {
        path: 'line 4',
        message: "right record does not exist in this tenant (labels may refer only to this tenant's records)",
      },
      {
        path: 'line 5',
        message: "right record does not exist in this tenant (labels may refer only to this tenant's records)",
      },
    ]);
    expect(JSON.stringify(issues)).not.toContain('OTHER-TENANT');
  });

  it('looks each distinct record up once', () => {
    const looked: string[] = [];
    labelRuleIssues(
      [pair(A, B, true), pair(A, C, false), pair(B, C, false)],
      options({
        recordExists: (r) => {
          looked.push(key(r));
          return true;
        },
      }),
    );
    expect(looked).toEqual([key(A), key(B), key(C)]);
  });

  it('rejects a duplicate pair, including a mirrored one, naming the first row', () => {
    const issues = labelRuleIssues(
      [pair(A, B, true), pair(C, D, false), pair(A, B, true), pair(D, C, false)],
      options(),
    );
    expect(issues).toEqual([
      { path: 'line 4', message: 'duplicate pair: duplicates line 2' },
      { path: 'line 5', message: 'duplicate pair: duplicates line 3' },
    ]);
  });

  it('rejects a contradictory pair, including a mirrored one, naming the first row', () => {
    const issues = labelRuleIssues(
      [pair(A, B, true), pair(C, D, false), pair(B, A, false), pair(C, D, true)],
      options(),
    );
    expect(issues).toEqual([
      { path: 'line 4', message: 'contradictory pair: labelled non-match here and match at line 2' },
      { path: 'line 5', message: 'contradictory pair: labelled match here and non-match at line 3' },
    ]);
  });

  it('reports a row that both duplicates and contradicts earlier rows', () => {
    const issues = labelRuleIssues(
      [pair(A, B, true), pair(A, B, false), pair(B, A, true), ...BASE.slice(1)],
      options(),
    );
    expect(issues).toEqual([
      { path: 'line 3', message: 'contradictory pair: labelled non-match here and match at line 2' },
      { path: 'line 4', message: 'duplicate pair: duplicates line 2' },
      { path: 'line 4', message: 'contradictory pair: labelled match here and non-match at line 3' },
    ]);
  });

  it('uses the caller’s row names (API input)', () => {
    const issues = labelRuleIssues([pair(A, B, true), pair(C, D, false), pair(B, A, true)], {
      ...options(),
      rowName: (index) => `pairs[${index}]`,
    });
    expect(issues).toEqual([{ path: 'pairs[2]', message: 'duplicate pair: duplicates pairs[0]' }]);
  });

  it('rejects a dataset lacking either class', () => {
    expect(labelRuleIssues([pair(A, B, true), pair(C, D, true)], options())).toEqual([
      {
        path: 'pairs',
        message: 'the dataset must contain both matches and non-matches; found 2 matches and 0 non-matches',
      },
    ]);
    expect(labelRuleIssues([pair(A, B, false)], options())).toEqual([
      {
        path: 'pairs',
        message: 'the dataset must contain both matches and non-matches; found 0 matches and 1 non-match',
      },
    ]);
    expect(labelRuleIssues([], options())).toEqual([
      {
        path: 'pairs',
        message: 'the dataset must contain both matches and non-matches; found 0 matches and 0 non-matches',
      },
    ]);
  });

  it('requires minimumPerClass of each class (calibration: 10)', () => {
    const records = Array.from({ length: 40 }, (_, i) => ref('EHR', `R${i}`));
    const pairs = (matches: number, nonMatches: number): LabelPair[] => [
      ...Array.from({ length: matches }, (_, i) => pair(records[2 * i] ?? A, records[2 * i + 1] ?? B, true)),
      ...Array.from({ length: nonMatches }, (_, i) => pair(records[i] ?? A, records[39 - i] ?? B, false)),
    ];
    const calibration = options({ recordExists: () => true, minimumPerClass: 10 });
    expect(labelRuleIssues(pairs(10, 10), calibration)).toEqual([]);
    expect(labelRuleIssues(pairs(9, 12), calibration)).toEqual([
      {
        path: 'pairs',
        message: 'at least 10 matches and 10 non-matches are required; found 9 matches and 12 non-matches',
      },
    ]);
    expect(labelRuleIssues(pairs(1, 0), calibration)).toEqual([
      {
        path: 'pairs',
        message: 'the dataset must contain both matches and non-matches; found 1 match and 0 non-matches',
      },
      {
        path: 'pairs',
        message: 'at least 10 matches and 10 non-matches are required; found 1 match and 0 non-matches',
      },
    ]);
  });

  it('rejects an invalid minimumPerClass', () => {
    expect(() => labelRuleIssues(BASE, options({ minimumPerClass: 0 }))).toThrow(RangeError);
  });

  it('lists row issues in row order, then dataset issues', () => {
    const issues = labelRuleIssues([pair(GHOST, B, true), pair(A, A, true), pair(B, GHOST, true)], options());
    expect(issues.map((issue) => issue.path)).toEqual(['line 2', 'line 3', 'line 4', 'line 4', 'pairs']);
    expect(issues[3]).toEqual({ path: 'line 4', message: 'duplicate pair: duplicates line 2' });
  });
});
