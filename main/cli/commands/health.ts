/** `health [--source S] [--json]`: health figures over time and the drift flags on the latest (engine/assurance/health-drift.ts). */
import type { CliContext } from '../context.ts';
import { json, table } from '../format.ts';

const share = (x: number, n: number): string => (n === 0 ? '—' : (x / n).toFixed(3));

export async function health(cli: CliContext): Promise<number> {
  const source = cli.string('source');
  const result = await cli.client.call('health/series', { limit: cli.integer('limit', 500), ...(source === undefined ? {} : { sourceSystem: source }) }, cli.call);
  if (cli.json) {
    cli.write(json(result));
    return 0;
  }
  cli.write(
    table(
      ['at', 'what', 'profile', 'records', 'created', 'auto-link rate', 'review cases / 1,000', 'birth dates', 'duration'],
      result.samples.map((s) => [
        s.at,
        s.origin === 'ingest' ? `ingest ${s.sourceSystem ?? ''}` : `${s.jobKind ?? 'job'} ${s.jobStatus ?? ''}`,
        s.profileVersion === null ? '—' : `v${String(s.profileVersion)}`,
        String(s.records),
        String(s.created),
        share(s.autoLinked, s.created),
        s.created === 0 ? '—' : ((1000 * s.reviewCases) / s.created).toFixed(1),
        s.origin === 'ingest' ? share(s.fieldPresent['birthDate'] ?? 0, s.created) : '—',
        `${(s.durationMs / 1000).toFixed(1)} s`,
      ]),
    ),
  );
  if (result.flags.length === 0) cli.write('\nNo drift flagged on the latest figures.\n');
  else cli.write(`\nFlagged:\n${result.flags.map((f) => `  ${f.text}`).join('\n')}\n`);
  cli.write(`\n${result.rule}\n`);
  return result.flags.length === 0 ? 0 : 1;
}
