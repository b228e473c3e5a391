/**
 * npm run bench -- --scale [--sizes 10000,100000,1000000]: how cost grows with the registry, from 10,000 to a
 * million records. For each size, in child processes (so each peak RSS is its own run's): the synthetic records
 * are generated; ingested with matching (records/s beside the raw insert of the same rows, and the cost per record
 * of the first and the last tenth: flat cost means the last tenth costs what the first did); then a re-index and a
 * reconciliation (each phase), the unsupervised estimate, a sample of 10,000 labels, their evaluation and a
 * calibration on them with u from random pairs, the workbench's candidate draw, the link-quality scan and the
 * registry audit's sample. Long: the million takes tens of minutes, so it is an option, never part of `npm run
 * bench`'s default.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './rows.ts';
import { scratchDir } from '../helpers/temp.ts';

const INGEST_WORKER = fileURLToPath(new URL('./ingest-worker.ts', import.meta.url));
const SCALE_WORKER = fileURLToPath(new URL('./scale-worker.ts', import.meta.url));

interface Ingested {
  records: number;
  wallMs: number;
  recordsPerSecond: number;
  peakRssMiB: number;
  rawInsertsPerSecond: number;
  firstTenthMicros: number;
  lastTenthMicros: number;
}

interface Operated {
  identities: number;
  truePairs: number;
  linkedPairs: number;
  trueLinked: number;
  openReviewCases: number;
  reindexSeconds: number;
  validationSeconds: number | null;
  writingSeconds: number | null;
  reconcileSeconds: number;
  rebuildingSeconds: number | null;
  matchingSeconds: number | null;
  reviewCreated: number;
  estimateSeconds: number;
  estimateSampledRecords: number | null;
  estimatePeakRssMiB: number;
  estimateCandidates: number;
  sampleSeconds: number;
  labels: number;
  sampleSampledRecords: number | null;
  sampleMatchShare: number | null;
  evaluateSeconds: number;
  calibrateSeconds: number;
  calibrateSampledRecords: number | null;
  drawSeconds: number;
  drawSampledRecords: number | null;
  scanSeconds: number;
  scanIdentities: number;
  scanFlagged: number;
  scanListed: number;
  scanMixed: number;
  scanFlaggedMixed: number;
  scanFlaggedOnePerson: number;
  auditSeconds: number;
  peakRssMiB: number;
}

/** The last JSON line a bench child process printed. */
function child(script: string, args: readonly string[]): unknown {
  const out = execFileSync(process.execPath, ['--import', 'tsx', script, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
}

const k = (n: number): string => (n >= 1_000_000 ? `${String(n / 1_000_000)}M` : `${String(n / 1000)}k`);
const s = (n: number | null): string => (n === null ? '—' : `${n.toFixed(1)} s`);

export function benchScale(
  sizes: readonly number[] = [10_000, 100_000, 1_000_000],
  log: (line: string) => void = () => undefined,
): BenchRow[] {
  const rows: BenchRow[] = [];
  let base: Ingested | undefined;
  for (const size of sizes) {
    const dir = scratchDir('mpi-bench-scale-').dir;
    try {
      log(`scale ${k(size)}: generating`);
      execFileSync(process.execPath, ['--import', 'tsx', INGEST_WORKER, 'generate', dir, String(size)], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      log(`scale ${k(size)}: ingesting with matching`);
      const ingest = child(INGEST_WORKER, ['ingest', dir]) as Ingested;
      // The cost of a record late in a 100k ingest is the yardstick (the issue's): a larger registry should match it.
      if (base === undefined || size === 100_000) base = ingest;
      log(`scale ${k(size)}: re-index, reconciliation, estimate, labels`);
      const ops = child(SCALE_WORKER, ['ops', dir]) as Operated;
      const per = (seconds: number): string => `${((seconds * 1e6) / ops.identities).toFixed(0)} µs per identity`;
      rows.push(
        {
          name: `scale ${k(size)}: ingest with matching`,
          value: ingest.recordsPerSecond,
          unit: 'records/s',
          ceiling: ingest.rawInsertsPerSecond,
          ceilingName: 'raw better-sqlite3 insert of the same rows',
          note: `wall ${(ingest.wallMs / 1000).toFixed(1)} s; ${ingest.firstTenthMicros.toFixed(0)} µs/record for the first tenth, ${ingest.lastTenthMicros.toFixed(0)} µs/record for the last (${(ingest.lastTenthMicros / ingest.firstTenthMicros).toFixed(2)} ×); peak RSS ${ingest.peakRssMiB.toFixed(0)} MiB`,
        },
        {
          name: `scale ${k(size)}: cost per record of the last tenth of the ingest`,
          value: ingest.lastTenthMicros,
          unit: 'µs/record',
          ceiling: base.lastTenthMicros,
          ceilingName: `the last tenth of the ${base === ingest ? 'same' : '100k'} ingest (target: within +20% at 1M)`,
        },
        {
          // What the ingest linked, against the generated ground truth: a registry's size must not cost it precision.
          name: `scale ${k(size)}: wrong links of the ingest (record pairs of two people linked)`,
          value: ((ops.linkedPairs - ops.trueLinked) * 10_000) / Math.max(1, ops.linkedPairs),
          unit: 'per 10,000 linked pairs',
          note: `${String(ops.linkedPairs - ops.trueLinked)} of ${String(ops.linkedPairs)}: precision ${(ops.trueLinked / Math.max(1, ops.linkedPairs)).toFixed(5)}; recall ${(ops.trueLinked / Math.max(1, ops.truePairs)).toFixed(4)} of ${String(ops.truePairs)} true pairs; ${String(ops.openReviewCases)} open review cases (${((ops.openReviewCases * 1000) / ingest.records).toFixed(1)} per 1,000 records)`,
        },
        {
          name: `scale ${k(size)}: re-index of ${ops.identities.toLocaleString('en-US')} identities`,
          value: ops.reindexSeconds,
          unit: 's',
          note: `validation ${s(ops.validationSeconds)}, writing ${s(ops.writingSeconds)}; ${per(ops.reindexSeconds)}`,
        },
        {
          name: `scale ${k(size)}: reconciliation of ${ops.identities.toLocaleString('en-US')} identities`,
          value: ops.reconcileSeconds,
          unit: 's',
          note: `rebuilding ${s(ops.rebuildingSeconds)}, matching ${s(ops.matchingSeconds)}; ${per(ops.reconcileSeconds)}; ${String(ops.reviewCreated)} review cases`,
        },
        {
          name: `scale ${k(size)}: estimate without labels`,
          value: ops.estimateSeconds,
          unit: 's',
          note: `${ops.estimateCandidates.toLocaleString('en-US')} candidate pairs modelled${ops.estimateSampledRecords === null ? '' : ` on a seeded sample of ${ops.estimateSampledRecords.toLocaleString('en-US')} records`}; peak RSS ${ops.estimatePeakRssMiB.toFixed(0)} MiB after the estimate (run first), ${ops.peakRssMiB.toFixed(0)} MiB after every operation`,
        },
        {
          name: `scale ${k(size)}: sample ${ops.labels.toLocaleString('en-US')} labels`,
          value: ops.sampleSeconds,
          unit: 's',
          note: `non-matches among the candidates of ${ops.sampleSampledRecords === null ? 'every record' : `a seeded sample of ${ops.sampleSampledRecords.toLocaleString('en-US')} records`}; estimated prior ${ops.sampleMatchShare?.toFixed(4) ?? '—'}`,
        },
        {
          name: `scale ${k(size)}: evaluate ${ops.labels.toLocaleString('en-US')} labels`,
          value: ops.evaluateSeconds,
          unit: 's',
        },
        {
          name: `scale ${k(size)}: calibrate on ${ops.labels.toLocaleString('en-US')} labels, u from random pairs`,
          value: ops.calibrateSeconds,
          unit: 's',
          note: `300,000 random pairs of ${ops.calibrateSampledRecords === null ? '—' : ops.calibrateSampledRecords.toLocaleString('en-US')} records read, their candidates counted`,
        },
        {
          name: `scale ${k(size)}: the workbench's candidate draw`,
          value: ops.drawSeconds,
          unit: 's',
          note:
            ops.drawSampledRecords === null
              ? 'every record read'
              : `a seeded sample of ${ops.drawSampledRecords.toLocaleString('en-US')} records`,
        },
        {
          name: `scale ${k(size)}: link-quality scan of ${ops.scanIdentities.toLocaleString('en-US')} identities with several records`,
          value: ops.scanSeconds,
          unit: 's',
          // The ground truth's judgement of the flags (the generator gives no person two records in one source, so
          // its one-source-twice flag is exact here as it would not be on real sources).
          note: `flagged ${String(ops.scanFlagged)}; of the ${String(ops.scanMixed)} identities holding two people, ${String(ops.scanFlaggedMixed)} flagged; ${String(ops.scanFlaggedOnePerson)} flagged identities hold one person${ops.scanListed < ops.scanFlagged ? ` (of the first ${String(ops.scanListed)} listed)` : ''}`,
        },
        {
          name: `scale ${k(size)}: the registry audit's sample of 400 pairs`,
          value: ops.auditSeconds,
          unit: 's',
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}
