import type { CliContext } from '../context.ts';
import { table, json } from '../format.ts';

export async function sandboxInit(cli: CliContext): Promise<number> {
  const result = await cli.creatingEngine.call(
    'sandbox/create',
    { syntheticPeople: cli.integer('synthetic', 0), seed: cli.integer('seed', 1) },
    cli.call,
  );
  if (cli.json) {
    cli.write(json(result));
    return 0;
  }
  cli.write(`Sandbox tenant "${result.tenantId}" created in ${cli.dbPath} (matching profile version ${String(result.matchingProfileVersion)}).\n`);
  if (result.syntheticPeople > 0) {
    cli.write(`Loaded ${String(result.syntheticPeople)} synthetic people as ${String(result.syntheticRecords)} records:\n`);
    cli.write(
      table(
        ['source', 'records', 'auto-linked', 'new identities', 'review cases', 'rejected'],
        result.ingest.map((r) => [r.sourceSystem, String(r.created), String(r.autoLinked), String(r.newIdentities), String(r.reviewCasesCreated), String(r.rejected.length)]),
      ),
    );
  }
  return 0;
}
