import type { CliContext } from '../context.ts';
import { json, tsv } from '../format.ts';

export async function identities(cli: CliContext): Promise<number> {
  const result = await cli.engine.call(
    'identities/list',
    { limit: cli.integer('limit', 1_000_000), offset: cli.integer('offset', 0) },
    cli.call,
  );
  if (cli.json) cli.write(json(result));
  else
    cli.write(
      tsv(
        ['sourceSystem', 'localId', 'enterpriseId'],
        result.rows.map((r) => [r.sourceSystem, r.localId, r.enterpriseId]),
      ),
    );
  return 0;
}
