/**
 * Job rows in the registry (migration 0002): creation, the lease-based claim, per-batch progress and the
 * final transitions. Every statement is filtered by tenant. Callers own the transaction: the runner puts a
 * batch's registry writes and its `advance` into one `store.write`.
 *
 * Claim protocol: in one immediate transaction, the oldest job of the tenant that is queued, or running
 * with an expired lease, becomes running with this worker as lease owner and a lease expiring LeaseSeconds
 * from now. Every batch commit checks that the lease owner is still this worker (a worker that lost its lease
 * writes nothing) and renews the lease; while a batch is in progress the runner renews it too. Taking over a
 * running job (its lease expired) counts a takeover; a committed batch resets the count. A worker stopping on
 * request releases its lease (expires it now).
 */
import type { Store } from '../store/store.ts';
import type {
  JobCounters,
  JobKind,
  JobPhase,
  JobState,
  JobStatus,
  PhaseName,
  PhaseStatus,
} from '../contract/maintenance.ts';
import { reviewRate } from '../contract/ingest.ts';
import { COUNTER_NAMES } from '../contract/maintenance.ts';
import { EngineError } from '../contract/errors.ts';
import { assertPhaseTransition, assertTransition, phaseStatusFor, type FinalJobStatus } from './states.ts';

export interface JobRow {
  readonly jobId: string;
  readonly kind: JobKind;
  readonly status: JobStatus;
  readonly reason: string;
  readonly requestedBy: string;
  readonly batchSize: number;
  readonly externalSourceSystem: string | null;
  readonly changedSince: string | null;
  readonly scheduleKey: string | null;
  readonly profileVersion: number | null;
  readonly fingerprint: string | null;
  readonly populationTotal: number | null;
  readonly counters: JobCounters;
  readonly cancelRequestedBy: string | null;
  readonly leaseOwner: string | null;
  readonly leaseExpiresAt: string | null;
  readonly claims: number;
  /** Takeovers of the running job by another worker since its last committed batch. */
  readonly takeovers: number;
  readonly error: string | null;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
}

export interface PhaseRow extends JobPhase {
  readonly ordinal: number;
  /** A paged phase's (importing) next-page URL: null before the first page, '' after the last. Never shown. */
  readonly cursorUrl: string | null;
}

const JOB_COLUMNS = `job_id, kind, status, reason, requested_by, batch_size, external_source_system, changed_since, schedule_key,
  profile_version, fingerprint, population_total, validated, scanned, imported, updated, unchanged, review_created, warning, failure,
  cancel_requested_by, lease_owner, lease_expires_at, claims, takeovers, error, created_at, started_at, finished_at`;

interface RawJob {
  job_id: string;
  kind: JobKind;
  status: JobStatus;
  reason: string;
  requested_by: string;
  batch_size: number;
  external_source_system: string | null;
  changed_since: string | null;
  schedule_key: string | null;
  profile_version: number | null;
  fingerprint: string | null;
  population_total: number | null;
  validated: number;
  scanned: number;
  imported: number;
  updated: number;
  unchanged: number;
  review_created: number;
  warning: number;
  failure: number;
  cancel_requested_by: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  claims: number;
  takeovers: number;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

function jobFromRaw(r: RawJob): JobRow {
  return {
    jobId: r.job_id,
    kind: r.kind,
    status: r.status,
    reason: r.reason,
    requestedBy: r.requested_by,
    batchSize: r.batch_size,
    externalSourceSystem: r.external_source_system,
    changedSince: r.changed_since,
    scheduleKey: r.schedule_key,
    profileVersion: r.profile_version,
    fingerprint: r.fingerprint,
    populationTotal: r.population_total,
    counters: {
      validated: r.validated,
      scanned: r.scanned,
      imported: r.imported,
      updated: r.updated,
      unchanged: r.unchanged,
      reviewCreated: r.review_created,
      warning: r.warning,
      failure: r.failure,
    },
    cancelRequestedBy: r.cancel_requested_by,
    leaseOwner: r.lease_owner,
    leaseExpiresAt: r.lease_expires_at,
    claims: r.claims,
    takeovers: r.takeovers,
    error: r.error,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

export function emptyCounters(): JobCounters {
  return { validated: 0, scanned: 0, imported: 0, updated: 0, unchanged: 0, reviewCreated: 0, warning: 0, failure: 0 };
}

export function addCounters(into: JobCounters, delta: Partial<JobCounters>): void {
  for (const name of COUNTER_NAMES) into[name] += delta[name] ?? 0;
}

export interface NewJob {
  readonly jobId: string;
  readonly kind: JobKind;
  readonly reason: string;
  readonly requestedBy: string;
  readonly batchSize: number;
  readonly externalSourceSystem: string | null;
  readonly changedSince: string | null;
  readonly schedule: { readonly key: string; readonly bucket: number } | null;
  readonly phases: readonly { readonly name: PhaseName; readonly status: 'pending' | 'skipped' }[];
}

/** Inserts a queued job and its phases; false when a job with the same ID or schedule bucket exists. */
export function insertJob(store: Store, tenantId: string, job: NewJob, at: string): boolean {
  const result = store
    .statement(
      `INSERT INTO maintenance_job (tenant_id, job_id, kind, status, reason, requested_by, batch_size, external_source_system,
         changed_since, schedule_key, schedule_bucket, created_at)
       VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    )
    .run(
      tenantId,
      job.jobId,
      job.kind,
      job.reason,
      job.requestedBy,
      job.batchSize,
      job.externalSourceSystem,
      job.changedSince,
      job.schedule?.key ?? null,
      job.schedule?.bucket ?? null,
      at,
    );
  if (result.changes !== 1) return false;
  const insertPhase = store.statement(
    'INSERT INTO maintenance_job_phase (tenant_id, job_id, ordinal, phase, status, note) VALUES (?, ?, ?, ?, ?, ?)',
  );
  job.phases.forEach((phase, index) => {
    insertPhase.run(
      tenantId,
      job.jobId,
      index + 1,
      phase.name,
      phase.status,
      phase.status === 'skipped' ? 'not requested' : null,
    );
  });
  return true;
}

export function jobRow(store: Store, tenantId: string, jobId: string): JobRow | undefined {
  const raw = store
    .statement(`SELECT ${JOB_COLUMNS} FROM maintenance_job WHERE tenant_id = ? AND job_id = ?`)
    .get(tenantId, jobId) as RawJob | undefined;
  return raw === undefined ? undefined : jobFromRaw(raw);
}

export function requireJob(store: Store, tenantId: string, jobId: string): JobRow {
  const row = jobRow(store, tenantId, jobId);
  // The ID is the caller's input, so it is not echoed.
  if (row === undefined)
    throw new EngineError('not_found', 'no job with this ID exists in this tenant', [
      { path: 'jobId', message: 'not found' },
    ]);
  return row;
}

export function phasesOf(store: Store, tenantId: string, jobId: string): PhaseRow[] {
  const rows = store
    .statement(
      `SELECT ordinal, phase, status, cursor_identity_id, cursor_url, processed, note, started_at, finished_at
       FROM maintenance_job_phase WHERE tenant_id = ? AND job_id = ? ORDER BY ordinal`,
    )
    .all(tenantId, jobId) as {
    ordinal: number;
    phase: PhaseName;
    status: PhaseStatus;
    cursor_identity_id: number;
    cursor_url: string | null;
    processed: number;
    note: string | null;
    started_at: string | null;
    finished_at: string | null;
  }[];
  return rows.map((r) => ({
    ordinal: r.ordinal,
    name: r.phase,
    status: r.status,
    cursor: r.cursor_identity_id,
    cursorUrl: r.cursor_url,
    processed: r.processed,
    note: r.note,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  }));
}

export function jobState(store: Store, tenantId: string, row: JobRow): JobState {
  const notes = phaseNotes(store, tenantId, row.jobId);
  const phases = phasesOf(store, tenantId, row.jobId).map(({ ordinal, cursorUrl: _cursorUrl, ...phase }) => {
    const kept = notes.get(ordinal);
    // A phase from before notes were kept (or one marked at creation, "not requested") has its note alone.
    const all = kept === undefined || kept.notes.length === 0 ? (phase.note === null ? [] : [phase.note]) : kept.notes;
    return { ...phase, notes: all, notesNotKept: kept?.notKept ?? 0 };
  });
  const matchedIdentities = phases.find((p) => p.name === 'matching')?.processed ?? 0;
  return {
    jobId: row.jobId,
    kind: row.kind,
    status: row.status,
    reason: row.reason,
    requestedBy: row.requestedBy,
    batchSize: row.batchSize,
    externalSourceSystem: row.externalSourceSystem,
    changedSince: row.changedSince,
    scheduleKey: row.scheduleKey,
    matchingProfileVersion: row.profileVersion,
    populationTotal: row.populationTotal,
    phases,
    counters: row.counters,
    reviewRate: reviewRate(row.counters.reviewCreated, row.counters.imported + matchedIdentities),
    cancelRequested: row.cancelRequestedBy !== null,
    leaseOwner: row.leaseOwner,
    leaseExpiresAt: row.leaseExpiresAt,
    error: row.error,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

/** Newest first; with beforeJobId, only jobs created before that job of the tenant (none if it is not the tenant's). */
export function listJobRows(store: Store, tenantId: string, limit: number, beforeJobId?: string): JobRow[] {
  const rows = (
    beforeJobId === undefined
      ? store
          .statement(`SELECT ${JOB_COLUMNS} FROM maintenance_job WHERE tenant_id = ? ORDER BY job_seq DESC LIMIT ?`)
          .all(tenantId, limit)
      : store
          .statement(
            `SELECT ${JOB_COLUMNS} FROM maintenance_job WHERE tenant_id = ?
               AND job_seq < (SELECT job_seq FROM maintenance_job WHERE tenant_id = ? AND job_id = ?)
             ORDER BY job_seq DESC LIMIT ?`,
          )
          .all(tenantId, tenantId, beforeJobId, limit)
  ) as RawJob[];
  return rows.map(jobFromRaw);
}

/**
 * Takes the oldest claimable job of the tenant (queued, or running with an expired lease) for owner until
 * leaseExpiresAt. One statement; call it inside a write transaction (BEGIN IMMEDIATE) so two workers never
 * claim the same job.
 */
export function claimNextJob(
  store: Store,
  tenantId: string,
  owner: string,
  now: string,
  leaseExpiresAt: string,
): JobRow | undefined {
  const raw = store
    .statement(
      `UPDATE maintenance_job SET status = 'running', lease_owner = ?, lease_expires_at = ?, claims = claims + 1,
         takeovers = CASE WHEN status = 'running' THEN takeovers + 1 ELSE takeovers END, started_at = COALESCE(started_at, ?)
       WHERE tenant_id = ? AND job_seq = (
         SELECT job_seq FROM maintenance_job
         WHERE tenant_id = ? AND (status = 'queued' OR (status = 'running' AND lease_expires_at < ?))
         ORDER BY job_seq LIMIT 1)
       RETURNING ${JOB_COLUMNS}`,
    )
    .get(owner, leaseExpiresAt, now, tenantId, tenantId, now) as RawJob | undefined;
  return raw === undefined ? undefined : jobFromRaw(raw);
}

/** What a job works under, recorded once when it first starts. */
export function recordStart(
  store: Store,
  tenantId: string,
  jobId: string,
  start: { readonly profileVersion: number; readonly fingerprint: string; readonly populationTotal: number | null },
): void {
  store
    .statement(
      `UPDATE maintenance_job SET profile_version = ?, fingerprint = ?, population_total = ?
       WHERE tenant_id = ? AND job_id = ? AND fingerprint IS NULL`,
    )
    .run(start.profileVersion, start.fingerprint, start.populationTotal, tenantId, jobId);
}

export function setPhaseStatus(
  store: Store,
  tenantId: string,
  jobId: string,
  phase: PhaseRow,
  to: PhaseStatus,
  at: string,
): void {
  assertPhaseTransition(phase.status, to);
  store
    .statement(
      `UPDATE maintenance_job_phase SET status = ?,
         started_at = CASE WHEN ? = 'running' THEN COALESCE(started_at, ?) ELSE started_at END,
         finished_at = CASE WHEN ? IN ('completed', 'cancelled', 'failed', 'stopped') THEN ? ELSE finished_at END
       WHERE tenant_id = ? AND job_id = ? AND ordinal = ? AND status = ?`,
    )
    .run(to, to, at, to, at, tenantId, jobId, phase.ordinal, phase.status);
}

/** A phase note: important ones say what the phase concluded; the others name one item each. Never patient values. */
export interface PhaseNote {
  readonly text: string;
  readonly important?: boolean;
}

/** How many notes of each kind a phase keeps; the rest are counted (notes_not_kept). */
export const PHASE_NOTE_BOUNDS = { important: 20, other: 50 } as const;

/** Adds a batch's notes to its phase within the bounds, and keeps the phase's `note` the most important one. */
export function addPhaseNotes(
  store: Store,
  tenantId: string,
  jobId: string,
  ordinal: number,
  notes: readonly PhaseNote[],
): void {
  if (notes.length === 0) return;
  const kept = store
    .statement(
      `SELECT COALESCE(MAX(seq), 0) AS last, COALESCE(SUM(important), 0) AS important, COUNT(*) - COALESCE(SUM(important), 0) AS other
       FROM maintenance_job_phase_note WHERE tenant_id = ? AND job_id = ? AND ordinal = ?`,
    )
    .get(tenantId, jobId, ordinal) as { last: number; important: number; other: number };
  const insert = store.statement(
    'INSERT INTO maintenance_job_phase_note (tenant_id, job_id, ordinal, seq, important, note) VALUES (?, ?, ?, ?, ?, ?)',
  );
  let { last, important, other } = kept;
  let dropped = 0;
  for (const note of notes) {
    const text = note.text.slice(0, 500);
    if (text === '') continue;
    const isImportant = note.important === true;
    if (isImportant ? important >= PHASE_NOTE_BOUNDS.important : other >= PHASE_NOTE_BOUNDS.other) {
      dropped++;
      continue;
    }
    if (isImportant) important++;
    else other++;
    insert.run(tenantId, jobId, ordinal, ++last, isImportant ? 1 : 0, text);
  }
  store
    .statement(
      `UPDATE maintenance_job_phase SET notes_not_kept = notes_not_kept + ?,
         note = (SELECT note FROM maintenance_job_phase_note n WHERE n.tenant_id = maintenance_job_phase.tenant_id AND n.job_id = maintenance_job_phase.job_id
                   AND n.ordinal = maintenance_job_phase.ordinal ORDER BY important DESC, seq LIMIT 1)
       WHERE tenant_id = ? AND job_id = ? AND ordinal = ?`,
    )
    .run(dropped, tenantId, jobId, ordinal);
}

/** Every kept note of a job's phases, by ordinal (important first, then in order), and how many were not kept. */
export function phaseNotes(
  store: Store,
  tenantId: string,
  jobId: string,
): Map<number, { notes: string[]; notKept: number }> {
  const out = new Map<number, { notes: string[]; notKept: number }>();
  const counts = store
    .statement('SELECT ordinal, notes_not_kept FROM maintenance_job_phase WHERE tenant_id = ? AND job_id = ?')
    .all(tenantId, jobId) as { ordinal: number; notes_not_kept: number }[];
  for (const c of counts) out.set(c.ordinal, { notes: [], notKept: c.notes_not_kept });
  const rows = store
    .statement(
      'SELECT ordinal, note FROM maintenance_job_phase_note WHERE tenant_id = ? AND job_id = ? ORDER BY ordinal, important DESC, seq',
    )
    .all(tenantId, jobId) as { ordinal: number; note: string }[];
  for (const row of rows) out.get(row.ordinal)?.notes.push(row.note);
  return out;
}

/** One batch's progress: the phase cursor, the counters and a renewed lease. */
export function advance(
  store: Store,
  tenantId: string,
  jobId: string,
  ordinal: number,
  progress: {
    readonly cursor: number;
    readonly cursorUrl?: string | undefined;
    readonly processed: number;
    readonly counters: Partial<JobCounters>;
  },
  leaseExpiresAt: string,
): void {
  store
    .statement(
      'UPDATE maintenance_job_phase SET cursor_identity_id = ?, cursor_url = COALESCE(?, cursor_url), processed = processed + ? WHERE tenant_id = ? AND job_id = ? AND ordinal = ?',
    )
    .run(progress.cursor, progress.cursorUrl ?? null, progress.processed, tenantId, jobId, ordinal);
  const c = progress.counters;
  store
    .statement(
      `UPDATE maintenance_job SET validated = validated + ?, scanned = scanned + ?, imported = imported + ?, updated = updated + ?,
         unchanged = unchanged + ?, review_created = review_created + ?, warning = warning + ?, failure = failure + ?, lease_expires_at = ?,
         takeovers = 0
       WHERE tenant_id = ? AND job_id = ?`,
    )
    .run(
      c.validated ?? 0,
      c.scanned ?? 0,
      c.imported ?? 0,
      c.updated ?? 0,
      c.unchanged ?? 0,
      c.reviewCreated ?? 0,
      c.warning ?? 0,
      c.failure ?? 0,
      leaseExpiresAt,
      tenantId,
      jobId,
    );
}

export function renewLease(store: Store, tenantId: string, jobId: string, owner: string, leaseExpiresAt: string): void {
  store
    .statement(
      "UPDATE maintenance_job SET lease_expires_at = ? WHERE tenant_id = ? AND job_id = ? AND lease_owner = ? AND status = 'running'",
    )
    .run(leaseExpiresAt, tenantId, jobId, owner);
}

/** A phase finished: progress, as a committed batch is. */
export function markProgress(store: Store, tenantId: string, jobId: string): void {
  store.statement('UPDATE maintenance_job SET takeovers = 0 WHERE tenant_id = ? AND job_id = ?').run(tenantId, jobId);
}

/** Lets another worker resume the job at once (a worker stopping on request). */
export function releaseLease(store: Store, tenantId: string, jobId: string, owner: string, now: string): void {
  renewLease(store, tenantId, jobId, owner, now);
}

/** Moves a job to a final status; its running phase takes the same status (completed phases keep theirs). */
export function finishJob(
  store: Store,
  tenantId: string,
  job: JobRow,
  to: FinalJobStatus,
  error: string | null,
  at: string,
): void {
  assertTransition(job.status, to);
  const result = store
    .statement(
      'UPDATE maintenance_job SET status = ?, error = ?, finished_at = ? WHERE tenant_id = ? AND job_id = ? AND status = ?',
    )
    .run(to, error === null ? null : error.slice(0, 2000), at, tenantId, job.jobId, job.status);
  if (result.changes !== 1)
    throw new EngineError('conflict', `job ${job.jobId} changed status while it was being ${to}`);
  if (to === 'completed') return;
  for (const phase of phasesOf(store, tenantId, job.jobId)) {
    if (phase.status === 'running') setPhaseStatus(store, tenantId, job.jobId, phase, phaseStatusFor(to), at);
  }
}

export function markCancelRequested(store: Store, tenantId: string, jobId: string, actor: string): void {
  store
    .statement(
      "UPDATE maintenance_job SET cancel_requested_by = COALESCE(cancel_requested_by, ?) WHERE tenant_id = ? AND job_id = ? AND status = 'running'",
    )
    .run(actor, tenantId, jobId);
}

/** Every registered tenant (a worker with no tenant given serves them all). */
export function listTenantIds(store: Store): string[] {
  return store.statement('SELECT tenant_id FROM tenant ORDER BY tenant_id').pluck().all() as string[];
}

/** The profile version the newest completed re-index ran under, or undefined when none completed. */
export function lastCompletedReindexVersion(store: Store, tenantId: string): number | undefined {
  const version = store
    .statement(
      "SELECT MAX(profile_version) FROM maintenance_job WHERE tenant_id = ? AND kind = 'reindex' AND status = 'completed'",
    )
    .pluck()
    .get(tenantId) as number | null;
  return version ?? undefined;
}

/**
 * The first re-index that can still write tags, as the read transaction sees it: the lowest job_seq of the tenant's
 * re-indexes that are queued or running, else one past the highest (0 when there is none). Every re-index below it had
 * finished, so whatever tags it wrote are in the transaction's snapshot. Job numbers only grow, and no job is deleted.
 */
export function reindexWatermark(store: Store, tenantId: string): number {
  return Number(
    store
      .statement(
        `SELECT COALESCE(MIN(CASE WHEN status IN ('queued', 'running') THEN job_seq END), MAX(job_seq) + 1, 0)
         FROM maintenance_job WHERE tenant_id = ? AND kind = 'reindex'`,
      )
      .pluck()
      .get(tenantId),
  );
}

/**
 * Whether a re-index may have written tags since the snapshot `reindexWatermark` was read in: one is running, or one
 * at or above the watermark left the queue (it ran, however it ended). A re-index still queued has written nothing.
 */
export function reindexStartedFrom(store: Store, tenantId: string, watermark: number): boolean {
  return (
    store
      .statement(
        `SELECT 1 FROM maintenance_job WHERE tenant_id = ? AND kind = 'reindex'
         AND (status = 'running' OR (job_seq >= ? AND status <> 'queued')) LIMIT 1`,
      )
      .get(tenantId, watermark) !== undefined
  );
}
