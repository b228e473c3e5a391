import type { CliContext } from '../context.ts';
import { eachRecordIdentity } from '../../../engine/index.ts';
import { countText } from '../../../engine/contract/count-text.ts';
import { printableJson } from '../printable.ts';
import { json, tsv, tsvLines } from '../format.ts';

const HEADERS = ['sourceSystem', 'localId', 'enterpriseId'];
/** Records written a page at a time: 50,000 rows are a few megabytes. */
const PAGE = 50_000;

/**
 * Every record with its enterprise ID (TSV, or JSON with --json). Without --limit or --offset the whole registry is
 * written, a page at a time from one snapshot: a registry of millions is never cut short (it stopped at a million rows,
 * saying nothing) nor held whole in memory. With them, that page, and on standard error how many records there are.
 */
export async function identities(cli: CliContext): Promise<number> {
  if (cli.string('limit') !== undefined || cli.string('offset') !== undefined) {
    const result = await cli.engine.call(
      'identities/list',
      { limit: cli.integer('limit', 1_000_000), offset: cli.integer('offset', 0) },
      cli.call,
    );
    if (cli.json) cli.write(json(result));
    else
      cli.write(
        tsv(
          HEADERS,
          result.rows.map((r) => [r.sourceSystem, r.localId, r.enterpriseId]),
        ),
      );
    if (!cli.json && result.rows.length < result.total)
      cli.warn(
        `${countText(result.rows.length)} of ${countText(result.total)} records shown; without --limit and --offset, all of them\n`,
      );
    return 0;
  }
  // The JSON is written as json({ total, rows }) would write it, a page at a time.
  let rows = 0;
  eachRecordIdentity(
    cli.engine.env,
    cli.call,
    (total) => {
      cli.write(cli.json ? `{\n  "total": ${String(total)},\n  "rows": [` : tsvLines([HEADERS]));
    },
    (page) => {
      if (!cli.json) {
        cli.write(tsvLines(page.map((r) => [r.sourceSystem, r.localId, r.enterpriseId])));
        return;
      }
      const text = page
        .map((row, i) => `${rows + i === 0 ? '\n' : ',\n'}${JSON.stringify(row, null, 2).replace(/^/gm, '    ')}`)
        .join('');
      rows += page.length;
      cli.write(printableJson(text));
    },
    PAGE,
  );
  if (cli.json) cli.write(rows === 0 ? ']\n}\n' : '\n  ]\n}\n');
  return 0;
}
