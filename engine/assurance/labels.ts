import { validationError } from '../contract/errors.ts';
import type { ErrorIssue } from '../contract/errors.ts';
import { MAX_DATASET_PAIRS } from '../contract/assurance.ts';
import { RecordRefSchema } from '../contract/matching.ts';
import { hasControlCharacter } from '../normalise/control-characters.ts';

/** A source record, addressed by its source system and its identifier in that system. */
export interface RecordRef {
  readonly sourceSystem: string;
  readonly localId: string;
}

/** A labelled pair of source records (spec "Label pair"): no demographics, only references. */
export interface LabelPair {
  readonly left: RecordRef;
  readonly right: RecordRef;
  readonly isMatch: boolean;
}

/** At most this many pairs per evaluation or calibration dataset (spec "Limits"); the contract's limit. */
export const MAX_LABEL_PAIRS = MAX_DATASET_PAIRS;

/** The five columns of the portal's label input, in order (spec "Portal label input"). */
export const LABEL_COLUMNS = ['leftSource', 'leftLocalId', 'rightSource', 'rightLocalId', 'isMatch'] as const;

const OUTCOMES: ReadonlyMap<string, boolean> = new Map([
  ['match', true],
  ['non-match', false],
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);

const OUTCOME_MESSAGE = 'column isMatch: expected match/non-match, true/false or 1/0';

/** The contract's length limits of each reference column, so the file is checked against them line by line. */
const MAX_LENGTH: ReadonlyMap<string, number> = new Map([
  ['leftSource', RecordRefSchema.shape.sourceSystem.maxLength ?? Infinity],
  ['leftLocalId', RecordRefSchema.shape.localId.maxLength ?? Infinity],
  ['rightSource', RecordRefSchema.shape.sourceSystem.maxLength ?? Infinity],
  ['rightLocalId', RecordRefSchema.shape.localId.maxLength ?? Infinity],
]);

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
    return { path: `line ${String(line)}`, message: column === undefined ? issue.message : `column ${column}: ${issue.message}` };
  });
}

function isHeader(cells: readonly string[]): boolean {
  return (
    cells[0]?.trim().toLowerCase() === 'leftsource' && cells[4]?.trim().toLowerCase() === 'ismatch'
  );
}

/**
 * Parses the portal's tab-separated label input (spec "Portal label input"): five columns
 * leftSource, leftLocalId, rightSource, rightLocalId, isMatch.
 *
 * - A UTF-8 byte order mark at the start is dropped; lines end in LF or CRLF.
 * - Lines that are empty or hold only white space are skipped.
 * - The first non-blank line is a header, and skipped, when its first cell is `leftSource` and its
 *   fifth `isMatch` (case-insensitive).
 * - Cells are trimmed of surrounding white space. The outcome is `match`/`non-match`,
 *   `true`/`false` or `1`/`0`, case-insensitive.
 *
 * Every bad row (a column count other than five, an empty cell, a control character in a cell, a
 * reference longer than the contract allows, an unknown outcome spelling) is collected, and then one validation EngineError is thrown listing
 * them all, with paths `line N` (1-based line of the file). Messages name the line and the column,
 * never the cell contents, which may be patient identifiers.
 *
 * The pair limit and the other dataset rules are checked by `labelRuleIssues`, not here.
 * `lineNumbers[i]` is the file line of `pairs[i]`.
 */
export function parseLabelsTsv(text: string): { pairs: LabelPair[]; lineNumbers: number[] } {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = body.split(/\r?\n/);
  const pairs: LabelPair[] = [];
  const lineNumbers: number[] = [];
  const issues: ErrorIssue[] = [];
  let seenContent = false;

  lines.forEach((line, index) => {
    const lineNumber = index + 1;
    if (line.trim() === '') return;
    const cells = line.split('\t');
    if (!seenContent) {
      seenContent = true;
      if (isHeader(cells)) return;
    }
    const path = `line ${lineNumber}`;
    if (cells.length !== LABEL_COLUMNS.length) {
      issues.push({ path, message: `expected ${LABEL_COLUMNS.length} tab-separated columns, found ${cells.length}` });
      return;
    }
    const values: string[] = [];
    let rowIsValid = true;
    for (const [columnIndex, column] of LABEL_COLUMNS.entries()) {
      const raw = cells[columnIndex] ?? '';
      const value = raw.trim();
      values.push(value);
      if (hasControlCharacter(raw)) {
        issues.push({ path, message: `column ${column}: contains a control character` });
        rowIsValid = false;
      } else if (value === '') {
        issues.push({ path, message: `column ${column}: empty` });
        rowIsValid = false;
      } else if (value.length > (MAX_LENGTH.get(column) ?? Infinity)) {
        issues.push({ path, message: `column ${column}: longer than ${String(MAX_LENGTH.get(column))} characters` });
        rowIsValid = false;
      } else if (column === 'isMatch' && !OUTCOMES.has(value.toLowerCase())) {
        issues.push({ path, message: OUTCOME_MESSAGE });
        rowIsValid = false;
      }
    }
    const [leftSource, leftLocalId, rightSource, rightLocalId, outcome] = values;
    const isMatch = outcome === undefined ? undefined : OUTCOMES.get(outcome.toLowerCase());
    if (
      !rowIsValid ||
      leftSource === undefined ||
      leftLocalId === undefined ||
      rightSource === undefined ||
      rightLocalId === undefined ||
      isMatch === undefined
    ) {
      return;
    }
    pairs.push({
      left: { sourceSystem: leftSource, localId: leftLocalId },
      right: { sourceSystem: rightSource, localId: rightLocalId },
      isMatch,
    });
    lineNumbers.push(lineNumber);
  });

  if (issues.length > 0) {
    const rows = new Set(issues.map((issue) => issue.path)).size;
    throw validationError(`label file has ${rows} invalid ${rows === 1 ? 'row' : 'rows'}`, issues);
  }
  return { pairs, lineNumbers };
}
