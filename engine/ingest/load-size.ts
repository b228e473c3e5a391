/**
 * The size a load brings the registry to, which every pair of the load is judged at (scorer.ts
 * ScorerOptions.registryRecordsAtLeast).
 *
 * The live scorer lowers a model's prior in proportion to the registry's size (fellegi-sunter.ts registryPrior): ten
 * times the records, a tenth of the prior, since the records a person could be taken for grow with the registry. A
 * registry loaded from empty grows under its own load, so scored against the registry as counted, a load's first
 * records were linked under a prior many times the last ones': in the scale bench's million, five of the fifteen
 * identities holding two people were joined at 22,000–356,000 records by pairs that score 0.44–0.96 at a million,
 * below Certain. Judged at the size the load brings the registry to, a load links its first records as it links its
 * last, whatever their order; the live count still rules once the registry is larger (a size never raises the prior).
 *
 * The load's lines are its records unless its source already has records stored: those are taken to be records the
 * load brings again (a rerun of an interrupted file, the next day's file of updates), so a rerun is judged at the size
 * of the run it completes, not twice that. Where the load brings new records of a source that had records already, the
 * size is underestimated; the live count then rules, as it did before. A caller that knows the size the registry
 * will reach (an initial load from several sources, one file each) says so (`expectedRecords`).
 */
import type { Store } from '../store/store.ts';
import { countedRecords } from '../store/term-frequency.ts';
import { countRecordsOfSource } from '../store/records.ts';

export interface LoadSize {
  /** The load's lines (a file's, a request's), when known before it starts. */
  readonly lines?: number | undefined;
  /** The records the registry will hold once this load, and the loads that follow it, are in. */
  readonly expectedRecords?: number | undefined;
}

/** The registry's size, in records, that the load's pairs are judged at least at (0: the live count alone). */
export function recordsAfterLoad(store: Store, tenantId: string, sourceSystem: string, load: LoadSize): number {
  const lines = load.lines ?? 0;
  const brought = lines === 0 ? 0 : Math.max(0, lines - countRecordsOfSource(store, tenantId, sourceSystem));
  return Math.max(load.expectedRecords ?? 0, brought === 0 ? 0 : countedRecords(store, tenantId) + brought);
}

const LF = 0x0a;

/** The lines of NDJSON text: its line feeds, and one more for a last line without one (blank lines included). */
export function linesOfText(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return text.length > 0 && !text.endsWith('\n') ? lines + 1 : lines;
}

/** The lines of an NDJSON byte stream (a file read once before it is ingested), as linesOfText counts them. */
export async function linesOfBytes(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<number> {
  let lines = 0;
  let last = LF;
  for await (const chunk of chunks) {
    for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) lines++;
    if (chunk.length > 0) last = chunk[chunk.length - 1] ?? LF;
  }
  return last === LF ? lines : lines + 1;
}
