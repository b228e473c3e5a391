/**
 * Engine core figures: comparator throughput, full record-pair comparison, and ingestion with matching
 * (in a child process each, so peak RSS is the run's own), each beside the ceiling measured in the same run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { BenchRow } from './rows.ts';
import { opsPerSecond } from './measure.ts';
import { generatePopulation } from '../../engine/synthetic/generate.ts';
import { validatePatient } from '../../engine/fhir/patient.ts';
import { matchFieldsOf } from '../../engine/normalise/record.ts';
import { exact } from '../../engine/comparators/exact.ts';
import { jaroWinkler } from '../../engine/comparators/jaro-winkler.ts';
import { normalisedDamerauLevenshtein } from '../../engine/comparators/damerau-levenshtein.ts';
import { diceCoefficient } from '../../engine/comparators/dice-coefficient.ts';
import { phoneticSimilarity } from '../../engine/comparators/phonetic.ts';
import { nicknameSimilarity, buildNicknameIndex } from '../../engine/comparators/nickname.ts';
import { demoNicknameDictionary } from '../../engine/comparators/dictionaries/index.ts';
import { createScorer } from '../../engine/scoring/scorer.ts';
import { compareFields, newScratch } from '../../engine/scoring/field-comparison.ts';
import { sandboxProfile } from '../../engine/operations/sandbox.ts';
import type { MatchFields } from '../../engine/contract/fields.ts';

// talisman is CommonJS without type declarations; its module export is the similarity function itself.
const jaroWinklerReference = createRequire(import.meta.url)('talisman/metrics/jaro-winkler.js') as (a: string, b: string) => number;

const INGEST_WORKER = fileURLToPath(new URL('./ingest-worker.ts', import.meta.url));

/** Name pairs as ingestion sees them: records of one person (with their errors) and of neighbours. */
function samplePairs(): { names: [string, string][]; records: [MatchFields, MatchFields][] } {
  const population = generatePopulation({ people: 4000, seed: 11 });
  const fields = population.records.map((r) => {
    const v = validatePatient(r.patient);
    if (!v.ok) throw new Error('synthetic record invalid');
    return { person: r.personId, fields: matchFieldsOf(v.patient, {}) };
  });
  const byPerson = new Map<string, MatchFields[]>();
  for (const f of fields) byPerson.set(f.person, [...(byPerson.get(f.person) ?? []), f.fields]);
  const records: [MatchFields, MatchFields][] = [];
  for (const group of byPerson.values()) for (let i = 1; i < group.length; i++) records.push([group[0] as MatchFields, group[i] as MatchFields]);
  for (let i = 0; i + 1 < fields.length && records.length < 20_000; i += 2) records.push([(fields[i] as { fields: MatchFields }).fields, (fields[i + 1] as { fields: MatchFields }).fields]);
  const names = records.flatMap(([a, b]) => [
    [a.familyName ?? '', b.familyName ?? ''] as [string, string],
    [a.givenName ?? '', b.givenName ?? ''] as [string, string],
  ]);
  return { names, records };
}

export function benchComparators(): BenchRow[] {
  const { names, records } = samplePairs();
  const loop = (fn: (a: string, b: string) => number) => (): number => {
    let sink = 0;
    for (const [a, b] of names) sink += fn(a, b);
    if (sink < 0) throw new Error('unreachable');
    return names.length;
  };
  const index = buildNicknameIndex([demoNicknameDictionary()]);
  const baseline = opsPerSecond(loop((a, b) => (a.length === b.length ? 1 : 0)));
  const rows: BenchRow[] = [];
  const reference = opsPerSecond(loop((a, b) => jaroWinklerReference(a, b)));
  const comparators: [string, (a: string, b: string) => number][] = [
    ['Exact', exact],
    ['JaroWinkler', jaroWinkler],
    ['NormalisedDamerauLevenshtein', normalisedDamerauLevenshtein],
    ['DiceCoefficient', diceCoefficient],
    ['Phonetic (codes computed per call)', (a, b) => phoneticSimilarity(a, b, 0.88)],
    ['Nickname', (a, b) => nicknameSimilarity(a, b, index, 0.9).similarity],
  ];
  for (const [name, fn] of comparators) {
    rows.push({
      name: `comparator ${name}`,
      value: opsPerSecond(loop(fn)),
      unit: 'pairs/s',
      ...(name === 'JaroWinkler' ? { ceiling: reference, ceilingName: 'talisman jaro-winkler, same pairs' } : { ceiling: baseline, ceilingName: 'empty loop over the same pairs' }),
    });
  }
  const scorer = createScorer(sandboxProfile());
  const prepared = records.map(([a, b]) => [scorer.prepare(a), scorer.prepare(b)] as const);
  const scratch = newScratch();
  const rawLoop = opsPerSecond(() => {
    for (const [a, b] of prepared) compareFields(a, b, scorer.sets, scratch);
    return prepared.length;
  });
  const full = opsPerSecond(() => {
    let sink = 0;
    for (const [a, b] of prepared) sink += scorer.outcome(a, b, scratch).score;
    if (sink < 0) throw new Error('unreachable');
    return prepared.length;
  });
  rows.push({ name: 'full record-pair comparison (11 fields, score, decision)', value: full, unit: 'pairs/s', ceiling: rawLoop, ceilingName: 'raw comparator loop (field comparisons only)' });
  return rows;
}

interface IngestFigures {
  records: number;
  wallMs: number;
  recordsPerSecond: number;
  peakRssMiB: number;
  rawInsertsPerSecond: number;
  autoLinked: number;
  reviewCases: number;
}

export function benchIngestion(sizes: readonly number[] = [10_000, 100_000]): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'mpi-bench-'));
    execFileSync(process.execPath, ['--import', 'tsx', INGEST_WORKER, 'generate', dir, String(size)]);
    const out = execFileSync(process.execPath, ['--import', 'tsx', INGEST_WORKER, 'ingest', dir], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    rmSync(dir, { recursive: true, force: true });
    const f = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as IngestFigures;
    rows.push({
      name: `ingest with matching, ${String(size / 1000)}k records`,
      value: f.recordsPerSecond,
      unit: 'records/s',
      ceiling: f.rawInsertsPerSecond,
      ceilingName: 'raw better-sqlite3 insert of the same rows',
      note: `wall ${(f.wallMs / 1000).toFixed(1)} s, ${(1e6 / f.recordsPerSecond).toFixed(0)} µs/record, peak RSS ${f.peakRssMiB.toFixed(0)} MiB, ${String(f.autoLinked)} auto-linked, ${String(f.reviewCases)} review cases`,
    });
  }
  return rows;
}
