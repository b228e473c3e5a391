/**
 * The label dataset rules shared by evaluation and calibration (spec Endpoints, rules 3 and 4). ONE
 * implementation: the engine checks every dataset with it, and the console's label preview runs it too
 * (without the record look-up), so the page shows the engine's own row errors before anything is sent.
 */
import type { ErrorIssue } from './errors.ts';
import { MAX_DATASET_PAIRS as MAX_LABEL_PAIRS } from './assurance.ts';
import { hasControlCharacter } from './control-characters.ts';
import { countOfText } from './count-text.ts';
import type { RecordRef } from './matching.ts';
import type { LabelPair } from './label-tsv.ts';

export interface LabelRuleOptions {
  /** Names row `index` in issue paths and messages: `line 12` for TSV input, `pairs[3]` for API input. */
  readonly rowName: (index: number) => string;
  /** Whether the record exists in the requesting tenant's registry (another tenant's record does not). */
  readonly recordExists: (ref: RecordRef) => boolean;
  /** Least number of matches and of non-matches: 10 for calibration, 1 (the default) for evaluation. */
  readonly minimumPerClass?: number;
  /**
   * The caller's numbering of distinct references (0, 1, 2… below 2^21), when it has one already: equal
   * references must get equal numbers and different ones different numbers. Without it, references are
   * numbered here.
   */
  readonly refId?: (ref: RecordRef) => number;
}

const SIDES = ['left', 'right'] as const;
const FIELDS = ['sourceSystem', 'localId'] as const;

/**
 * Interns record references as small integers (source system, then local identifier), numbered 0, 1, 2… in
 * first-seen order, so that pair keys are numbers: a dataset of 10,000 pairs builds no key strings. `refs[id]` is
 * the reference numbered id (evaluation looks the distinct references up by it).
 */
export class RefInterner {
  private readonly bySource = new Map<string, Map<string, number>>();
  readonly refs: RecordRef[] = [];

  idOf(ref: RecordRef): number {
    let byLocal = this.bySource.get(ref.sourceSystem);
    if (byLocal === undefined) {
      byLocal = new Map();
      this.bySource.set(ref.sourceSystem, byLocal);
    }
    let id = byLocal.get(ref.localId);
    if (id === undefined) {
      id = this.refs.length;
      this.refs.push(ref);
      byLocal.set(ref.localId, id);
    }
    return id;
  }
}

/** A key for the unordered pair of two interned references: a pair and its mirror share it. */
function unorderedPairKey(a: number, b: number): number {
  // At most 2 × MAX_LABEL_PAIRS references exist, so both ids fit in 21 bits and the key is exact.
  return a <= b ? a * 2_097_152 + b : b * 2_097_152 + a;
}

/**
 * The label dataset rules shared by evaluation and calibration (spec Endpoints, rules 3 and 4),
 * checked before any work is done. Returns every broken rule — per-row issues in row order, then
 * dataset-level ones (path `pairs`) — or an empty list when the dataset is acceptable. Issues
 * name the row and the rule, never a patient value or a tenant.
 *
 * Per row: an empty or control-character reference field; a self-pair (left and right the same
 * record); a record missing from the tenant, which is also how a cross-tenant reference shows (the
 * message is the same, so it reveals nothing of other tenants); a duplicate (the same unordered pair — a pair and its
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
  const interner = new RefInterner();
  const idOf = options.refId ?? ((ref: RecordRef): number => interner.idOf(ref));
  const existence = new Map<number, boolean>();
  const exists = (ref: RecordRef): boolean => {
    const key = idOf(ref);
    let found = existence.get(key);
    if (found === undefined) {
      found = options.recordExists(ref);
      existence.set(key, found);
    }
    return found;
  };
  /** For each unordered pair, the first row seen with each label. */
  const firstMatchRow = new Map<number, number>();
  const firstNonMatchRow = new Map<number, number>();
  let matches = 0;
  let nonMatches = 0;

  pairs.forEach((pair, index) => {
    // Row names are built only for rows with an issue: a clean dataset of 10,000 rows builds none.
    const add = (message: string): void => {
      issues.push({ path: options.rowName(index), message });
    };
    if (pair.isMatch) matches += 1;
    else nonMatches += 1;

    let leftWellFormed = true;
    let rightWellFormed = true;
    for (const side of SIDES) {
      for (const field of FIELDS) {
        const value = pair[side][field];
        const problem =
          value === '' ? 'is empty' : hasControlCharacter(value) ? 'contains a control character' : undefined;
        if (problem === undefined) continue;
        add(`${side}.${field} ${problem}`);
        if (side === 'left') leftWellFormed = false;
        else rightWellFormed = false;
      }
    }
    const wellFormed = { left: leftWellFormed, right: rightWellFormed };

    const leftId = idOf(pair.left);
    const rightId = idOf(pair.right);
    const selfPair = leftId === rightId;
    if (selfPair) {
      add('self-pair: left and right are the same record');
    }

    for (const side of SIDES) {
      if (!wellFormed[side] || (selfPair && side === 'right')) continue;
      // One message for a missing record and another tenant's record: telling them apart would let a caller
      // probe which records other tenants hold. Either way the reference is rejected.
      if (!exists(pair[side]))
        add(`${side} record does not exist in this tenant (labels may refer only to this tenant's records)`);
    }

    const key = unorderedPairKey(leftId, rightId);
    const sameLabelRows = pair.isMatch ? firstMatchRow : firstNonMatchRow;
    const sameLabelRow = sameLabelRows.get(key);
    const otherLabelRow = (pair.isMatch ? firstNonMatchRow : firstMatchRow).get(key);
    if (sameLabelRow !== undefined) {
      add(`duplicate pair: duplicates ${options.rowName(sameLabelRow)}`);
    }
    if (otherLabelRow !== undefined) {
      add(
        `contradictory pair: labelled ${pair.isMatch ? 'match' : 'non-match'} here and ${pair.isMatch ? 'non-match' : 'match'} at ${options.rowName(otherLabelRow)}`,
      );
    }
    if (sameLabelRow === undefined) sameLabelRows.set(key, index);
  });

  const counts = `found ${countOfText(matches, 'match', 'matches')} and ${countOfText(nonMatches, 'non-match', 'non-matches')}`;
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
