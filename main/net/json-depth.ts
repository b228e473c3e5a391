/**
 * How deeply a parsed JSON body nests. No request of the API or the console nests deeper than a profile document
 * (about six levels), while a body nested thousands deep is cheap to send, parses (JSON.parse does not recurse) and
 * then overflows the stack of whatever walks it next: copying it to an engine thread, validating it, logging it.
 * Both servers refuse such a body before anything else sees it. Iterative, so the check cannot overflow itself.
 *
 * It runs on the thread that answers requests, over every body (a 10,000-pair evaluation is 1.4 MiB of JSON), so it
 * keeps two flat stacks and never stacks a scalar: about 1 ms for such a body, where a tuple per value and a copy of
 * every object's values took 7 ms.
 */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests arrays or objects more than `max` levels deep (a scalar is depth 0, `{}` depth 1). */
export function nestedDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  // The containers still to open, and the depth each one is at (`{}` at the top is at depth 1).
  const containers: object[] = [value];
  const depths: number[] = [1];
  for (let item = containers.pop(); item !== undefined; item = containers.pop()) {
    const depth = depths.pop() ?? 0;
    if (depth > max) return true;
    const container = item as Record<string, unknown>;
    // Object.keys, never Object.values: only the child containers are stacked, and no copy of every value is made.
    const keys = Array.isArray(item) ? null : Object.keys(item);
    const count = keys === null ? (item as unknown[]).length : keys.length;
    for (let i = 0; i < count; i++) {
      const child = keys === null ? (item as unknown[])[i] : container[keys[i] ?? ''];
      if (child !== null && typeof child === 'object') {
        containers.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
