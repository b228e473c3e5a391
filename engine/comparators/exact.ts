/**
 * Exact comparator: the identity predicate on already-normalised values (spec "Comparator profile",
 * comparator `Exact`). Normalisation happens upstream, so equality here is plain code-unit equality.
 */
export function exact(a: string, b: string): number {
  return a === b ? 1 : 0;
}
