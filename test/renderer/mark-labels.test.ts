/** placeMarkLabels (renderer/pages/assurance/mark-labels.ts): every mark's name inside the plot, none over another. */
import { describe, expect, it } from 'vitest';
import { MARK_CHAR_WIDTH, MARK_GAP, placeMarkLabels, type MarkAt } from '../../renderer/pages/assurance/mark-labels.ts';

/** A name's span in pixels, as the chart draws it. */
function spanOf(mark: MarkAt, side: 'right' | 'left'): [number, number] {
  const width = mark.label.length * MARK_CHAR_WIDTH;
  return side === 'right' ? [mark.at, mark.at + MARK_GAP + width] : [mark.at - MARK_GAP - width, mark.at];
}

describe('placeMarkLabels', () => {
  it('names a mark near the right edge to its left, and one with room to its right', () => {
    const marks = [
      { at: 580, label: 'live Certain' },
      { at: 100, label: 'F1-optimal' },
    ];
    expect(placeMarkLabels(marks, 600)).toEqual([
      { side: 'left', row: 0 },
      { side: 'right', row: 0 },
    ]);
  });

  it('puts the names of marks on one score in rows of their own, and keeps apart marks in one row', () => {
    const marks = [
      { at: 3, label: 'F1-optimal' },
      { at: 3, label: 'best toward precision 0.99' },
      { at: 590, label: 'live Certain' },
    ];
    const places = placeMarkLabels(marks, 600);
    expect(places.map((place) => place.row).sort()).toEqual([0, 0, 1]);
    expect(places[2]).toEqual({ side: 'left', row: 0 });
  });

  it('never lets two names in one row touch, nor any leave the plot when it has room, over many layouts', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const names = ['F1-optimal', 'precision ≥ 0.99', 'live Certain', 'Probable', 'Certain'];
    for (let trial = 0; trial < 500; trial++) {
      const width = 300 + Math.floor(random() * 900);
      const marks = names.slice(0, 1 + Math.floor(random() * names.length)).map((label) => ({
        at: Math.floor(random() * width),
        label,
      }));
      const places = placeMarkLabels(marks, width);
      const spans = marks.map((mark, index) => ({
        row: places[index]?.row,
        span: spanOf(mark, places[index]?.side ?? 'right'),
      }));
      for (const [index, { row, span }] of spans.entries()) {
        const widest = (marks[index]?.label.length ?? 0) * MARK_CHAR_WIDTH + MARK_GAP;
        if (widest <= width / 2) {
          expect(span[0]).toBeGreaterThanOrEqual(0);
          expect(span[1]).toBeLessThanOrEqual(width);
        }
        for (const other of spans.slice(index + 1)) {
          if (other.row !== row) continue;
          expect(span[1] + MARK_GAP <= other.span[0] || other.span[1] + MARK_GAP <= span[0]).toBe(true);
        }
      }
    }
  });
});
