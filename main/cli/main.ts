/**
 * mpi-console: the command line over the local engine. Every command takes --db FILE and --tenant ID,
 * prints a table (TSV for listings) by default and JSON with --json, and exits non-zero with a clear
 * message on error: 1 for an engine error or rejected input, 2 for a usage error.
 */
import { parseArgs } from 'node:util';
import { argumentProblem } from './argument-errors.ts';
import { CliContext, UsageError, asEngineError } from './context.ts';
import { printable, printableJson } from './printable.ts';
import { storeFailure, unexpectedTrace } from '../../engine/index.ts';
import { sandboxInit } from './commands/sandbox.ts';
import { ingest } from './commands/ingest.ts';
import { compare } from './commands/compare.ts';
import { explain } from './commands/explain.ts';
import { identities } from './commands/lists.ts';
import { reviewDecide, reviewHolds, reviewLabels, reviews, reviewShow } from './commands/reviews.ts';
import { linkQualityScan } from './commands/link-quality.ts';
import { identityFind, identityShow } from './commands/identity.ts';
import { auditEstimate, auditSample } from './commands/audit.ts';
import { health } from './commands/health.ts';
import { profile } from './commands/profile.ts';
import { syntheticGenerate } from './commands/synthetic.ts';
import { calibrateCommand, evaluateCommand, febrlLoad, labelsSample } from './commands/assurance.ts';
import { estimateCommand } from './commands/estimate.ts';
import { jobCancel, jobShow, jobsList, reconcile, reindex, worker } from './commands/jobs.ts';
import { blockingKey } from './commands/blocking-keys.ts';
import { sources } from './commands/sources.ts';
import { API_COMMANDS, API_HELP, API_OPTIONS } from './api-commands.ts';

const HELP = `mpi-console — master patient index engine (a SQLite sandbox, or a PostgreSQL registry)

Usage: mpi-console <command> [options]   (global: --db FILE or --database URL, --tenant ID, --config FILE, --json)

  sandbox init [--synthetic N] [--seed S]      create a sandbox tenant (and load N synthetic people)
  ingest --source SYSTEM --ndjson FILE [--expected-records N]
                                               ingest R4 Patients (FHIR NDJSON), report rejected lines (N: the
                                               records the registry will hold once this and the loads after it are in)
  compare --comparator NAME A B                similarity of two strings under one comparator
  explain --left SYSTEM/ID --right SYSTEM/ID   field evidence, bands and score for two source records
  identities [--limit N --offset K]            TSV: source system, local identifier, enterprise ID (every record)
  reviews [--status open|resolved|all] [--kind K] [--job ID] [--source S] [--sort oldest|newest|score-high|score-low|most-doubtful]
          [--held-by RULE|none] [--twin-case CASE] [--opened-after TIME]
                                               TSV of review cases (--limit, default 1000; --offset); --held-by: only
                                               cases that rule held at Probable (PossibleTwin, NamesOnly, …; none: no
                                               rule held), --twin-case: only the twin rule's cases of that case;
                                               --opened-after: only cases opened after TIME (ISO 8601)
  review show CASE                             a review case: score, evidence, both identities, decisions
  review decide CASE --decision same-person|different-people|unsure --reason TEXT
                                               record a reviewer's decision (never merges; stale cases are refused)
  reviews holds [--status …] [--kind K] [--job ID] [--source S] [--opened-after TIME]
                                               TSV: the cases counted by the rule that held them and the twin case
  reviews labels --out FILE.tsv [--job ID]     decided cases as five-column labels (review-queue labels: biased to hard pairs)
  identity show ID [--history] [--values]      an identity's records; --history: how each arrived (decided by a trusted
                                               identifier or by score, profile version, job), updates, rebuilds, cases;
                                               --values: its canonical record (patient values: each surviving field
                                               and the record it came from)
  identity find SYSTEM/ID                      the identity a source record is linked to: its enterprise ID and status
  health [--source S] [--limit N]              health figures of every ingest and job over time, drift flags on the latest
                                               (exit 1 when something is flagged)
  audit sample --out SAMPLE.json [--labels N] [--seed S] [--ground-truth]
                                               a stratified sample of the registry's decisions to label (labelled
                                               from a synthetic sandbox's ground truth with --ground-truth)
  audit estimate --sample SAMPLE.json --labels FILE.tsv    precision, recall and F1 of the registry's links, 95% bounds
  link-quality scan [--max-records N] [--limit N]   flag identities that look like wrong links (weak bridge, same
                                               source twice, sex or birth-date conflict, too large); never unlinks
  profile show | validate FILE | apply FILE    the active matching profile; validate; apply as a new version
  profile apply FILE --preview                 what the candidate would change on the registry (a dry run; nothing applied)
  synthetic generate --people N --seed S --out DIR   write synthetic NDJSON per source and labels.tsv
  evaluate --labels FILE.tsv --dataset ID --thresholds 0.5,0.9,0.99 [--max-errors N]
                                               metrics of the active profile on labelled pairs (TSV: leftSource,
                                               leftLocalId, rightSource, rightLocalId, isMatch)
  calibrate --labels FILE.tsv --dataset ID --model-version V --prior P --smoothing S
            --validation-fraction F --target-precision T [--u-from random-pairs|labels] [--review-budget N]
            [--out model.json [--with-thresholds]]
                                               train a Fellegi-Sunter model (never activated) and report held-out quality
                                               (m from the labelled matches; u from random pairs of the registry, or
                                               with --u-from labels from the labelled non-matches, the specification's way);
                                               with u from random pairs its live thresholds keep at most N review pairs per
                                               1,000 records (default 20)
  estimate --model-version V [--seed S] [--random-pairs N] [--max-candidates N] [--max-records N] [--max-iterations N] [--smoothing S] [--thresholds LIST]
           [--target-precision P] [--target-recall R] [--review-budget N] [--out model.json [--with-thresholds]]
                                               estimate a Fellegi-Sunter model from the tenant's own records, no labels
                                               (u from random pairs, m by EM per blocking rule on names and dates; never activated);
                                               its suggested thresholds keep at most N review pairs per 1,000 records (default 20)
  labels sample [--max-pairs N] [--seed S] [--out FILE.tsv]   labelled pairs from a sandbox's ground truth
  febrl load --dataset 4|3 [--dir DIR]         load a FEBRL benchmark (with its ground truth) into --tenant
             [--profile FILE]                  (a new tenant with that profile, e.g. \`profile show\` output)
  profile rollback [--reason R]                restore the previous profile version as a new version
  reindex --reason R [--batch-size N]          queue a re-index of the blocking tags (batch size 1-25, default 25)
  reconcile --reason R [--batch-size N] [--source SYSTEM [--changed-since INSTANT]]
                                               queue a reconciliation (import changed Patients from a configured FHIR
                                               source first, then rebuild canonical records and match)
  sources list | sources check NAME            the tenant's external FHIR sources; check one (secret, token, first page)
  job show ID | job cancel ID                  a maintenance job's phases and counters; cancel a queued or running job
  jobs [--limit N] [--before JOB_ID]           maintenance job history, newest first (--before: the next page)
  worker [--once]                              run queued jobs (of --tenant, or every tenant when no tenant is given);
                                               --once drains the queue and exits, else polls until SIGINT/SIGTERM
  blocking-key list | add VERSION | remove VERSION   HMAC blocking key versions in the configuration file
${API_HELP}
Defaults: --db mpi-sandbox.db (or $MPI_DB), --tenant demo (or $MPI_TENANT),
--config <db without extension>.config.json (holds the HMAC blocking secrets; never in the database).
A PostgreSQL registry: --database postgres://USER@HOST:PORT/DB (or $MPI_DATABASE, or Api.Database in --config FILE,
which it needs: the replicas share that file); the password from $PGPASSWORD or ~/.pgpass rather than the URL.
`;

const OPTIONS = {
  db: { type: 'string' },
  database: { type: 'string' },
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
  kind: { type: 'string' },
  job: { type: 'string' },
  'held-by': { type: 'string' },
  'twin-case': { type: 'string' },
  'opened-after': { type: 'string' },
  sort: { type: 'string' },
  decision: { type: 'string' },
  'max-records': { type: 'string' },
  history: { type: 'boolean' },
  values: { type: 'boolean' },
  preview: { type: 'boolean' },
  sample: { type: 'string' },
  limit: { type: 'string' },
  offset: { type: 'string' },
  reason: { type: 'string' },
  people: { type: 'string' },
  out: { type: 'string' },
  labels: { type: 'string' },
  dataset: { type: 'string' },
  dir: { type: 'string' },
  thresholds: { type: 'string' },
  'max-errors': { type: 'string' },
  'model-version': { type: 'string' },
  prior: { type: 'string' },
  smoothing: { type: 'string' },
  'validation-fraction': { type: 'string' },
  'target-precision': { type: 'string' },
  'u-from': { type: 'string' },
  'max-pairs': { type: 'string' },
  'batch-size': { type: 'string' },
  'changed-since': { type: 'string' },
  once: { type: 'boolean' },
  'random-pairs': { type: 'string' },
  'max-candidates': { type: 'string' },
  'max-iterations': { type: 'string' },
  'target-recall': { type: 'string' },
  'review-budget': { type: 'string' },
  'expected-records': { type: 'string' },
  'with-thresholds': { type: 'boolean' },
  'ground-truth': { type: 'boolean' },
  profile: { type: 'string' },
  ...API_OPTIONS,
} as const;

type Command = (cli: CliContext) => Promise<number>;

const COMMANDS: ReadonlyMap<string, Command> = new Map(
  Object.entries({
    'sandbox init': sandboxInit,
    ingest,
    compare,
    explain,
    identities,
    reviews,
    'review show': reviewShow,
    'review decide': reviewDecide,
    'reviews labels': reviewLabels,
    'reviews holds': reviewHolds,
    'link-quality scan': linkQualityScan,
    'identity show': identityShow,
    'identity find': identityFind,
    'audit sample': auditSample,
    health,
    'audit estimate': auditEstimate,
    profile,
    'synthetic generate': syntheticGenerate,
    evaluate: evaluateCommand,
    calibrate: calibrateCommand,
    estimate: estimateCommand,
    'labels sample': labelsSample,
    'febrl load': febrlLoad,
    reindex,
    reconcile,
    'job show': jobShow,
    'job cancel': jobCancel,
    jobs: jobsList,
    worker,
    'blocking-key': blockingKey,
    sources,
    ...API_COMMANDS,
  }),
);

function resolve(positionals: readonly string[]): { command: Command; rest: string[] } | undefined {
  const [first, second, ...others] = positionals;
  if (first === undefined) return undefined;
  const two = second === undefined ? undefined : COMMANDS.get(`${first} ${second}`);
  if (two !== undefined) return { command: two, rest: others };
  const one = COMMANDS.get(first);
  return one === undefined ? undefined : { command: one, rest: positionals.slice(1) };
}

export async function main(
  argv: readonly string[],
  write: (text: string) => void = (t) => process.stdout.write(t),
  writeError: (text: string) => void = (t) => process.stderr.write(t),
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    writeError(`mpi-console: ${argumentProblem(error)}\nRun mpi-console --help for the commands and their options.\n`);
    return 2;
  }
  if (parsed.values.help === true || parsed.positionals.length === 0) {
    write(HELP);
    return parsed.values.help === true ? 0 : 2;
  }
  const resolved = resolve(parsed.positionals);
  if (resolved === undefined) {
    writeError(`mpi-console: unknown command "${printable(parsed.positionals.join(' '))}"\n\n${HELP}`);
    return 2;
  }
  const cli = new CliContext(parsed.values, resolved.rest, write, writeError);
  try {
    return await resolved.command(cli);
  } catch (caught) {
    if (caught instanceof UsageError) {
      writeError(`mpi-console: ${printable(caught.message)}\n`);
      return 2;
    }
    const error = storeFailure(caught);
    const engineError = asEngineError(error);
    if (engineError !== undefined) {
      if (cli.json) writeError(printableJson(JSON.stringify(engineError.toData(), null, 2)) + '\n');
      else {
        writeError(`mpi-console: ${engineError.kind.replace('_', ' ')} error: ${printable(engineError.message)}\n`);
        for (const issue of engineError.issues) writeError(`  ${printable(issue.path)}: ${printable(issue.message)}\n`);
      }
      // An internal error made from an unexpected one: where it happened, for whoever supports the tool.
      if (engineError.kind === 'internal' && engineError.cause !== undefined)
        writeError(`mpi-console: where it failed: ${printable(unexpectedTrace(engineError))}\n`);
      return 1;
    }
    writeError(`mpi-console: unexpected failure (${printable(unexpectedTrace(error))}); no patient data is shown\n`);
    return 1;
  } finally {
    cli.close();
  }
}
