/**
 * The portal's label input (spec "Portal label input (Match assurance page)"): tab-separated rows of five
 * columns leftSource, leftLocalId, rightSource, rightLocalId, isMatch. ONE implementation, shared by the
 * engine (the CLI's label files, engine/assurance/labels.ts) and the console's preview, so the page shows
 * exactly the row errors the engine would give, before anything is sent. Pure and browser-safe.
 *
 * - A UTF-8 byte order mark at the start is dropped; lines end in LF or CRLF.
 * - Lines that are empty or hold only white space are skipped (they keep their numbers).
 * - The first non-blank line is a header, and skipped, when its first cell is `leftSource` and its fifth
 *   `isMatch` (case-insensitive).
 * - Cells are trimmed of surrounding white space. The outcome is `match`/`non-match`, `true`/`false` or
 *   `1`/`0`, case-insensitive.
 * - A bad row (a column count other than five, an empty cell, a control character in a cell, a reference
 *   longer than the contract allows, an unknown outcome spelling) gives one issue per broken rule, path `line N`
 *   (1-based line of the file). Messages name the line and the column, never the cell contents, which may be patient
 *   identifiers.
 *
 * The dataset rules (self-pairs, duplicates, contradictions, classes, the pair limit) are label-rules.ts.
 */
import type { ErrorIssue } from './errors.ts';
import { RecordRefSchema, type RecordRef } from './matching.ts';
import { hasControlCharacter } from './control-characters.ts';

/** A labelled pair of source records (spec "Label pair"): references only, no demographics. */
export interface LabelPair {
  readonly left: RecordRef;
  readonly right: RecordRef;
  readonly isMatch: boolean;
}

/** The five columns of the portal's label input, in order. */
export const LABEL_COLUMNS = ['leftSource', 'leftLocalId', 'rightSource', 'rightLocalId', 'isMatch'] as const;

const OUTCOMES: ReadonlyMap<string, boolean> = new Map([
  ['match', true],
  ['non-match', false],
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);

/** The contract's length limits of each reference column, so the file is checked against them line by line. */
const MAX_LENGTH: ReadonlyMap<string, number> = new Map([
  ['leftSource', RecordRefSchema.shape.sourceSystem.maxLength ?? Infinity],
  ['leftLocalId', RecordRefSchema.shape.localId.maxLength ?? Infinity],
  ['rightSource', RecordRefSchema.shape.sourceSystem.maxLength ?? Infinity],
  ['rightLocalId', RecordRefSchema.shape.localId.maxLength ?? Infinity],
]);

export const OUTCOME_MESSAGE = 'column isMatch: expected match/non-match, true/false or 1/0';

function isHeader(cells: readonly string[]): boolean {
  return cells[0]?.trim().toLowerCase() === 'leftsource' && cells[4]?.trim().toLowerCase() === 'ismatch';
}

export interface LabelTsvRead {
  /** The valid rows, in file order. */
  readonly pairs: LabelPair[];
  /** The file line of pairs[i]. */
  readonly lineNumbers: number[];
  /** Every broken row rule, in line order: path `line N`, never a cell value. */
  readonly issues: ErrorIssue[];
  /** The header's line, or null without one. */
  readonly headerLine: number | null;
  /** Non-blank rows other than the header, valid or not. */
  readonly rows: number;
}

/** Reads the label TSV, collecting every row issue (it never throws). */
export function readLabelTsv(text: string): LabelTsvRead {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = body.split(/\r?\n/);
  const pairs: LabelPair[] = [];
  const lineNumbers: number[] = [];
  const issues: ErrorIssue[] = [];
  let headerLine: number | null = null;
  let seenContent = false;
  let rows = 0;

  lines.forEach((line, index) => {
    const lineNumber = index + 1;
    if (line.trim() === '') return;
    const cells = line.split('\t');
    if (!seenContent) {
      seenContent = true;
      if (isHeader(cells)) {
        headerLine = lineNumber;
        return;
      }
    }
    rows++;
    const path = `line ${String(lineNumber)}`;
    if (cells.length !== LABEL_COLUMNS.length) {
      issues.push({
        path,
        message: `expected ${String(LABEL_COLUMNS.length)} tab-separated columns, found ${String(cells.length)}`,
      });
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
    )
      return;
    pairs.push({
      left: { sourceSystem: leftSource, localId: leftLocalId },
      right: { sourceSystem: rightSource, localId: rightLocalId },
      isMatch,
    });
    lineNumbers.push(lineNumber);
  });
  return { pairs, lineNumbers, issues, headerLine, rows };
}

/**
 * Pairs as label TSV in the dataset digest's form (engine/assurance/dataset-digest.ts): one line per pair,
 * outcomes `1`/`0`, LF-terminated, so `sha256sum` of the text written without a header is the report's
 * dataset digest. With `header`, the column names come first (the engine skips them when reading).
 */
export function labelsToTsv(pairs: readonly LabelPair[], options: { readonly header?: boolean } = {}): string {
  const lines = pairs.map(
    ({ left, right, isMatch }) =>
      `${left.sourceSystem}\t${left.localId}\t${right.sourceSystem}\t${right.localId}\t${isMatch ? '1' : '0'}\n`,
  );
  return (options.header === true ? `${LABEL_COLUMNS.join('\t')}\n` : '') + lines.join('');
}
