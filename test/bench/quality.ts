/**
 * npm run quality [-- --only febrl4,febrl3,febrl2,febrl1,febrl3-names-dates,febrl4-names-dates,febrl4-initials,febrl3-names-dates-initials,names-dates,names-dates-heavy,heavy-typos,names-dates-many,heavy-typos-many,synthetic] [-- --people N] [-- --calibrated]: matching
 * quality per dataset, measured end to end through ingestion (population-level pairwise precision, recall and F1
 * of auto-links, and of auto-links plus open review cases), review cases per 1,000 records, and blocking pairs
 * completeness (true pairs sharing a usable blocking key / all true pairs) and reduction ratio (1 − candidate
 * pairs / all record pairs). Quality, not speed: the floors are asserted in the tests; this prints every figure
 * for the closing note. `--calibrated` adds the assurance run (a model calibrated on 10,000 sampled labels, applied
 * with its live thresholds) on FEBRL and on the generated extracts, and the report's advice beside the active profile
 * (keep it, or the model does better: profile-comparison.ts); the model's u from random pairs of the registry, or with
 * `--u-from labels` from the labelled non-matches (the specification's method).
 * `--estimated` adds the unsupervised estimate (matching/estimate, no labels) applied and re-matched, with the
 * profile's thresholds and with the estimate's suggested ones. `--misses` adds, under the default profile's line and
 * each estimated one, why the true pairs left unlinked stayed apart (missed-pairs.ts). `--seed S` draws the generated
 * extracts with another seed than the floors' (21 to 33): the same kind of data, records the figures were never
 * measured on.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { rmSync } from 'node:fs';
import { febrlFile } from '../helpers/febrl.ts';
import { LocalEngine } from '../../engine/local-engine.ts';
import {
  febrlProfile,
  initialsOnOneInTen,
  loadFebrl,
  namesAndBirthDate,
  type FebrlSource,
} from '../../engine/benchmark/febrl-run.ts';
import { assuranceRun, febrlAssurance, type AssuranceRun } from '../../engine/benchmark/febrl-assurance.ts';
import {
  estimateRun,
  extractLoader,
  febrlLoader,
  syntheticLoader,
  type EstimateRun,
} from '../../engine/benchmark/estimate-run.ts';
import { QUALITY_EXTRACTS } from '../../engine/benchmark/extracts.ts';
import type { ExtractOptions } from '../../engine/synthetic/extract.ts';
import { populationQuality, refKey, type PopulationQuality } from '../../engine/benchmark/population-quality.ts';
import { truthRecords } from '../../engine/store/assurance.ts';
import { missedPairs } from '../../engine/benchmark/missed-pairs.ts';
import type { CallContext } from '../../engine/contract/operations.ts';
import type { MatchingProfile } from '../../engine/contract/profile.ts';
import { U_SOURCES, type LiveThresholds } from '../../engine/contract/assurance.ts';
import { scratchDir } from '../helpers/temp.ts';

const DATASETS: Record<string, FebrlSource[]> = {
  febrl4: [
    { sourceSystem: 'febrl-4a', path: febrlFile('dataset4a.csv') },
    { sourceSystem: 'febrl-4b', path: febrlFile('dataset4b.csv') },
  ],
  febrl3: [{ sourceSystem: 'febrl-3', path: febrlFile('dataset3.csv') }],
  febrl2: [{ sourceSystem: 'febrl-2', path: febrlFile('dataset2.csv') }],
  febrl1: [{ sourceSystem: 'febrl-1', path: febrlFile('dataset1.csv') }],
  'febrl3-names-dates': [{ sourceSystem: 'febrl-3', path: febrlFile('dataset3.csv'), project: namesAndBirthDate }],
  'febrl4-names-dates': [
    { sourceSystem: 'febrl-4a', path: febrlFile('dataset4a.csv'), project: namesAndBirthDate },
    { sourceSystem: 'febrl-4b', path: febrlFile('dataset4b.csv'), project: namesAndBirthDate },
  ],
  // One record in ten of the second file with its given name cut to the initial (what initials cost).
  'febrl4-initials': [
    { sourceSystem: 'febrl-4a', path: febrlFile('dataset4a.csv') },
    { sourceSystem: 'febrl-4b', path: febrlFile('dataset4b.csv'), project: initialsOnOneInTen },
  ],
  'febrl3-names-dates-initials': [
    {
      sourceSystem: 'febrl-3',
      path: febrlFile('dataset3.csv'),
      project: (patient) => initialsOnOneInTen(namesAndBirthDate(patient)),
    },
  ],
};

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    people: { type: 'string' },
    seed: { type: 'string' },
    calibrated: { type: 'boolean' },
    estimated: { type: 'boolean' },
    misses: { type: 'boolean' },
    certain: { type: 'string' },
    probable: { type: 'string' },
    'u-from': { type: 'string' },
  },
});
/** --u-from labels: calibrate with the specification's u (from the labelled non-matches) instead of random pairs. */
const uFrom = U_SOURCES.find((s) => s === (values['u-from'] ?? 'random-pairs'));
if (uFrom === undefined) throw new Error(`--u-from takes ${U_SOURCES.join(' or ')}`);
const only = new Set(
  (
    values.only ??
    'febrl4,febrl3,febrl2,febrl1,febrl3-names-dates,febrl4-names-dates,febrl4-initials,febrl3-names-dates-initials,names-dates,names-dates-heavy,names-dates-common,heavy-typos,names-dates-many,heavy-typos-many,synthetic'
  ).split(','),
);
const people = Number(values.people ?? '2000');
/** --seed: every generated extract drawn with this seed instead of its own. */
const seed = values.seed === undefined ? undefined : Number(values.seed);
if (seed !== undefined && !Number.isSafeInteger(seed)) throw new Error('--seed takes a whole number');

/** Generated extracts (engine/benchmark/extracts.ts), with --seed's seed when given. */
const EXTRACTS: Record<string, ExtractOptions> = Object.fromEntries(
  Object.entries(QUALITY_EXTRACTS).map(([name, options]) => [
    name,
    seed === undefined ? options : { ...options, seed },
  ]),
);

const f = (n: number | null): string => (n === null ? '—' : n.toFixed(4));

async function blocking(
  engine: LocalEngine,
  ctx: CallContext,
  truePairs: number,
  records: number,
): Promise<{ pc: number; rr: number; candidates: number }> {
  const sample = await engine.call('labels/sample', { maxPairs: 2, seed: 1 }, ctx);
  const all = (records * (records - 1)) / 2;
  return {
    pc: sample.candidates.truePairs / truePairs,
    rr: 1 - sample.candidates.pairs / all,
    candidates: sample.candidates.pairs,
  };
}

function line(
  name: string,
  q: PopulationQuality,
  b: { pc: number; rr: number; candidates: number },
  rejected: number,
): string {
  const a = q.autoLinks;
  const r = q.autoLinksAndReviews;
  const reviewShare = r.tp - a.tp;
  return [
    name.padEnd(22),
    `records ${q.records} (rejected ${rejected})`,
    `auto P ${f(a.precision)} R ${f(a.recall)} F1 ${f(a.f1)}`,
    `+reviews P ${f(r.precision)} R ${f(r.recall)} F1 ${f(r.f1)}`,
    `reviews ${q.reviewCases} (${((1000 * q.reviewCases) / Math.max(q.records, 1)).toFixed(1)}/1000; ${q.reviewCasesJoiningTruePair} join a true pair; ${reviewShare} true pairs)`,
    `blocking PC ${f(b.pc)} RR ${b.rr.toFixed(6)} (${b.candidates} candidate pairs)`,
  ].join(' | ');
}

/** --misses: the classes of the true pairs a tenant left unlinked, largest first. */
async function missesLine(name: string, ctx: CallContext, truth: ReadonlyMap<string, string>): Promise<void> {
  if (values.misses !== true) return;
  const m = await missedPairs(engine, ctx, truth);
  const classes = m.classes.map(
    (c) => `${c.pairs} ${c.name}${c.inOpenCase > 0 ? ` (${c.inOpenCase} in an open case)` : ''}`,
  );
  process.stdout.write(
    `${name} missed`.padEnd(22) +
      ` | ${m.truePairs - m.linked} of ${m.truePairs} true pairs unlinked: ${classes.join('; ') || 'none'}\n`,
  );
}

async function estimatedLines(name: string, run: EstimateRun, truth: ReadonlyMap<string, string>): Promise<void> {
  const r = run.report;
  process.stdout.write(
    `${name} estimate`.padEnd(22) +
      ` | fit ${r.fit === undefined ? '?' : r.fit.status === 'fitted' ? `passed its checks (start: ${r.fit.start ?? '?'})` : `FAILED (${r.fit.attempts.map((a) => a.failedChecks.join('+')).join(', ')}): fallback`}` +
      (r.fit !== undefined && r.fit.status === 'fallback'
        ? ` (${r.fit.checks
            .filter((c) => !c.passed)
            .map((c) => c.detail)
            .join('; ')})`
        : '') +
      ` | EM ${r.convergence.converged ? 'converged' : 'NOT converged'} in ${r.convergence.iterations} iterations (last log-likelihood change ${r.convergence.finalObjectiveChange.toExponential(1)}) over ${r.candidates.modelled} candidate pairs; λ ${r.candidateMatchShare.toFixed(4)}, prior ${r.priorMatchProbability.toPrecision(3)}; suggested Certain ${r.suggestedThresholds.Certain.toPrecision(4)} Probable ${r.suggestedThresholds.Probable.toPrecision(4)}` +
      (r.thresholds.length === 0
        ? ' | no model-estimated P/R (the fit failed)\n'
        : ` | model-estimated P/R at ${r.thresholds.map((t) => `${t.threshold}: ${f(t.precision)}/${f(t.recall)}`).join(', ')}\n`),
  );
  for (const [choice, rematched] of Object.entries(run.rematched)) {
    const cctx = { tenantId: `${name}-estimated-${choice}`, actor: 'quality' };
    const q = rematched.population;
    process.stdout.write(
      line(
        `${name} ${choice === 'unchanged' ? 're-ingested, no model' : `estimated (${choice === 'profile' ? 'profile thr.' : 'suggested thr.'})`}`,
        q,
        await blocking(engine, cctx, q.autoLinks.truePairs, q.records),
        rematched.rejectedRecords,
      ) + '\n',
    );
    await missesLine(`${name} estimated (${choice})`, cctx, truth);
  }
}

/** A model calibrated on 10,000 labels of the data set, re-matched with its live thresholds (febrl-assurance.ts). */
async function calibratedLine(name: string, run: AssuranceRun): Promise<void> {
  const cctx = { tenantId: `${name}-calibrated`, actor: 'quality' };
  process.stdout.write(
    line(
      `${name} calibrated ${run.thresholds.Certain}/${run.thresholds.Probable}`,
      run.population,
      await blocking(engine, cctx, run.population.autoLinks.truePairs, run.population.records),
      run.rejectedRecords,
    ) + '\n',
  );
  // What the report says of the model beside the active profile on the same unseen labelled pairs (profile-comparison.ts).
  const live = run.calibration.liveThresholds;
  const against = live?.againstProfile;
  if (live != null && against != null) {
    const side = (certain: number, point: LiveThresholds['atCertain']): string =>
      `at Certain ${String(certain)} recall ${(point.recall ?? 0).toFixed(4)}, precision >= ${(point.precisionLowerBound ?? 0).toFixed(4)}`;
    // The review band's load the report expects, beside the cases the line above measured.
    const load = live.reviewLoad;
    const band =
      load === undefined
        ? ''
        : ` | review band ${load.pairsPerThousandRecords.toFixed(1)} pairs/1000 expected (budget ${String(load.budgetPerThousandRecords)}${load.budgetRaisedProbable ? `, ${load.unbudgetedPairsPerThousandRecords.toFixed(1)} without it` : ''})`;
    process.stdout.write(
      `${name} calibrated advice | ${against.keepProfile ? 'keep the active profile' : 'the model does better'} | profile ${side(against.Certain, against.atCertain)} | model ${side(live.Certain, live.atCertain)}${band}\n`,
    );
  }
}

const dir = scratchDir('mpi-quality-').dir;
/** --certain / --probable: the default profile's thresholds replaced, to see the trade-off they make. */
function withThresholds(profile: MatchingProfile): MatchingProfile {
  const t = profile.MatchingRules.Thresholds;
  const Thresholds = { Certain: Number(values.certain ?? t.Certain), Probable: Number(values.probable ?? t.Probable) };
  return { ...profile, MatchingRules: { ...profile.MatchingRules, Thresholds } };
}

const engine = LocalEngine.open({ dbPath: join(dir, 'quality.db') });
for (const [name, sources] of Object.entries(DATASETS)) {
  if (!only.has(name)) continue;
  const ctx = { tenantId: `${name}-default`, actor: 'quality' };
  const load = await loadFebrl(engine, ctx, sources, withThresholds(febrlProfile(sources)));
  const q = await populationQuality(engine, ctx, load.truth);
  const rejected = load.reports.reduce((sum, r) => sum + r.rejected.length, 0);
  process.stdout.write(
    line(`${name} default`, q, await blocking(engine, ctx, q.autoLinks.truePairs, q.records), rejected) + '\n',
  );
  await missesLine(`${name} default`, ctx, load.truth);
  if (values.calibrated === true) await calibratedLine(name, await febrlAssurance(engine, name, sources, uFrom));
  if (values.estimated === true)
    await estimatedLines(
      name,
      await estimateRun(engine, name, febrlLoader(engine, sources), ['profile', 'suggested']),
      load.truth,
    );
}
for (const [name, options] of Object.entries(EXTRACTS)) {
  if (!only.has(name)) continue;
  const data = await extractLoader(engine, options);
  const ctx = { tenantId: `${name}-default`, actor: 'quality' };
  const { truth, rejected } = await data.load(ctx, withThresholds(data.profile));
  const q = await populationQuality(engine, ctx, truth);
  process.stdout.write(
    line(`${name} default`, q, await blocking(engine, ctx, q.autoLinks.truePairs, q.records), rejected) + '\n',
  );
  await missesLine(`${name} default`, ctx, truth);
  if (values.calibrated === true) await calibratedLine(name, await assuranceRun(engine, name, data, uFrom));
  if (values.estimated === true)
    await estimatedLines(name, await estimateRun(engine, name, data, ['profile', 'suggested']), truth);
}
if (only.has('synthetic')) {
  const ctx = { tenantId: 'synthetic', actor: 'quality' };
  await engine.call('sandbox/create', { syntheticPeople: people, seed: 7 }, ctx);
  if (values.certain !== undefined || values.probable !== undefined)
    throw new Error('--certain and --probable apply to FEBRL only');
  const truth = new Map(
    truthRecords(engine.env.store, ctx.tenantId).map((r) => [refKey(r.sourceSystem, r.localId), r.personId] as const),
  );
  const q = await populationQuality(engine, ctx, truth);
  process.stdout.write(
    line(`synthetic ${people}`, q, await blocking(engine, ctx, q.autoLinks.truePairs, q.records), 0) + '\n',
  );
  await missesLine(`synthetic ${people}`, ctx, truth);
  if (values.calibrated === true)
    await calibratedLine(
      'synthetic',
      await assuranceRun(engine, 'synthetic', await syntheticLoader(engine, people, 7), uFrom),
    );
  if (values.estimated === true)
    await estimatedLines(
      'synthetic',
      await estimateRun(engine, 'synthetic', await syntheticLoader(engine, people, 7), [
        'unchanged',
        'profile',
        'suggested',
      ]),
      truth,
    );
}
engine.close();
rmSync(dir, { recursive: true, force: true });
