import { existsSync, rmSync } from 'node:fs';
import type { CliContext } from '../context.ts';
import { isPostgresUrl, RunCancelled } from '../../../engine/index.ts';
import { conflict } from '../../../engine/contract/errors.ts';
import { table, json } from '../format.ts';
import { reviewRate, reviewRateText } from '../../../engine/contract/ingest.ts';
import { countText } from '../../../engine/contract/count-text.ts';
import { paceText, TerminalProgress } from '../progress.ts';

/**
 * Creates a sandbox tenant, loading synthetic people when asked. On a terminal the load shows its progress: the
 * people being generated, then the records ingested, the pace and the time left (100,000 people are about 220,000
 * records: minutes). A load into a new database file that fails or is interrupted (Ctrl-C, SIGTERM: at the next chunk
 * of records) removes the files it made, as the console does, so no half-loaded sandbox is left to be taken for a
 * whole one; a rerun starts afresh.
 */
export async function sandboxInit(cli: CliContext): Promise<number> {
  const people = cli.integer('synthetic', 0);
  const dbPath = cli.dbPath;
  const made =
    dbPath === ':memory:' || isPostgresUrl(dbPath) || existsSync(dbPath)
      ? []
      : cli
          .filesInUse()
          .map((file) => file.path)
          .filter((path) => !existsSync(path));
  const interrupted = new AbortController();
  const stop = (): void => {
    interrupted.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const line = new TerminalProgress();
  let phase = '';
  let started = performance.now();
  let result;
  try {
    result = await cli.creatingEngine.call(
      'sandbox/create',
      { syntheticPeople: people, seed: cli.integer('seed', 1) },
      cli.call,
      {
        step: (now, done, total = null) => {
          if (interrupted.signal.aborted) throw new RunCancelled();
          const next = now !== phase;
          if (next) {
            phase = now;
            started = performance.now();
          }
          line.show(
            total === null
              ? `Generating ${countText(people)} synthetic people`
              : `Ingesting them: ${paceText({ done, total, unit: 'records', elapsedMs: performance.now() - started })}`,
            next,
          );
        },
      },
    );
  } catch (error) {
    if (made.length > 0) {
      cli.close();
      for (const path of made) rmSync(path, { force: true });
    }
    if (!interrupted.signal.aborted) throw error;
    throw conflict(
      made.length > 0
        ? `interrupted: the sandbox was not finished, and the files this command had made (${dbPath} and its configuration) were removed, so nothing was kept; run the command again to create it`
        : `interrupted: tenant "${cli.call.tenantId}" in ${cli.registryLabel} holds only part of the synthetic population; use another --tenant, or start a new --db file`,
    );
  } finally {
    line.end();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  if (cli.json) {
    cli.write(json(result));
    return 0;
  }
  cli.write(
    `Sandbox tenant "${result.tenantId}" created in ${cli.registryLabel} (matching profile version ${String(result.matchingProfileVersion)}).\n`,
  );
  if (result.syntheticPeople > 0) {
    cli.write(
      `Loaded ${countText(result.syntheticPeople)} synthetic people as ${countText(result.syntheticRecords)} records:\n`,
    );
    cli.write(
      table(
        ['source', 'records', 'auto-linked', 'new identities', 'review cases', 'per 1,000', 'rejected'],
        result.ingest.map((r) => [
          r.sourceSystem,
          String(r.created),
          String(r.autoLinked),
          String(r.newIdentities),
          String(r.reviewCasesCreated),
          perThousand(r.reviewCasesCreated, r.created),
          String(r.rejected.length),
        ]),
      ),
    );
    const cases = result.ingest.reduce((sum, r) => sum + r.reviewCasesCreated, 0);
    const matched = result.ingest.reduce((sum, r) => sum + r.created, 0);
    // The rate in the words ingest and the console use: "19.6 per 1,000 matched (43 cases, 2,190 matched)".
    cli.write(`Review cases: ${reviewRateText(reviewRate(cases, matched))}.\n`);
  }
  return 0;
}

/** Review cases per 1,000 records matched, one decimal; — when nothing was matched. */
function perThousand(cases: number, matched: number): string {
  const rate = reviewRate(cases, matched).perThousand;
  return rate === null ? '—' : rate.toFixed(1);
}
