import type { ErrorIssue } from '../contract/errors.ts';
import { hasControlCharacter, MAX_LABEL_PAIRS } from './labels.ts';
import type { LabelPair, RecordRef } from './labels.ts';

export interface LabelRuleOptions {
  /** Names row `index` in issue paths and messages: `line 12` for TSV input, `pairs[3]` for API input. */
  readonly rowName: (index: number) => string;
  /** Whether the record exists in the requesting tenant's registry. */
  readonly recordExists: (ref: RecordRef) => boolean;
  /** Whether the record exists in some other tenant (only used to word the message; never named). */
  readonly otherTenantHas?: (ref: RecordRef) => boolean;
  /** Least number of matches and of non-matches: 10 for calibration, 1 (the default) for evaluation. */
  readonly minimumPerClass?: number;
}

const SIDES = ['left', 'right'] as const;
const FIELDS = ['sourceSystem', 'localId'] as const;

/** An unambiguous key for one record reference. */
function refKey(ref: RecordRef): string {
  return JSON.stringify([ref.sourceSystem, ref.localId]);
}

/** A key for the unordered pair: a pair and its mirror share it. */
function unorderedPairKey(pair: LabelPair): string {
  const left = refKey(pair.left);
  const right = refKey(pair.right);
  return left <= right ? `${left}|${right}` : `${right}|${left}`;
}

function plural(count: number, singular: string, pluralForm: string): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/**
 * The label dataset rules shared by evaluation and calibration (spec Endpoints, rules 3 and 4),
 * checked before any work is done. Returns every broken rule — per-row issues in row order, then
 * dataset-level ones (path `pairs`) — or an empty list when the dataset is acceptable. Issues
 * name the row and the rule, never a patient value or a tenant.
 *
 * Per row: an empty or control-character reference field; a self-pair (left and right the same
 * record); a record missing from the tenant (worded as a cross-tenant reference when
 * `otherTenantHas` finds it elsewhere); a duplicate (the same unordered pair — a pair and its
 * mirror are the same pair — with the same label as an earlier row, which is named); a
 * contradiction (the same unordered pair with the other label than an earlier row, which is
 * named). Dataset: either class missing; fewer than `minimumPerClass` of either class.
 *
 * More than MAX_LABEL_PAIRS pairs gives a single issue and nothing else is checked, so an
 * oversized upload costs no record look-ups.
 */
export function labelRuleIssues(pairs: readonly LabelPair[], options: LabelRuleOptions): ErrorIssue[] {
  const minimumPerClass = options.minimumPerClass ?? 1;
  if (!Number.isSafeInteger(minimumPerClass) || minimumPerClass < 1) {
    throw new RangeError('minimumPerClass must be a positive integer');
  }
  if (pairs.length > MAX_LABEL_PAIRS) {
    return [{ path: 'pairs', message: `at most ${MAX_LABEL_PAIRS} pairs are allowed; found ${pairs.length}` }];
  }

  const issues: ErrorIssue[] = [];
  const existence = new Map<string, 'exists' | 'missing' | 'other-tenant'>();
  const lookUp = (ref: RecordRef): 'exists' | 'missing' | 'other-tenant' => {
    const key = refKey(ref);
    let found = existence.get(key);
    if (found === undefined) {
      if (options.recordExists(ref)) found = 'exists';
      else found = options.otherTenantHas?.(ref) === true ? 'other-tenant' : 'missing';
      existence.set(key, found);
    }
    return found;
  };
  /** For each unordered pair, the first row seen with each label. */
  const firstRows = new Map<string, { match?: number; nonMatch?: number }>();
  let matches = 0;
  let nonMatches = 0;

  pairs.forEach((pair, index) => {
    const path = options.rowName(index);
    if (pair.isMatch) matches += 1;
    else nonMatches += 1;

    const wellFormed: Record<(typeof SIDES)[number], boolean> = { left: true, right: true };
    for (const side of SIDES) {
      for (const field of FIELDS) {
        const value = pair[side][field];
        if (value === '') {
          issues.push({ path, message: `${side}.${field} is empty` });
          wellFormed[side] = false;
        } else if (hasControlCharacter(value)) {
          issues.push({ path, message: `${side}.${field} contains a control character` });
          wellFormed[side] = false;
        }
      }
    }

    const selfPair = refKey(pair.left) === refKey(pair.right);
    if (selfPair) {
      issues.push({ path, message: 'self-pair: left and right are the same record' });
    }

    for (const side of SIDES) {
      if (!wellFormed[side] || (selfPair && side === 'right')) continue;
      const found = lookUp(pair[side]);
      if (found === 'other-tenant') {
        issues.push({ path, message: `${side} record: cross-tenant references are not allowed` });
      } else if (found === 'missing') {
        issues.push({ path, message: `${side} record does not exist in this tenant` });
      }
    }

    const key = unorderedPairKey(pair);
    const seen = firstRows.get(key) ?? {};
    const sameLabelRow = pair.isMatch ? seen.match : seen.nonMatch;
    const otherLabelRow = pair.isMatch ? seen.nonMatch : seen.match;
    if (sameLabelRow !== undefined) {
      issues.push({ path, message: `duplicate pair: duplicates ${options.rowName(sameLabelRow)}` });
    }
    if (otherLabelRow !== undefined) {
      issues.push({
        path,
        message: `contradictory pair: labelled ${pair.isMatch ? 'match' : 'non-match'} here and ${
          pair.isMatch ? 'non-match' : 'match'
        } at ${options.rowName(otherLabelRow)}`,
      });
    }
    if (sameLabelRow === undefined) {
      firstRows.set(key, pair.isMatch ? { ...seen, match: index } : { ...seen, nonMatch: index });
    }
  });

  const counts = `found ${plural(matches, 'match', 'matches')} and ${plural(nonMatches, 'non-match', 'non-matches')}`;
  if (matches === 0 || nonMatches === 0) {
    issues.push({ path: 'pairs', message: `the dataset must contain both matches and non-matches; ${counts}` });
  }
  if (minimumPerClass > 1 && (matches < minimumPerClass || nonMatches < minimumPerClass)) {
    issues.push({
      path: 'pairs',
      message: `at least ${minimumPerClass} matches and ${minimumPerClass} non-matches are required; ${counts}`,
    });
  }
  return issues;
}
