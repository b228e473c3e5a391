/**
 * The label preview: the pasted or dropped TSV read with the engine's own code (engine/contract/label-tsv.ts
 * for the rows, label-rules.ts for the dataset rules), so every row error the engine would give about the
 * text itself is listed, with its line and rule, before anything is sent. Whether each record exists in the
 * tenant only the engine can say: it checks again, and its errors are shown the same way.
 */
import type { ErrorIssue } from '../../../engine/contract/errors.ts';
import { labelRuleIssues } from '../../../engine/contract/label-rules.ts';
import { readLabelTsv, type LabelPair } from '../../../engine/contract/label-tsv.ts';

export interface LabelPreview {
  /** The valid rows, in file order, and the file line of each. */
  readonly pairs: readonly LabelPair[];
  readonly lineNumbers: readonly number[];
  /** Non-blank rows other than the header, valid or not. */
  readonly rows: number;
  readonly headerLine: number | null;
  /** Matches and non-matches among the rows without an error (a row with an error counts as neither). */
  readonly matches: number;
  readonly nonMatches: number;
  /** Row errors then dataset errors (path `line N` or `pairs`), never a cell value. */
  readonly issues: readonly ErrorIssue[];
  /** Lines with at least one error. */
  readonly badRows: number;
}

/** Reads the text with the engine's rules; `minimumPerClass` is 10 for calibration, 1 for evaluation. */
export function previewLabels(text: string, minimumPerClass = 1): LabelPreview {
  const read = readLabelTsv(text);
  const lineOf = (index: number): string => `line ${String(read.lineNumbers[index] ?? index + 1)}`;
  // Rows that failed to parse are not in `pairs`, so dataset rules (duplicates, classes) see only good rows,
  // exactly as the engine would once they are fixed.
  const ruleIssues =
    read.pairs.length === 0
      ? []
      : labelRuleIssues(read.pairs, { rowName: lineOf, recordExists: () => true, minimumPerClass });
  const issues = [...read.issues, ...ruleIssues].sort((a, b) => lineNumber(a.path) - lineNumber(b.path));
  const badLines = new Set(
    issues.filter((issue) => issue.path.startsWith('line ')).map((issue) => lineNumber(issue.path)),
  );
  const good = read.pairs.filter((_, i) => !badLines.has(read.lineNumbers[i] ?? i + 1));
  const matches = good.filter((pair) => pair.isMatch).length;
  return {
    pairs: read.pairs,
    lineNumbers: read.lineNumbers,
    rows: read.rows,
    headerLine: read.headerLine,
    matches,
    nonMatches: good.length - matches,
    issues,
    badRows: badLines.size,
  };
}

/** The text without the lines that have an error (the header and every good row kept, in order). */
export function withoutBadRows(text: string, preview: LabelPreview): string {
  const bad = new Set(
    preview.issues.filter((issue) => issue.path.startsWith('line ')).map((issue) => lineNumber(issue.path)),
  );
  const lines = text.split(/\r?\n/);
  return lines.filter((_, i) => !bad.has(i + 1)).join('\n');
}

/** Sorts `line N` issues by N; dataset issues (`pairs`) last. */
function lineNumber(path: string): number {
  const match = /^line (\d+)$/.exec(path);
  return match?.[1] === undefined ? Number.MAX_SAFE_INTEGER : Number(match[1]);
}
