import { peakRssKiB } from '../helpers/peak-rss.ts';

/** Runs fn repeatedly for at least minMs (after a warm-up) and returns operations per second. */
export function opsPerSecond(fn: () => number, minMs = 400): number {
  fn();
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    ops += fn();
    elapsed = performance.now() - start;
  }
  return (ops * 1000) / elapsed;
}

export function peakRssMiB(): number {
  return peakRssKiB() / 1024;
}

/** The median time of `runs` calls after one call to warm up, in milliseconds (the middle two averaged when even). */
export async function medianMs(fn: () => unknown, runs: number): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  const sorted = times.sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
