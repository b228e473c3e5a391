import { createHash } from 'node:crypto';
import type { LabelPair } from './labels.ts';

/**
 * The key a pair is ordered by within its class: the SHA-256 hex digest of the UTF-8 string
 * `${left.sourceSystem}\t${left.localId}\t${right.sourceSystem}\t${right.localId}` (the
 * dataset-digest line without the label and without the line end).
 */
export function splitKey(pair: LabelPair): string {
  const { left, right } = pair;
  return createHash('sha256')
    .update(`${left.sourceSystem}\t${left.localId}\t${right.sourceSystem}\t${right.localId}`, 'utf8')
    .digest('hex');
}

/**
 * Deterministic stratified hold-out split (spec "Calibration behaviour" 1: each label class is
 * split deterministically and separately into training and validation sets).
 *
 * Within each class (matches, non-matches) the pairs are ordered by `splitKey` — a hash, so the
 * order is unrelated to the input order or to any identifier's meaning — and the first
 * Math.round(n_class × validationFraction) go to validation, the rest to training. The same pairs
 * therefore give the same split in any input order. Each output lists the matches then the
 * non-matches, each in `splitKey` order (pairs with equal keys are identical, so the outputs do not
 * depend on the input order at all).
 *
 * Throws a RangeError unless validationFraction is in [0, 1). Note that rounding can still leave a
 * class with no training pairs when it is very small (e.g. one pair and a fraction >= 0.5).
 */
export function splitByClass(
  pairs: readonly LabelPair[],
  validationFraction: number,
): { training: LabelPair[]; validation: LabelPair[] } {
  if (!(validationFraction >= 0 && validationFraction < 1)) {
    throw new RangeError('validationFraction must be a number in [0, 1)');
  }
  const training: LabelPair[] = [];
  const validation: LabelPair[] = [];
  for (const isMatch of [true, false]) {
    const ordered = pairs
      .filter((pair) => pair.isMatch === isMatch)
      .map((pair) => ({ pair, key: splitKey(pair) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ pair }) => pair);
    const held = Math.round(ordered.length * validationFraction);
    validation.push(...ordered.slice(0, held));
    training.push(...ordered.slice(held));
  }
  return { training, validation };
}
