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
  return process.resourceUsage().maxRSS / 1024;
}
