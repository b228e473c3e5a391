import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { COMPARATOR_NAMES, type ComparatorName } from '../../../engine/contract/fields.ts';
import { json, keyValues } from '../format.ts';

export async function compare(cli: CliContext): Promise<number> {
  const comparator = cli.required('comparator');
  if (!(COMPARATOR_NAMES as readonly string[]).includes(comparator)) {
    throw usage(`unknown comparator ${JSON.stringify(comparator)}; supported: ${COMPARATOR_NAMES.join(', ')}`);
  }
  const [left, right] = cli.positionals;
  if (left === undefined || right === undefined || cli.positionals.length !== 2)
    throw usage('compare takes exactly two strings: compare --comparator NAME A B');
  const result = await cli.engine.call(
    'comparators/compare',
    { comparator: comparator as ComparatorName, left, right },
    cli.call,
  );
  if (cli.json) cli.write(json(result));
  else {
    const rows: [string, string][] = [
      ['comparator', result.comparator],
      ['comparator version', result.comparatorVersion],
      ['similarity', result.similarity.toFixed(6)],
      ['band', result.band],
    ];
    if (result.culture !== undefined) rows.push(['culture', result.culture]);
    if (result.dictionaryVersion !== undefined) rows.push(['dictionary version', result.dictionaryVersion]);
    cli.write(keyValues(rows));
  }
  return 0;
}
