/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter", 2015): before
 * retry n (0 for the first) wait a random time in [0, min(cap, base · 2^n)]. Spreading the waits at random keeps
 * many clients that failed together from coming back together.
 */
export function fullJitterBackoff(
  retry: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  return random() * Math.min(capMs, baseMs * 2 ** retry);
}
