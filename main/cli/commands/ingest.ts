import { createReadStream } from 'node:fs';
import { usage, type CliContext } from '../context.ts';
import { checkInputFile } from '../files.ts';
import { ingestStream, linesOfBytes } from '../../../engine/index.ts';
import { optionalNumber } from '../number-options.ts';
import { keyValues, json, table } from '../format.ts';
import { reviewRateText } from '../../../engine/contract/ingest.ts';
import { reviewHoldsText } from '../../../engine/contract/health.ts';
import { paceText, TerminalProgress } from '../progress.ts';

/**
 * Streams an NDJSON file; exits 1 when any line was rejected (after printing every reject). Lines accepted with
 * a warning (a field ignored for matching) are listed by line and field and do not change the exit code. On a
 * terminal the lines read so far, the share of the file, the pace and the time left are shown as it goes (a million
 * lines take a quarter of an hour or more). Interrupted, the chunks written stay written and the chunk being written
 * is rolled back: the same command again takes the lines already ingested as replays and goes on. The file's pairs are
 * judged at the size it brings the registry to, or at --expected-records when the analyst loads several sources'
 * files into a new registry (engine/ingest/load-size.ts).
 */
export async function ingest(cli: CliContext): Promise<number> {
  const source = cli.required('source');
  const file = cli.required('ndjson');
  const stat = checkInputFile(file, '--ndjson file');
  const bytes = stat.size;
  const expectedRecords = expectedRecordsOption(cli);
  // A file's lines, read once before it is ingested (half a second for 250,000 records): its pairs are judged at the
  // size it brings the registry to (engine/ingest/load-size.ts). A named pipe can be read only once: its size is
  // --expected-records, or the registry's as counted.
  const lines = stat.isFile() ? await linesOfBytes(createReadStream(file)) : undefined;
  const stream = createReadStream(file);
  const line = new TerminalProgress();
  const started = performance.now();
  const report = await ingestStream(
    cli.engine.env,
    cli.call,
    source,
    stream,
    (sofar) => {
      line.show(
        `Ingesting from ${source}: ${paceText({
          done: sofar.lines,
          unit: 'lines',
          share: bytes > 0 ? { of: 'the file', value: Math.min(1, stream.bytesRead / bytes) } : null,
          elapsedMs: performance.now() - started,
        })}`,
      );
    },
    { lines, expectedRecords },
  ).finally(() => {
    line.end();
  });
  const warnings = report.warnings ?? [];
  if (cli.json) {
    cli.write(json(report));
  } else {
    cli.write(
      keyValues([
        ['source system', report.sourceSystem],
        ['profile version', String(report.matchingProfileVersion)],
        ['lines', String(report.lines)],
        ['created', String(report.created)],
        ['  auto-linked', String(report.autoLinked)],
        ['  new identities', String(report.newIdentities)],
        ['review cases created', String(report.reviewCasesCreated)],
        ...(report.reviewCasesCreated > 0 && report.reviewHolds !== undefined
          ? [['  held by', reviewHoldsText(report.reviewHolds)] as [string, string]]
          : []),
        ['review rate', reviewRateText(report.reviewRate)],
        ['updated', String(report.updated)],
        ['unchanged (replays)', String(report.unchanged)],
        ['stale (older versions)', String(report.stale)],
        ['rejected', String(report.rejected.length)],
        ['accepted with warnings', String(warnings.length)],
      ]),
    );
    // The rate counts the new records' cases; the rest are LinkQuality cases of updates (engine/ingest/ingestor.ts).
    const fromNew = report.reviewRate?.reviewCases ?? report.reviewCasesCreated;
    const fromUpdates = report.reviewCasesCreated - fromNew;
    if (fromNew > 0) {
      cli.write(
        `\nSee the review cases: mpi-console reviews --kind IngestionMatch --source ${report.sourceSystem} (or the console's Review cases page).\n`,
      );
    }
    if (fromUpdates > 0) {
      cli.write(
        `\n${String(fromUpdates)} updated ${fromUpdates === 1 ? 'record no longer matches' : 'records no longer match'} the rest of ${fromUpdates === 1 ? 'its identity' : 'their identities'}, linked as before until a reviewer decides: mpi-console reviews --kind LinkQuality --source ${report.sourceSystem}\n`,
      );
    }
    if (warnings.length > 0) {
      cli.write('\nAccepted with warnings (the field is ignored for matching):\n');
      cli.write(
        table(
          ['line', 'field', 'warning'],
          warnings.flatMap((w) => w.issues.map((i) => [String(w.line), i.path, i.message])),
        ),
      );
    }
    if (report.rejected.length > 0) {
      cli.write('\nRejected lines:\n');
      cli.write(
        table(
          ['line', 'field', 'problem'],
          report.rejected.flatMap((r) => r.issues.map((i) => [String(r.line), i.path, i.message])),
        ),
      );
    }
  }
  return report.rejected.length > 0 ? 1 : 0;
}

/** --expected-records: a whole number of records, 1 or more. */
function expectedRecordsOption(cli: CliContext): number | undefined {
  const records = optionalNumber(cli, 'expected-records');
  if (records !== undefined && (!Number.isSafeInteger(records) || records < 1))
    throw usage('--expected-records must be a whole number of records, 1 or more');
  return records;
}
