import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { reportedPeakRssMiB } from '../../helpers/peak-rss.ts';

const HARNESS = fileURLToPath(new URL('../../helpers/cli-peak-rss.ts', import.meta.url));

describe('the peak memory a CLI child reports (test/helpers/cli-peak-rss.ts)', () => {
  it("is the child's own, not its parent's memory copied at fork", async () => {
    // The test process holds 400 MiB more while it starts the child, as a long-lived vitest worker may.
    const held = Array.from({ length: 40 }, () => Buffer.alloc(10 * 1024 * 1024, 1));
    expect(process.memoryUsage().rss / 1024 / 1024).toBeGreaterThan(400);
    const child = spawn(process.execPath, ['--import', 'tsx', HARNESS, '--help'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await once(child, 'exit');
    const peakMiB = reportedPeakRssMiB(stderr);
    expect(held.length).toBe(40);
    // The CLI with Node, tsx and SQLite loaded peaks at about 135 MiB; getrusage's maxRSS said over 400.
    expect(peakMiB).toBeGreaterThan(20);
    expect(peakMiB).toBeLessThan(300);
  });
});
