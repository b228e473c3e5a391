/**
 * Runs the mpi-console CLI in this process (a real child of the test) and, when it is done, prints the
 * process's peak resident set size as the last line of stderr: `{"maxRssKiB":N}`. Memory-bound tests
 * read it; nothing here measures time.
 */
import { main } from '../../main/cli/main.ts';
import { peakRssKiB } from './peak-rss.ts';

const code = await main(process.argv.slice(2));
process.stderr.write(`\n${JSON.stringify({ maxRssKiB: peakRssKiB() })}\n`);
process.exitCode = code;
