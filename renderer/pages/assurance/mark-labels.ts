/**
 * Where each reference mark's name goes on the threshold chart: beside its line, on the side where it stays inside the
 * plot (a mark near 1, "live Certain" at 0.999, is named to its left), and one row lower than a name it would
 * otherwise cover (the F1-optimal threshold and the precision target often fall on one score). Pure, in pixels along
 * the plot, so it can be checked without a chart.
 */

/** A name's width per character at the chart's 11 px labels, on the generous side so two names never touch. */
export const MARK_CHAR_WIDTH = 6.5;
/** The gap between a line and its name, and between two names in a row. */
export const MARK_GAP = 5;

export interface MarkPlace {
  /** Which side of its line the name is on. */
  readonly side: 'right' | 'left';
  /** 0 for the top row; each row is one line of text lower. */
  readonly row: number;
}

export interface MarkAt {
  /** The line's place, in pixels from the plot's left edge. */
  readonly at: number;
  readonly label: string;
}

/** Each mark's place, in the order given. */
export function placeMarkLabels(marks: readonly MarkAt[], plotWidth: number): MarkPlace[] {
  const order = marks.map((_, index) => index).sort((a, b) => (marks[a]?.at ?? 0) - (marks[b]?.at ?? 0));
  const rows: Array<Array<readonly [number, number]>> = [];
  const places: MarkPlace[] = new Array<MarkPlace>(marks.length);
  for (const index of order) {
    const mark = marks[index];
    if (mark === undefined) continue;
    const width = mark.label.length * MARK_CHAR_WIDTH;
    const roomRight = plotWidth - mark.at - MARK_GAP;
    const side = roomRight >= width || roomRight >= mark.at - MARK_GAP ? 'right' : 'left';
    const span: readonly [number, number] =
      side === 'right' ? [mark.at, mark.at + MARK_GAP + width] : [mark.at - MARK_GAP - width, mark.at];
    let row = rows.findIndex((taken) =>
      taken.every(([from, to]) => span[1] + MARK_GAP <= from || span[0] >= to + MARK_GAP),
    );
    if (row === -1) {
      row = rows.length;
      rows.push([]);
    }
    rows[row]?.push(span);
    places[index] = { side, row };
  }
  return places;
}
