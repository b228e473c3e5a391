/**
 * The ground truth the bench's ingest worker writes beside its NDJSON files (`ingest-worker.ts generate`): truth.tsv,
 * one line per record, its source system, local ID and person, tab-separated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TruthRow {
  readonly sourceSystem: string;
  readonly localId: string;
  readonly personId: string;
}

/** DIR/truth.tsv's rows. */
export function readTruth(dir: string): TruthRow[] {
  return readFileSync(join(dir, 'truth.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [sourceSystem = '', localId = '', personId = ''] = line.split('\t');
      return { sourceSystem, localId, personId };
    });
}

/** Each record's person, by recordKey. */
export function personByRecord(rows: readonly TruthRow[]): Map<string, string> {
  return new Map(rows.map((row) => [recordKey(row.sourceSystem, row.localId), row.personId]));
}

/** A record's key in personByRecord's map. */
export function recordKey(sourceSystem: string, localId: string): string {
  return `${sourceSystem}\t${localId}`;
}
