/**
 * Engine core figures: comparator throughput, full record-pair comparison, and ingestion with matching
 * (in a child process each, so peak RSS is the run's own), each beside the ceiling measured in the same run.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
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
import { birthDateSimilarity } from '../../engine/comparators/birth-date-levels.ts';
import { editLevelSimilarity } from '../../engine/comparators/edit-levels.ts';
import { nicknameSimilarity, buildNicknameIndex } from '../../engine/comparators/nickname.ts';
import { demoNicknameDictionary } from '../../engine/comparators/dictionaries/index.ts';
import { createScorer } from '../../engine/scoring/scorer.ts';
import { compareFields, newScratch } from '../../engine/scoring/field-comparison.ts';
import { sandboxProfile } from '../../engine/operations/sandbox.ts';
import type { MatchFields } from '../../engine/contract/fields.ts';
import { blockingTags } from '../../engine/blocking/tags.ts';
import { scratchDir } from '../helpers/temp.ts';

// talisman is CommonJS without type declarations; its module export is the similarity function itself.
const jaroWinklerReference = createRequire(import.meta.url)('talisman/metrics/jaro-winkler.js') as (
  a: string,
  b: string,
) => number;

const INGEST_WORKER = fileURLToPath(new URL('./ingest-worker.ts', import.meta.url));

/**
 * The pairs matching actually compares: records of the synthetic population that share a blocking key under
 * the sandbox profile (true matches and the hard non-matches blocking brings in), capped at 20,000.
 */
function samplePairs(): { names: [string, string][]; records: [MatchFields, MatchFields][] } {
  const population = generatePopulation({ people: 6000, seed: 11 });
  const fields = population.records.map((r) => {
    const v = validatePatient(r.patient);
    if (!v.ok) throw new Error('synthetic record invalid');
    return matchFieldsOf(v.patient, {});
  });
  const profile = sandboxProfile();
  const ring = { keys: [{ version: 'k1', secret: Buffer.alloc(32, 7) }] };
  const blocks = new Map<string, number[]>();
  fields.forEach((f, index) => {
    for (const tag of blockingTags(f, profile.Blocking, ring)) {
      const key = tag.tag.toString('hex');
      blocks.set(key, [...(blocks.get(key) ?? []), index]);
    }
  });
  const seen = new Set<string>();
  const records: [MatchFields, MatchFields][] = [];
  for (const members of blocks.values()) {
    for (let i = 0; i < members.length && records.length < 20_000; i++) {
      for (let j = i + 1; j < members.length && records.length < 20_000; j++) {
        const a = members[i] as number;
        const b = members[j] as number;
        const key = `${String(a)}-${String(b)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        records.push([fields[a] as MatchFields, fields[b] as MatchFields]);
      }
    }
  }
  // Comparators are timed on unequal names only, so their equality shortcut does not flatter them.
  const names = records
    .flatMap(([a, b]) => [
      [a.familyName ?? '', b.familyName ?? ''] as [string, string],
      [a.givenName ?? '', b.givenName ?? ''] as [string, string],
    ])
    .filter(([a, b]) => a !== '' && b !== '' && a !== b);
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
    ['Phonetic (memoised codes)', (a, b) => phoneticSimilarity(a, b, 0.88)],
    ['Nickname', (a, b) => nicknameSimilarity(a, b, index, 0.9).similarity],
  ];
  for (const [name, fn] of comparators) {
    rows.push({
      name: `comparator ${name}, ${String(names.length)} unequal name pairs`,
      value: opsPerSecond(loop(fn)),
      unit: 'pairs/s',
      ...(name === 'JaroWinkler'
        ? { ceiling: reference, ceilingName: 'talisman jaro-winkler, same pairs' }
        : { ceiling: baseline, ceilingName: 'empty loop over the same pairs' }),
    });
  }
  // Level comparators on the fields they compare, beside the text edit similarity they replace (same pairs).
  const unequal = (pick: (f: MatchFields) => string | null): [string, string][] =>
    records
      .map(([a, b]) => [pick(a) ?? '', pick(b) ?? ''] as [string, string])
      .filter(([a, b]) => a !== '' && b !== '' && a !== b);
  const fieldLoop = (pairs: [string, string][], fn: (a: string, b: string) => number) => (): number => {
    let sink = 0;
    for (const [a, b] of pairs) sink += fn(a, b);
    if (sink < 0) throw new Error('unreachable');
    return pairs.length;
  };
  const dates = unequal((f) => f.birthDate?.replaceAll('-', '') ?? null);
  const codes = [...unequal((f) => f.postalCode), ...unequal((f) => f.phone)];
  for (const [name, pairs, fn] of [
    ['BirthDateLevels', dates, birthDateSimilarity],
    ['EditDistanceLevels', codes, editLevelSimilarity],
  ] as const) {
    rows.push({
      name: `comparator ${name}, ${String(pairs.length)} unequal ${name === 'BirthDateLevels' ? 'birth-date' : 'postcode and phone'} pairs`,
      value: opsPerSecond(fieldLoop(pairs, fn)),
      unit: 'pairs/s',
      ceiling: opsPerSecond(fieldLoop(pairs, normalisedDamerauLevenshtein)),
      ceilingName: 'NormalisedDamerauLevenshtein (text edit similarity), same pairs',
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
  rows.push({
    name: `full record-pair comparison, ${String(prepared.length)} blocking-candidate pairs (11 fields, score, decision)`,
    value: full,
    unit: 'pairs/s',
    ceiling: rawLoop,
    ceilingName: 'raw comparator loop (field comparisons only)',
  });
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
    const dir = scratchDir('mpi-bench-').dir;
    execFileSync(process.execPath, ['--import', 'tsx', INGEST_WORKER, 'generate', dir, String(size)]);
    const out = execFileSync(process.execPath, ['--import', 'tsx', INGEST_WORKER, 'ingest', dir], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
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
