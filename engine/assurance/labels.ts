import { validationError } from '../contract/errors.ts';
import { MAX_DATASET_PAIRS } from '../contract/assurance.ts';
import { readLabelTsv, type LabelPair } from '../contract/label-tsv.ts';

export type { LabelPair } from '../contract/label-tsv.ts';
export { LABEL_COLUMNS } from '../contract/label-tsv.ts';

/** A source record, addressed by its source system and its identifier in that system. */
export interface RecordRef {
  readonly sourceSystem: string;
  readonly localId: string;
}

/** At most this many pairs per evaluation or calibration dataset (spec "Limits"); the contract's limit. */
export const MAX_LABEL_PAIRS = MAX_DATASET_PAIRS;

/**
 * Parses the portal's tab-separated label input with the rules of engine/contract/label-tsv.ts (the same
 * code the console's preview runs). Every bad row is collected, and then one validation EngineError is
 * thrown listing them all, with paths `line N`, never the cell contents.
 *
 * The pair limit and the other dataset rules are checked by `labelRuleIssues`, not here.
 * `lineNumbers[i]` is the file line of `pairs[i]`.
 */
export function parseLabelsTsv(text: string): { pairs: LabelPair[]; lineNumbers: number[] } {
  const { pairs, lineNumbers, issues } = readLabelTsv(text);
  if (issues.length > 0) {
    const rows = new Set(issues.map((issue) => issue.path)).size;
    throw validationError(`label file has ${String(rows)} invalid ${rows === 1 ? 'row' : 'rows'}`, issues);
  }
  return { pairs, lineNumbers };
}
