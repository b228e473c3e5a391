import { readFileSync } from 'node:fs';

/**
 * This process's peak resident set size in KiB, counted from its own program: Linux's VmHWM. `getrusage`'s maxRSS
 * (process.resourceUsage) also counts the parent's memory copied at fork, before the exec that started this program,
 * so a child of a large test or bench process would report its parent's size.
 * Elsewhere (no /proc), maxRSS.
 */
export function peakRssKiB(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match?.[1] !== undefined) return Number(match[1]);
  } catch {
    // No /proc: fall through to getrusage.
  }
  return process.resourceUsage().maxRSS;
}

/** The peak a child started through cli-peak-rss.ts reported, in MiB: the last line of its stderr. */
export function reportedPeakRssMiB(stderr: string): number {
  let maxRssKiB: unknown;
  try {
    ({ maxRssKiB } = JSON.parse(stderr.trim().split('\n').at(-1) ?? '{}') as { maxRssKiB?: unknown });
  } catch {
    // Not the harness's line (the child failed before it): said below, with what it printed.
  }
  if (typeof maxRssKiB !== 'number')
    throw new Error(`the child reported no peak memory on its last line of stderr, which reads:\n${stderr}`);
  return maxRssKiB / 1024;
}
