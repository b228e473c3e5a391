/** `link-quality scan`: flags existing identities that look like wrong links (engine/assurance/link-quality.ts); never unlinks. */
import type { CliContext } from '../context.ts';
import { json, keyValues, table } from '../format.ts';
import { LINK_FLAG_TEXT, LINK_FLAGS } from '../../../engine/contract/link-quality.ts';
import { rateText } from '../../../engine/contract/count-text.ts';

export async function linkQualityScan(cli: CliContext): Promise<number> {
  const report = await cli.longCall('links/scan', {
    maxIdentityRecords: cli.integer('max-records', 20),
    maxListed: cli.integer('limit', 1000),
  });
  if (cli.json) {
    cli.write(json(report));
    return 0;
  }
  cli.write(
    keyValues([
      ['profile version', String(report.matchingProfileVersion)],
      [
        'identities',
        `${String(report.identitiesScanned)} active, ${String(report.identitiesWithSeveralRecords)} with two or more records`,
      ],
      ['pairs scored', String(report.pairsScored)],
      [
        'flagged',
        `${String(report.flagged)}${report.flaggedPerThousand === null ? '' : ` (${rateText(report.flaggedPerThousand)} per 1,000 identities with several records)`}`,
      ],
    ]),
  );
  cli.write(
    '\n' +
      table(
        ['flag', 'identities', 'meaning'],
        LINK_FLAGS.map((f) => [f, String(report.byFlag[f]), LINK_FLAG_TEXT[f]]),
      ),
  );
  if (report.identities.length > 0) {
    cli.write(
      '\nMost doubtful first: one source twice, then more flags, then more groups, then the weakest link lowest.\n' +
        table(
          ['enterprise ID', 'records', 'groups', 'weakest link', 'flags'],
          report.identities.map((i) => [
            i.enterpriseId,
            String(i.records.length),
            String(i.groups),
            i.weakestLink === null ? '—' : i.weakestLink.toFixed(4),
            i.flags.join(', '),
          ]),
        ),
    );
  }
  if (report.notListed > 0)
    cli.write(`\n${String(report.notListed)} more flagged identities are not listed (--limit N lists more).\n`);
  cli.write(
    '\nNothing was unlinked. Review a flagged identity with `mpi-console explain` on its records, and correct links through your governed process.\n',
  );
  return 0;
}
