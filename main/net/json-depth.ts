/**
 * How deeply a parsed JSON body nests. No request of the API or the console nests deeper than a profile document
 * (about six levels), while a body nested thousands deep is cheap to send, parses (JSON.parse does not recurse) and
 * then overflows the stack of whatever walks it next: copying it to an engine thread, validating it, logging it.
 * Both servers refuse such a body before anything else sees it. Iterative, so the check cannot overflow itself.
 */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests arrays or objects more than `max` levels deep (a scalar is depth 0, `{}` depth 1). */
export function nestedDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
