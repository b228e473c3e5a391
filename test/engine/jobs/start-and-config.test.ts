/**
 * Starting, listing and showing jobs through the contract and the CLI: batch size 1-25, external import
 * not yet supported, history newest first, a percentage only with a known population; the Maintenance
 * configuration section with errors naming the key; OpenTelemetry metrics.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { metrics } from '@opentelemetry/api';
import { AggregationTemporality, MeterProvider, MetricReader, type CollectionResult } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { loadSettings, settingsPathFor } from '../../../engine/config/settings.ts';
import { maintenanceSettings } from '../../../engine/config/maintenance.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { Store } from '../../../engine/store/store.ts';
import { CTX, TENANT, cli, makeSandbox } from './helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

let dir: string;
let cleanup: () => void;
let db: string;
let engine: LocalEngine;

beforeAll(async () => {
  ({ dir, cleanup } = scratchDir());
  db = await makeSandbox(dir, 'registry', 150, 2);
  engine = LocalEngine.open({ dbPath: db });
});

afterAll(() => {
  engine.close();
  cleanup();
});

describe('starting jobs', () => {
  it.each([0, 26, -1, 2.5])('refuses batch size %s (contract, CLI and schema)', async (batchSize) => {
    await expect(engine.call('maintenance/reindex', { reason: 'r', batchSize }, CTX)).rejects.toMatchObject({
      kind: 'validation',
      issues: [expect.objectContaining({ path: 'batchSize' })],
    });
    await expect(engine.call('maintenance/reconcile', { reason: 'r', batchSize }, CTX)).rejects.toMatchObject({
      kind: 'validation',
    });
  });

  it('refuses bad batch sizes on the command line and in the table itself', () => {
    for (const size of ['0', '26']) {
      const result = cli(db, ['reindex', '--reason', 'r', '--batch-size', size]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('batchSize');
    }
    const store = Store.open(db);
    try {
      expect(() =>
        store
          .statement(
            "INSERT INTO maintenance_job (tenant_id, job_id, kind, status, reason, requested_by, batch_size, created_at) VALUES (?, 'job-direct-0001', 'reindex', 'queued', 'r', 'x', 26, 'now')",
          )
          .run(TENANT),
      ).toThrow(/CHECK constraint failed/);
    } finally {
      store.close();
    }
  });

  it('refuses an empty reason, an unknown external source, import and a changed-since window without one', async () => {
    await expect(engine.call('maintenance/reindex', { reason: '  ', batchSize: 5 }, CTX)).rejects.toMatchObject({
      kind: 'validation',
    });
    await expect(
      engine.call('maintenance/reconcile', { reason: 'r', batchSize: 5, externalSourceSystem: 'nowhere' }, CTX),
    ).rejects.toMatchObject({
      issues: [
        { path: 'externalSourceSystem', message: expect.stringMatching(/not in the tenant's SourceTrust/) as unknown },
      ],
    });
    await expect(
      engine.call('maintenance/reconcile', { reason: 'r', batchSize: 5, externalSourceSystem: 'northside-gp' }, CTX),
    ).rejects.toMatchObject({
      issues: [
        {
          path: 'externalSourceSystem',
          message: expect.stringMatching(/no external FHIR source is configured/) as unknown,
        },
      ],
    });
    await expect(
      engine.call('maintenance/reconcile', { reason: 'r', batchSize: 5, changedSince: '2024-01-01T00:00:00Z' }, CTX),
    ).rejects.toMatchObject({
      issues: [{ path: 'changedSince' }],
    });
    await expect(engine.call('jobs/get', { jobId: 'job-unknown-1' }, CTX)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('keeps jobs to their tenant', async () => {
    const other = { tenantId: 'other-tenant', actor: 'x' };
    await engine.call('sandbox/create', { syntheticPeople: 0, seed: 1 }, other);
    const { jobId } = await engine.call('maintenance/reindex', { reason: 'tenant isolation', batchSize: 5 }, CTX);
    await expect(engine.call('jobs/get', { jobId }, other)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(engine.call('jobs/cancel', { jobId }, other)).rejects.toMatchObject({ kind: 'not_found' });
    expect((await engine.call('jobs/list', { limit: 10 }, other)).rows).toEqual([]);
    await runWorker(engine.env, { tenants: ['other-tenant'], once: true });
    expect((await engine.call('jobs/get', { jobId }, CTX)).status).toBe('queued');
    await engine.call('jobs/cancel', { jobId }, CTX);
  });

  it('answers at once with a queued job, lists history newest first and shows phases, counters and a percentage', async () => {
    const first = await engine.call('maintenance/reindex', { reason: 'first', batchSize: 25 }, CTX);
    const second = await engine.call('maintenance/reconcile', { reason: 'second', batchSize: 25 }, CTX);
    expect(first.status).toBe('queued');
    const queued = await engine.call('jobs/get', { jobId: second.jobId }, CTX);
    expect(queued).toMatchObject({ status: 'queued', populationTotal: null, matchingProfileVersion: null });
    expect(queued.phases.map((p) => [p.name, p.status])).toEqual([
      ['importing', 'skipped'],
      ['rebuilding', 'pending'],
      ['matching', 'pending'],
    ]);
    const list = await engine.call('jobs/list', { limit: 2 }, CTX);
    expect(list.rows.map((j) => j.jobId)).toEqual([second.jobId, first.jobId]);

    const reader = new TestReader();
    const provider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(provider);
    try {
      await runWorker(engine.env, { tenants: [TENANT], once: true });
      const done = await engine.call('jobs/get', { jobId: second.jobId }, CTX);
      const total = done.populationTotal ?? 0;
      expect(total).toBeGreaterThan(100);
      expect(done.counters.scanned).toBe(2 * total);
      expect(done.phases.map((p) => p.processed)).toEqual([0, total, total]);

      const collected: CollectionResult = await reader.collect();
      const points = collected.resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
      const jobs = points.find((m) => m.descriptor.name === 'service.maintenance.jobs');
      const items = points.find((m) => m.descriptor.name === 'service.maintenance.items');
      const sum = (metric: typeof jobs, attributes: Record<string, string>): number =>
        (metric?.dataPoints ?? [])
          .filter((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v))
          .reduce((n, p) => n + (p.value as number), 0);
      expect(sum(jobs, { kind: 'reconciliation', status: 'completed' })).toBe(1);
      expect(sum(jobs, { kind: 'reindex', status: 'completed' })).toBe(1);
      expect(sum(items, { kind: 'reconciliation', phase: 'rebuilding', outcome: 'scanned' })).toBe(total);
      expect(sum(items, { kind: 'reconciliation', phase: 'matching', outcome: 'scanned' })).toBe(total);
    } finally {
      metrics.disable();
      await provider.shutdown();
    }

    const shown = cli(db, ['job', 'show', second.jobId]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/status\s+completed/);
    expect(shown.stdout).toMatch(/rebuilding\s+completed\s+\d+\s+100%/);
    expect(shown.stdout).toMatch(/importing\s+skipped/);
    const listed = cli(db, ['jobs']);
    expect(listed.stdout.split('\n')[2]).toContain(second.jobId);
  });
});

describe('the Maintenance configuration section', () => {
  function withSection(section: unknown): () => unknown {
    const path = settingsPathFor(db);
    const original = readFileSync(path, 'utf8');
    const settings = JSON.parse(original) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...settings, Maintenance: section }));
    return () => {
      try {
        return loadSettings(path);
      } finally {
        writeFileSync(path, original);
      }
    };
  }

  it('fills in defaults when absent', () => {
    const settings = loadSettings(settingsPathFor(db));
    expect(maintenanceSettings(settings)).toEqual({
      WorkerEnabled: true,
      PollIntervalSeconds: 5,
      LeaseSeconds: 60,
      ReconciliationSchedules: [],
      FhirSources: [],
      AllowInsecureHttp: false,
    });
  });

  it.each([
    [{ LeaseSeconds: 0 }, 'Maintenance.LeaseSeconds'],
    [{ PollIntervalSeconds: 1.5 }, 'Maintenance.PollIntervalSeconds'],
    [{ WorkerEnabled: 'yes' }, 'Maintenance.WorkerEnabled'],
    [{ Workers: 2 }, 'Maintenance'],
    [
      { ReconciliationSchedules: [{ Key: 'n', TenantId: TENANT, IntervalMinutes: 60, BatchSize: 30 }] },
      'Maintenance.ReconciliationSchedules[0].BatchSize',
    ],
    [
      { ReconciliationSchedules: [{ Key: 'n', TenantId: TENANT, IntervalMinutes: 0, BatchSize: 5 }] },
      'Maintenance.ReconciliationSchedules[0].IntervalMinutes',
    ],
    [
      {
        ReconciliationSchedules: [
          { Key: 'n', TenantId: TENANT, IntervalMinutes: 60, BatchSize: 5 },
          { Key: 'n', TenantId: TENANT, IntervalMinutes: 30, BatchSize: 5 },
        ],
      },
      'Maintenance.ReconciliationSchedules[1].Key',
    ],
    [
      {
        ReconciliationSchedules: [{ Key: 'n', TenantId: TENANT, SourceSystem: 'x', IntervalMinutes: 60, BatchSize: 5 }],
      },
      'Maintenance.ReconciliationSchedules[0].SourceSystem',
    ],
  ])('rejects %j naming %s', (section, path) => {
    const load = withSection(section);
    expect(load).toThrow(
      expect.objectContaining({
        kind: 'validation',
        issues: expect.arrayContaining([expect.objectContaining({ path })]) as unknown,
      }),
    );
  });

  it('refuses to run the worker when it is disabled', () => {
    const path = settingsPathFor(db);
    const original = readFileSync(path, 'utf8');
    writeFileSync(path, JSON.stringify({ ...(JSON.parse(original) as object), Maintenance: { WorkerEnabled: false } }));
    try {
      const result = cli(db, ['worker', '--once']);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('Maintenance.WorkerEnabled is false');
    } finally {
      writeFileSync(path, original);
    }
  });
});
