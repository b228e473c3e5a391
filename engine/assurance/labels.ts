import { validationError } from '../contract/errors.ts';
import type { ErrorIssue } from '../contract/errors.ts';
import { MAX_DATASET_PAIRS } from '../contract/assurance.ts';
import { readLabelTsv, type LabelPair } from '../contract/label-tsv.ts';
import { countText } from '../contract/count-text.ts';

export type { LabelPair } from '../contract/label-tsv.ts';
export { LABEL_COLUMNS } from '../contract/label-tsv.ts';

/** A source record, addressed by its source system and its identifier in that system. */
export interface RecordRef {
  readonly sourceSystem: string;
  readonly localId: string;
}

/** At most this many pairs per evaluation or calibration dataset (spec "Limits"); the contract's limit. */
export const MAX_LABEL_PAIRS = MAX_DATASET_PAIRS;

/** The TSV column of a request path below `pairs[i]`. */
const COLUMN_OF_FIELD: ReadonlyMap<string, string> = new Map([
  ['left.sourceSystem', 'leftSource'],
  ['left.localId', 'leftLocalId'],
  ['right.sourceSystem', 'rightSource'],
  ['right.localId', 'rightLocalId'],
  ['isMatch', 'isMatch'],
]);

/**
 * Issues whose path is `pairs[i]…` renamed to the caller's row, `line N`, with the TSV column in the message,
 * when the request numbered its rows (a label file); other issues are returned as they are.
 */
export function nameRowsByLine(issues: readonly ErrorIssue[], rowNumbers: unknown): ErrorIssue[] {
  if (!Array.isArray(rowNumbers)) return [...issues];
  return issues.map((issue) => {
    const match = /^pairs\[(\d+)\](?:\.(.+))?$/.exec(issue.path);
    const line: unknown = match === null ? undefined : rowNumbers[Number(match[1])];
    if (match === null || !Number.isSafeInteger(line)) return issue;
    const field = match[2];
    const column = field === undefined ? undefined : (COLUMN_OF_FIELD.get(field) ?? field);
    return {
      path: `line ${String(line)}`,
      message: column === undefined ? issue.message : `column ${column}: ${issue.message}`,
    };
  });
}

/**
 * Parses the portal's tab-separated label input with the rules of engine/contract/label-tsv.ts (the same
 * code the console's preview runs). Every bad row is collected, and then one validation EngineError is
 * thrown listing them all, with paths `line N`, never the cell contents.
 *
 * A file of more pairs than a dataset may hold is refused as such, before its rows are looked at. The other
 * dataset rules are checked by `labelRuleIssues`, not here.
 * `lineNumbers[i]` is the file line of `pairs[i]`.
 */
export function parseLabelsTsv(text: string): { pairs: LabelPair[]; lineNumbers: number[] } {
  const { pairs, lineNumbers, issues, rows } = readLabelTsv(text);
  if (rows > MAX_DATASET_PAIRS) {
    const count = countText(rows);
    const max = countText(MAX_DATASET_PAIRS);
    throw validationError(
      `the label file has ${count} pairs; at most ${max} are accepted in one dataset: split it into files of at most ${max} pairs`,
      [{ path: 'label file', message: `${count} pairs; at most ${max}` }],
    );
  }
  if (issues.length > 0) {
    const rows = new Set(issues.map((issue) => issue.path)).size;
    throw validationError(`label file has ${String(rows)} invalid ${rows === 1 ? 'row' : 'rows'}`, issues);
  }
  return { pairs, lineNumbers };
}
