/**
 * A sandbox tenant: a registry with the demo profile, a fresh HMAC blocking key in the configuration file
 * and, optionally, a seeded synthetic population ingested source by source (with its ground truth kept
 * for labelled-pair sampling). Only synthetic records are ever used for the demo.
 */
import { setImmediate } from 'node:timers/promises';
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { inCallTenant } from '../store/tenant-scope.ts';
import { conflict } from '../contract/errors.ts';
import type { IngestReport } from '../contract/ingest.ts';
import { newSecret, withTenantKeys } from '../config/settings.ts';
import { defaultProfile } from '../profile/default-profile.ts';
import { parseProfile } from '../profile/validate.ts';
import { insertActiveProfile } from '../store/profiles.ts';
import { insertTenant, tenantExists } from '../store/tenants.ts';
import { latestAction, writeAudit } from '../store/audit.ts';
import { NATIONAL_ID_SYSTEM } from '../synthetic/national-id.ts';
import { SYNTHETIC_SOURCES } from '../synthetic/sources.ts';
import type { SyntheticRecord } from '../synthetic/generate.ts';
import { loadSynthetic } from '../synthetic/load.ts';
import { Ingestor } from '../ingest/ingestor.ts';
import { ChunkWrites } from '../ingest/chunk-writes.ts';
import { insertRow, type DeferredTable } from '../store/deferred-rows.ts';
import { emptyReport, ingestChunk, prepareLine, tally as tallyInto, CHUNK_LINES } from '../ingest/ndjson.ts';
import type { EngineEnv } from '../env.ts';
import type { Store } from '../store/store.ts';
import { FieldCompleteness } from '../ingest/field-completeness.ts';
import { recordHealthSample } from '../store/health.ts';
import { emitHealthMetrics } from '../telemetry/health-metrics.ts';
import { ingestHealthSample } from './ingest.ts';

/** Each synthetic record's person, which no write of the load reads back: with the chunk's other deferred rows. */
const TRUTH: DeferredTable = {
  insert: 'INSERT INTO synthetic_truth (tenant_id, source_system, local_id, person_id)',
  width: 4,
  onConflict: 'DO NOTHING',
};

export function sandboxProfile(): ReturnType<typeof defaultProfile> {
  const profile = defaultProfile(
    SYNTHETIC_SOURCES.map((s) => ({ SourceSystem: s.sourceSystem, LocalIdentifierSystem: s.localIdentifierSystem })),
  );
  return { ...profile, TrustedIdentifierSystems: [NATIONAL_ID_SYSTEM] };
}

/** The audit actions that open and close a synthetic load: one opened and never closed was interrupted. */
const LOAD_STARTED = 'sandbox.synthetic-load-started';
const LOAD_FINISHED = 'sandbox.synthetic-load';

/** Whether the tenant's last synthetic load started and never finished (interrupted, or failed part way). */
function loadUnfinished(store: Store, tenantId: string): boolean {
  return latestAction(store, tenantId, [LOAD_STARTED, LOAD_FINISHED]) === LOAD_STARTED;
}

const tenantExistsError = (store: Store, tenantId: string): Error =>
  conflict(
    loadUnfinished(store, tenantId)
      ? `tenant "${tenantId}" already exists in this database, and its synthetic load did not finish: it holds only part of the population, so do not take it for a whole sandbox; choose another --tenant, or start a new --db file`
      : `tenant "${tenantId}" already exists in this database; use it as it is, choose another --tenant, or start a new --db file`,
  );

/**
 * Registers a tenant with a profile (default: the sandbox one) and a fresh blocking key for the profile's
 * active key version: the key in the configuration file and the tenant, profile and audit rows in the
 * registry are written together or not at all, under the configuration lock (engine/config/settings-file.ts).
 * A key the file already holds for this tenant ID (two databases sharing one configuration) is kept.
 */
export const createTenant = inCallTenant(function createTenant(
  env: EngineEnv,
  ctx: CallContext,
  profile: unknown = sandboxProfile(),
): number {
  const parsed = parseProfile(profile);
  if (tenantExists(env.store, ctx.tenantId)) throw tenantExistsError(env.store, ctx.tenantId);
  return env.changeSettings((settings) => {
    const keys = new Map(settings.BlockingKeys.get(ctx.tenantId));
    if (!keys.has(parsed.Blocking.ActiveKeyVersion)) keys.set(parsed.Blocking.ActiveKeyVersion, newSecret());
    return {
      next: withTenantKeys(settings, ctx.tenantId, keys),
      commit: (changeId) => {
        if (tenantExists(env.store, ctx.tenantId)) throw tenantExistsError(env.store, ctx.tenantId);
        const at = new Date().toISOString();
        insertTenant(env.store, ctx.tenantId, at);
        const version = insertActiveProfile(env.store, ctx.tenantId, parsed, 'initial profile', at);
        writeAudit(
          env.store,
          ctx.tenantId,
          {
            actor: ctx.actor,
            action: 'tenant.create',
            subject: `tenant/${ctx.tenantId}`,
            detail: { matchingProfileVersion: version, changeId },
          },
          at,
        );
        return version;
      },
    };
  });
});

/** How far a sandbox creation is: the population is generated in one step, then ingested chunk by chunk. */
export interface SandboxProgress {
  readonly stage: 'generating' | 'ingesting';
  /** Records ingested so far (0 while generating). */
  readonly done: number;
  /** Records to ingest (0 while generating: not known yet). */
  readonly total: number;
}

export async function createSandbox(
  env: EngineEnv,
  input: OperationInput<'sandbox/create'>,
  ctx: CallContext,
  onProgress?: (progress: SandboxProgress) => void,
): Promise<OperationOutput<'sandbox/create'>> {
  const version = createTenant(env, ctx);
  const people = input.syntheticPeople ?? 0;
  const reports = new Map<string, IngestReport>();
  let records = 0;
  if (people > 0) {
    // Closed by LOAD_FINISHED below: a load stopped between them leaves the tenant saying so (tenantExistsError).
    env.store.write(() => {
      writeAudit(env.store, ctx.tenantId, {
        actor: ctx.actor,
        action: LOAD_STARTED,
        subject: `tenant/${ctx.tenantId}`,
        detail: { people, seed: input.seed ?? 1 },
      });
    });
    onProgress?.({ stage: 'generating', done: 0, total: 0 });
    const { generatePopulation } = await loadSynthetic();
    const population = generatePopulation({ people, seed: input.seed ?? 1 });
    records = population.records.length;
    onProgress?.({ stage: 'ingesting', done: 0, total: records });
    const settings = env.settings();
    // Each source's ingestor, and its health figures as a separate ingest of it would record them: the fields its new
    // records carry, and its time. The sources are loaded together, chunk by chunk, so each chunk's time is shared
    // among its sources by their records in it.
    const sources = new Map(
      SYNTHETIC_SOURCES.map((s) => [
        s.sourceSystem,
        {
          // The sources are one load: each judges its pairs at the size the whole population brings the registry to.
          ingestor: new Ingestor(env.store, ctx.tenantId, s.sourceSystem, settings, null, { expectedRecords: records }),
          present: new FieldCompleteness(),
          durationMs: 0,
        },
      ]),
    );
    const lineOf = new Map<string, number>();
    // Each chunk's records are let go once written: a million people are close to 4 GB of objects, and holding them
    // all to the end left the heap at its limit, collecting for most of the load.
    const pending: (SyntheticRecord | null)[] = population.records;
    for (let start = 0; start < pending.length; start += CHUNK_LINES) {
      const chunkStarted = performance.now();
      const chunk = pending.slice(start, start + CHUNK_LINES).filter((record) => record !== null);
      const prepared = chunk.map((record) => {
        const source = sources.get(record.sourceSystem);
        if (source === undefined) throw new Error('unknown synthetic source');
        return { record, source, resource: prepareLine(source.ingestor, JSON.stringify(record.patient)) };
      });
      const at = new Date().toISOString();
      const outcomes = ingestChunk(
        env.store,
        prepared,
        () =>
          new ChunkWrites(
            env.store,
            ctx.tenantId,
            prepared.map((item) => item.resource),
          ),
        ({ record, source, resource }, isolated, chunk) => {
          const outcome = source.ingestor.apply(resource, at, isolated, chunk);
          insertRow(
            env.store,
            TRUTH,
            [ctx.tenantId, record.sourceSystem, record.localId, record.personId],
            chunk?.rows,
          );
          return outcome;
        },
        () => {
          for (const { ingestor } of sources.values()) ingestor.discardCaches();
        },
      );
      const perRecordMs = (performance.now() - chunkStarted) / Math.max(1, chunk.length);
      chunk.forEach((record, index) => {
        const report = reports.get(record.sourceSystem) ?? emptyReport(record.sourceSystem, version);
        reports.set(record.sourceSystem, report);
        const line = (lineOf.get(record.sourceSystem) ?? 0) + 1;
        lineOf.set(record.sourceSystem, line);
        report.lines = line;
        const item = prepared[index];
        const outcome = outcomes[index];
        if (item === undefined || outcome === undefined) return;
        item.source.durationMs += perRecordMs;
        tallyInto(report, line, outcome, item.resource);
        if (outcome.kind === 'created' && item.resource.kind === 'ready')
          item.source.present.count(item.resource.write.fields);
      });
      pending.fill(null, start, start + CHUNK_LINES);
      onProgress?.({ stage: 'ingesting', done: Math.min(start + CHUNK_LINES, records), total: records });
      // Between chunks the host's signals and timers run: a command line stopped by Ctrl-C stops here.
      await setImmediate();
    }
    const samples = [...reports.values()].map((report) => {
      const source = sources.get(report.sourceSystem);
      if (source === undefined) throw new Error('unknown synthetic source');
      return ingestHealthSample(report, source.present, source.durationMs, source.ingestor);
    });
    env.store.write(() => {
      // The load is each source's first ingest on the Health page, the baseline its later ingests are compared with.
      for (const sample of samples) recordHealthSample(env.store, ctx.tenantId, sample);
      writeAudit(env.store, ctx.tenantId, {
        actor: ctx.actor,
        action: LOAD_FINISHED,
        subject: `tenant/${ctx.tenantId}`,
        detail: { people, seed: input.seed ?? 1, records },
      });
    });
    for (const sample of samples) emitHealthMetrics(sample);
  }
  return {
    tenantId: ctx.tenantId,
    matchingProfileVersion: version,
    syntheticPeople: people,
    syntheticRecords: records,
    ingest: [...reports.values()],
  };
}
