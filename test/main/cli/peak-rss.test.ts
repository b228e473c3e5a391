import { describe, expect, it } from 'vitest';
import { runProcessWithPeakRss } from '../../helpers/processes.ts';

describe('the peak memory a CLI child reports (test/helpers/cli-peak-rss.ts)', () => {
  it("is the child's own, not its parent's memory copied at fork", async () => {
    // The test process holds 400 MiB more while it starts the child, as a long-lived vitest worker may.
    const held = Array.from({ length: 40 }, () => Buffer.alloc(10 * 1024 * 1024, 1));
    expect(process.memoryUsage().rss / 1024 / 1024).toBeGreaterThan(400);
    const { peakRssMiB } = await runProcessWithPeakRss(['--help']);
    expect(held.length).toBe(40);
    // The CLI with Node, tsx and SQLite loaded peaks at about 135 MiB; getrusage's maxRSS said over 400.
    expect(peakRssMiB).toBeGreaterThan(20);
    expect(peakRssMiB).toBeLessThan(300);
  });
});
