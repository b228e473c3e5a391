import type { CliContext } from '../context.ts';
import { table, json } from '../format.ts';
import { reviewRate, reviewRateText } from '../../../engine/contract/ingest.ts';
import { countText } from '../../../engine/contract/count-text.ts';
import { paceText, TerminalProgress } from '../progress.ts';

/**
 * Creates a sandbox tenant, loading synthetic people when asked. On a terminal the load shows its progress: the
 * people being generated, then the records ingested, the pace and the time left (100,000 people are about 220,000
 * records: minutes).
 */
export async function sandboxInit(cli: CliContext): Promise<number> {
  const people = cli.integer('synthetic', 0);
  const line = new TerminalProgress();
  let phase = '';
  let started = performance.now();
  const result = await cli.creatingEngine
    .call('sandbox/create', { syntheticPeople: people, seed: cli.integer('seed', 1) }, cli.call, {
      step: (now, done, total = null) => {
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
    })
    .finally(() => {
      line.end();
    });
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
