import type { Rng } from './prng.ts';

/**
 * Fisher–Yates shuffle in place, then a left-to-right repair so that no two neighbours share a
 * group (here: records of one person), because a matcher must not be able to lean on input order.
 * A conflict at i is fixed by swapping in a later element of another group (usually the next one
 * that fits), or failing that an earlier one whose move breaks nothing. When no arrangement exists
 * (one group holds more than half the items) some neighbours stay together.
 */
export function shuffleApart<T>(items: T[], groupOf: (item: T) => number, rng: Rng): void {
  for (let i = items.length - 1; i > 0; i--) swap(items, i, rng.int(i + 1));

  const group = (i: number): number => {
    const item = items[i];
    return item === undefined ? -1 : groupOf(item);
  };
  for (let i = 1; i < items.length; i++) {
    const left = group(i - 1);
    if (group(i) !== left) continue;
    let j = i + 1;
    while (j < items.length && group(j) === left) j++;
    if (j < items.length) {
      swap(items, i, j);
      continue;
    }
    // Only the tail is left, all of the same group: move it into an earlier gap.
    const mine = group(i);
    const right = group(i + 1);
    for (let k = 0; k < i - 1; k++) {
      const theirs = group(k);
      if (theirs === left || theirs === right) continue;
      if (group(k - 1) === mine || group(k + 1) === mine) continue;
      swap(items, i, k);
      break;
    }
  }
}

function swap(items: unknown[], a: number, b: number): void {
  const first = items[a];
  const second = items[b];
  if (first === undefined || second === undefined) return;
  items[a] = second;
  items[b] = first;
}
