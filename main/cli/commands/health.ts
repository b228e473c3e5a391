/** `health [--source S] [--json]`: health figures over time and the drift flags on the latest (engine/assurance/health-drift.ts). */
import type { CliContext } from '../context.ts';
import { json, table } from '../format.ts';
import {
  latestIngestOpenedAfter,
  reviewHoldsText,
  type DriftFlag,
  type HealthSample,
} from '../../../engine/contract/health.ts';
import { countText } from '../../../engine/contract/count-text.ts';

const share = (x: number, n: number): string => (n === 0 ? '—' : (x / n).toFixed(3));

function what(s: HealthSample): string {
  if (s.origin === 'ingest') return `ingest ${s.sourceSystem ?? ''}`;
  if (s.origin === 'daily') return 'daily';
  return `${s.jobKind ?? 'job'} ${s.jobStatus ?? ''}`;
}

/** Ingests: compared pairs per record and the share scored 0.5 or above; snapshots: identities and those of 5+ records. */
function matched(s: HealthSample): string {
  if (s.matching !== null) {
    const high = s.matching.scoreBands.slice(4).reduce((a, b) => a + b, 0);
    return `${s.created === 0 ? '—' : (s.matching.comparedPairs / s.created).toFixed(1)} pairs/record, ${share(high, s.matching.comparedPairs)} ≥ 0.5, ${String(s.matching.capped)} capped`;
  }
  if (s.identitySizes !== null) {
    const all = s.identitySizes.reduce((a, b) => a + b, 0);
    return `${countText(all)} identities, ${countText((s.identitySizes[4] ?? 0) + (s.identitySizes[5] ?? 0))} of 5+ records`;
  }
  return '—';
}

/**
 * A flag, what to do about it, and for a source's review rate the command that lists the cases its latest ingest
 * opened (those of the source opened after its ingest before ended; every case of the source when the figures hold
 * one ingest of it).
 */
function flagText(flag: DriftFlag, samples: readonly HealthSample[]): string {
  const lines = [`  ${flag.text}`, ...(flag.advice === undefined ? [] : [`    what to do: ${flag.advice}`])];
  if (flag.metric === 'review-rate' && flag.sourceSystem !== null) {
    const after = latestIngestOpenedAfter(samples, flag.sourceSystem);
    lines.push(
      `    its cases: mpi-console reviews --kind IngestionMatch --source ${flag.sourceSystem}${after === null ? '' : ` --opened-after ${after}`} --sort newest`,
    );
  }
  return lines.join('\n');
}

export async function health(cli: CliContext): Promise<number> {
  const source = cli.string('source');
  const result = await cli.client.call(
    'health/series',
    { limit: cli.integer('limit', 500), ...(source === undefined ? {} : { sourceSystem: source }) },
    cli.call,
  );
  if (cli.json) {
    cli.write(json(result));
    return 0;
  }
  cli.write(
    table(
      [
        'at',
        'what',
        'profile',
        'records',
        'created',
        'auto-link rate',
        'review cases / 1,000',
        'held by',
        'birth dates',
        'matching / identities',
        'duration',
      ],
      result.samples.map((s) => [
        s.at,
        what(s),
        s.profileVersion === null ? '—' : `v${String(s.profileVersion)}`,
        String(s.records),
        String(s.created),
        share(s.autoLinked, s.created),
        s.created === 0 ? '—' : ((1000 * s.reviewCases) / s.created).toFixed(1),
        reviewHoldsText(s.reviewHolds),
        s.origin === 'ingest' ? share(s.fieldPresent['birthDate'] ?? 0, s.created) : '—',
        matched(s),
        `${(s.durationMs / 1000).toFixed(1)} s`,
      ]),
    ),
  );
  if (result.flags.length === 0) cli.write('\nNo drift flagged on the latest figures.\n');
  else cli.write(`\nFlagged:\n${result.flags.map((f) => flagText(f, result.samples)).join('\n')}\n`);
  cli.write(`\n${result.rule}\n`);
  return result.flags.length === 0 ? 0 : 1;
}
