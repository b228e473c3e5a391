/**
 * mpi-console: the command line over the local engine. Every command takes --db FILE and --tenant ID,
 * prints a table (TSV for listings) by default and JSON with --json, and exits non-zero with a clear
 * message on error: 1 for an engine error or rejected input, 2 for a usage error.
 */
import { parseArgs } from 'node:util';
import { CliContext, UsageError, asEngineError } from './context.ts';
import { sandboxInit } from './commands/sandbox.ts';
import { ingest } from './commands/ingest.ts';
import { compare } from './commands/compare.ts';
import { explain } from './commands/explain.ts';
import { identities, reviews } from './commands/lists.ts';
import { profile } from './commands/profile.ts';
import { syntheticGenerate } from './commands/synthetic.ts';

const HELP = `mpi-console — master patient index engine (local SQLite sandbox)

Usage: mpi-console <command> [options]   (global: --db FILE, --tenant ID, --config FILE, --json)

  sandbox init [--synthetic N] [--seed S]      create a sandbox tenant (and load N synthetic people)
  ingest --source SYSTEM --ndjson FILE         ingest R4 Patients (FHIR NDJSON), report rejected lines
  compare --comparator NAME A B                similarity of two strings under one comparator
  explain --left SYSTEM/ID --right SYSTEM/ID   field evidence, bands and score for two source records
  identities                                   TSV: source system, local identifier, enterprise ID
  reviews [--status open|resolved|dismissed]   TSV of review cases
  profile show | validate FILE | apply FILE    the active matching profile; validate; apply as a new version
  synthetic generate --people N --seed S --out DIR   write synthetic NDJSON per source and labels.tsv

Defaults: --db mpi-sandbox.db (or $MPI_DB), --tenant demo (or $MPI_TENANT),
--config <db without extension>.config.json (holds the HMAC blocking secrets; never in the database).
`;

const OPTIONS = {
  db: { type: 'string' },
  tenant: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  synthetic: { type: 'string' },
  seed: { type: 'string' },
  source: { type: 'string' },
  ndjson: { type: 'string' },
  comparator: { type: 'string' },
  left: { type: 'string' },
  right: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  offset: { type: 'string' },
  reason: { type: 'string' },
  people: { type: 'string' },
  out: { type: 'string' },
} as const;

type Command = (cli: CliContext) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  'sandbox init': sandboxInit,
  ingest,
  compare,
  explain,
  identities,
  reviews,
  profile,
  'synthetic generate': syntheticGenerate,
};

function resolve(positionals: readonly string[]): { command: Command; rest: string[] } | undefined {
  const [first, second, ...others] = positionals;
  if (first === undefined) return undefined;
  const two = second === undefined ? undefined : COMMANDS[`${first} ${second}`];
  if (two !== undefined) return { command: two, rest: others };
  const one = COMMANDS[first];
  return one === undefined ? undefined : { command: one, rest: positionals.slice(1) };
}

export async function main(argv: readonly string[], write: (text: string) => void = (t) => process.stdout.write(t), writeError: (text: string) => void = (t) => process.stderr.write(t)): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    writeError(`mpi-console: ${error instanceof Error ? error.message : 'invalid arguments'}\n\n${HELP}`);
    return 2;
  }
  if (parsed.values.help === true || parsed.positionals.length === 0) {
    write(HELP);
    return parsed.values.help === true ? 0 : 2;
  }
  const resolved = resolve(parsed.positionals);
  if (resolved === undefined) {
    writeError(`mpi-console: unknown command "${parsed.positionals.join(' ')}"\n\n${HELP}`);
    return 2;
  }
  const cli = new CliContext(parsed.values, resolved.rest, write);
  try {
    return await resolved.command(cli);
  } catch (error) {
    if (error instanceof UsageError) {
      writeError(`mpi-console: ${error.message}\n`);
      return 2;
    }
    const engineError = asEngineError(error);
    if (engineError !== undefined) {
      if (cli.json) writeError(JSON.stringify(engineError.toData(), null, 2) + '\n');
      else {
        writeError(`mpi-console: ${engineError.kind.replace('_', ' ')} error: ${engineError.message}\n`);
        for (const issue of engineError.issues) writeError(`  ${issue.path}: ${issue.message}\n`);
      }
      return 1;
    }
    writeError(`mpi-console: unexpected failure (${error instanceof Error ? error.name : 'error'}); no patient data is shown\n`);
    return 1;
  } finally {
    cli.close();
  }
}
