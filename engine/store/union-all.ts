/**
 * Statement texts of a UNION ALL of per-key lookups, each with its own inline LIMIT (so one huge block or identity
 * is never read whole), built once per branch count and limit. The same string object then comes back every call,
 * so the statement cache hashes and compares it once instead of a fresh text of a few kilobytes per lookup.
 */
export function unionAllTexts(
  branch: (index: number, limit: number) => string,
): (count: number, limit: number) => string {
  const byLimit = new Map<number, string[]>();
  return (count, limit) => {
    let byCount = byLimit.get(limit);
    if (byCount === undefined) {
      byCount = [];
      byLimit.set(limit, byCount);
    }
    return (byCount[count] ??= Array.from({ length: count }, (_, i) => branch(i, limit)).join(' UNION ALL '));
  };
}
