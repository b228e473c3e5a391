/**
 * Saved assurance runs over real sandboxes: every evaluation, calibration and estimate asked through the console
 * backend is kept (request with its labels, report, versions, time) in files only this user can read, per
 * connection; runs reopen whole, list newest first, delete, and old ones are pruned; a damaged or foreign
 * file is not listed and a bad run ID is refused before any path is built.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConsoleBackend } from '../../../main/backend/console-backend.ts';
import { MAX_RUNS, SavedRuns } from '../../../main/backend/saved-runs.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { datasetDigest } from '../../../engine/assurance/dataset-digest.ts';
import { scratchDir } from '../../helpers/temp.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(path: string, tenants: readonly string[]): Promise<void> {
  const engine = LocalEngine.open({ dbPath: path });
  try {
    for (const tenantId of tenants)
      await engine.call('sandbox/create', { syntheticPeople: 200, seed: 6 }, { tenantId, actor: 'test' });
  } finally {
    engine.close();
  }
}

/** A sandbox with these tenants in a temporary folder, opened by a console backend on its first tenant. */
async function openedSandbox(
  tenants: readonly string[],
): Promise<{ dir: string; db: string; backend: ConsoleBackend }> {
  const dir = scratchDir('mpi-runs-').dir;
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const db = join(dir, 'sandbox.db');
  await sandbox(db, tenants);
  const backend = new ConsoleBackend({ dataFolder: join(dir, 'data'), actor: 'console:test' });
  cleanups.push(() => backend.close());
  await backend.call('console/open-sandbox', { path: db, tenantId: tenants[0] ?? 'demo' });
  return { dir, db, backend };
}

describe('saved assurance runs', () => {
  it('keeps every evaluation and calibration per connection, reopens them whole, lists newest first and deletes', async () => {
    const { dir, db, backend } = await openedSandbox(['demo', 'other']);
    expect((await backend.call('console/runs', {})).runs).toEqual([]);

    const { pairs } = await backend.call('labels/sample', { maxPairs: 300, seed: 1 });
    const report = await backend.call('matching/evaluate', {
      datasetId: 'set-a',
      pairs,
      thresholds: [0.5, 0.9],
      maximumErrorExamples: 4,
    });
    const { model, report: calibrated } = await backend.call('matching/calibrate', {
      datasetId: 'set-a',
      modelVersion: 'fs-1',
      pairs,
      priorMatchProbability: 0.05,
      smoothing: 1,
      validationFraction: 0.3,
      targetPrecision: 0.9,
    });

    const { runs } = await backend.call('console/runs', {});
    expect(runs.map((r) => r.kind)).toEqual(['calibration', 'evaluation']);
    const [calibration, evaluation] = runs;
    expect(evaluation).toMatchObject({
      actor: 'console:test',
      datasetId: 'set-a',
      datasetDigest: report.datasetDigest,
      pairs: pairs.length,
      versions: report.versions,
      thresholds: [0.5, 0.9],
      modelVersion: null,
    });
    expect(calibration).toMatchObject({ datasetDigest: report.datasetDigest, modelVersion: 'fs-1' });
    // The list tells two calibrations on the same labels apart by the thresholds that go with each model.
    expect(calibrated.liveThresholds).toBeTruthy();
    expect(calibration?.modelThresholds).toEqual({
      Certain: calibrated.liveThresholds?.Certain,
      Probable: calibrated.liveThresholds?.Probable,
      targetPrecision: 0.9,
    });
    expect(evaluation?.modelThresholds).toBeUndefined();

    const reopened = await backend.call('console/run', { runId: evaluation?.runId ?? '' });
    expect(reopened.kind).toBe('evaluation');
    if (reopened.kind !== 'evaluation') throw new Error('kind');
    expect(reopened.report).toEqual(report);
    expect(reopened.request.pairs).toEqual(pairs);
    const calibrationRun = await backend.call('console/run', { runId: calibration?.runId ?? '' });
    expect(calibrationRun.kind === 'calibration' ? calibrationRun.output.model : null).toEqual(model);

    // Only this user may read them: they hold record references.
    const folder = join(dir, 'data', 'runs');
    const [connectionFolder] = readdirSync(folder);
    expect(statSync(join(folder, connectionFolder ?? '')).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(join(folder, connectionFolder ?? '')))
      expect(statSync(join(folder, connectionFolder ?? '', file)).mode & 0o777).toBe(0o600);

    // Another tenant is another connection: none of these runs.
    await backend.call('console/open-sandbox', { path: db, tenantId: 'other' });
    expect((await backend.call('console/runs', {})).runs).toEqual([]);
    await backend.call('console/open-sandbox', { path: db, tenantId: 'demo' });

    expect(
      (await backend.call('console/delete-run', { runId: evaluation?.runId ?? '' })).runs.map((r) => r.runId),
    ).toEqual([calibration?.runId]);
    expect(await backend.send('console/run', { runId: evaluation?.runId ?? '' })).toMatchObject({
      ok: false,
      error: { kind: 'not_found' },
    });
    expect(await backend.send('console/run', { runId: '../../etc/passwd' })).toMatchObject({
      ok: false,
      error: { kind: 'validation', issues: [{ path: 'runId' }] },
    });
    // A refused evaluation is not kept.
    expect(
      await backend.send('matching/evaluate', { datasetId: 'bad', pairs: pairs.slice(0, 1), thresholds: [0.5] }),
    ).toMatchObject({ ok: false });
    expect((await backend.call('console/runs', {})).runs).toHaveLength(1);
  });

  it('keeps a registry audit: its labels, their digest and the versions it judged, reopened whole', async () => {
    const { backend } = await openedSandbox(['demo']);

    const sample = await backend.call('audit/sample', { labels: 40, seed: 2 });
    // The first five as the ground truth labelled them (the page's "Draw and label from the ground truth").
    const labels = sample.pairs.map((p, i) => ({
      ...p,
      isMatch: p.stratum === 'linked' && i % 7 !== 0,
      ...(i < 5 ? { fromGroundTruth: true } : {}),
    }));
    const strata = sample.strata.map(({ name, linked, population }) => ({ name, linked, population }));
    const output = await backend.call('audit/estimate', { strata, labels });
    expect(output.labelsFromGroundTruth).toBe(5);
    const summary = await backend.call('profile/summary', {});
    expect(output.versions).toEqual({
      matchingProfileVersion: summary.matchingProfileVersion,
      comparatorVersion: summary.comparatorVersion,
      scoreMethod: summary.scoreMethod,
      scoreMethodVersion: summary.scoreMethodVersion,
    });
    // Drawing a sample is not a run the console keeps; the estimate is.
    const { runs } = await backend.call('console/runs', {});
    expect(runs).toHaveLength(1);
    const matches = labels.filter((l) => l.isMatch).length;
    expect(runs[0]).toMatchObject({
      kind: 'audit',
      datasetId: 'registry-audit-sample',
      datasetDigest: datasetDigest(labels),
      pairs: labels.length,
      matches,
      nonMatches: labels.length - matches,
      versions: output.versions,
      thresholds: [],
      labelsFromGroundTruth: 5,
    });
    const reopened = await backend.call('console/run', { runId: runs[0]?.runId ?? '' });
    if (reopened.kind !== 'audit') throw new Error(`kind ${reopened.kind}`);
    expect(reopened.output).toEqual(output);
    expect(reopened.request.labels).toEqual(labels);
    // A refused estimate is not kept.
    expect(await backend.send('audit/estimate', { strata: strata.slice(0, 1), labels })).toMatchObject({
      ok: false,
      error: { kind: 'validation' },
    });
    expect((await backend.call('console/runs', {})).runs).toHaveLength(1);
  });

  it('keeps a label set by name with the versions active then, reopened whole; a bad name or an empty set is refused', async () => {
    const { backend } = await openedSandbox(['demo']);
    const { pairs } = await backend.call('labels/sample', { maxPairs: 50, seed: 3 });
    const summary = await backend.call('console/save-labels', { name: '  ward 7  ', pairs });
    const versions = await backend.call('profile/summary', {});
    expect(summary).toMatchObject({
      kind: 'labels',
      datasetId: 'ward 7',
      datasetDigest: datasetDigest(pairs),
      pairs: pairs.length,
      versions: { matchingProfileVersion: versions.matchingProfileVersion },
    });
    const reopened = await backend.call('console/run', { runId: summary.runId });
    if (reopened.kind !== 'labels') throw new Error(`kind ${reopened.kind}`);
    expect(reopened.request).toEqual({ name: 'ward 7', pairs });
    expect(await backend.send('console/save-labels', { name: 'a\tb', pairs })).toMatchObject({
      ok: false,
      error: { kind: 'validation', issues: [{ path: 'name' }] },
    });
    expect(await backend.send('console/save-labels', { name: 'empty', pairs: [] })).toMatchObject({
      ok: false,
      error: { kind: 'validation', issues: [{ path: 'pairs' }] },
    });
    expect((await backend.call('console/runs', {})).runs).toHaveLength(1);
  });

  it('keeps an estimate without labels: its records digest, candidate pairs and model version, reopened whole', async () => {
    const { backend } = await openedSandbox(['demo']);

    const output = await backend.call('matching/estimate', { modelVersion: 'fs-est-1', seed: 3, randomPairs: 20_000 });
    const { runs } = await backend.call('console/runs', {});
    expect(runs).toHaveLength(1);
    const expected = Math.round(output.report.expectedMatches);
    expect(runs[0]).toMatchObject({
      kind: 'estimate',
      actor: 'console:test',
      datasetId: 'unsupervised-estimate:seed-3',
      datasetDigest: output.model.datasetDigest,
      pairs: output.report.candidates.modelled,
      matches: expected,
      nonMatches: output.report.candidates.modelled - expected,
      versions: output.report.trainedAgainst,
      thresholds: output.report.thresholds.map((t) => t.threshold),
      modelVersion: 'fs-est-1',
    });
    const reopened = await backend.call('console/run', { runId: runs[0]?.runId ?? '' });
    expect(reopened.kind).toBe('estimate');
    if (reopened.kind !== 'estimate') throw new Error('kind');
    expect(reopened.output).toEqual(output);
    expect(reopened.request).toMatchObject({ modelVersion: 'fs-est-1', seed: 3, randomPairs: 20_000 });

    // A refused estimate is not kept.
    expect(await backend.send('matching/estimate', { modelVersion: 'x', randomPairs: 10 })).toMatchObject({
      ok: false,
      error: { kind: 'validation' },
    });
    expect((await backend.call('console/runs', {})).runs).toHaveLength(1);
  });

  it('prunes beyond the limit, oldest first, and skips damaged files', async () => {
    const dir = scratchDir('mpi-runs-').dir;
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const db = join(dir, 's.db');
    await sandbox(db, ['demo']);
    const engine = LocalEngine.open({ dbPath: db });
    cleanups.push(() => {
      engine.close();
    });
    const ctx = { tenantId: 'demo', actor: 't' };
    const { pairs } = await engine.call('labels/sample', { maxPairs: 20, seed: 1 }, ctx);
    const request = { datasetId: 'p', pairs, thresholds: [0.5], maximumErrorExamples: 0 };
    const report = await engine.call('matching/evaluate', request, ctx);
    const runs = new SavedRuns(join(dir, 'data'));
    const start = Date.UTC(2026, 0, 1);
    const saved = Array.from({ length: MAX_RUNS + 3 }, (_, i) =>
      runs.save('key', { kind: 'evaluation', request, report }, 't', new Date(start + i * 1000)),
    );
    const listed = runs.list('key');
    expect(listed).toHaveLength(MAX_RUNS);
    expect(listed[0]?.runId).toBe(saved.at(-1)?.runId);
    expect(listed.some((r) => r.runId === saved[2]?.runId)).toBe(false);
    expect(listed.some((r) => r.runId === saved[3]?.runId)).toBe(true);

    const folder = join(dir, 'data', 'runs', readdirSync(join(dir, 'data', 'runs'))[0] ?? '');
    writeFileSync(join(folder, 'run-20990101T000000Z-00000000.summary.json'), '{not json');
    expect(runs.list('key')).toHaveLength(MAX_RUNS);
    writeFileSync(join(folder, `${listed[0]?.runId ?? ''}.run.json`), '{"kind":"evaluation"}');
    expect(() => runs.get('key', listed[0]?.runId ?? '')).toThrow(/damaged/);
    expect(runs.list('another key')).toEqual([]);
  });
});
