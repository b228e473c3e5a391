/**
 * Words and numbers the Maintenance page shows for a job: labels, the current phase, what cancelling does
 * (spec, "States and transitions"), the work done so far, and a percentage only when the population total is
 * known (spec item 13: no percentage without a reliable total).
 */
import type {
  CounterName,
  JobKind,
  JobPhase,
  JobState,
  JobStatus,
  PhaseName,
  PhaseStatus,
} from '../../../engine/contract/maintenance.ts';

export const KIND_LABEL: Record<JobKind, string> = { reindex: 'Re-index', reconciliation: 'Reconciliation' };

export const PHASE_LABEL: Record<PhaseName, string> = {
  validation: 'Validation',
  writing: 'Writing',
  importing: 'Importing',
  rebuilding: 'Rebuilding',
  matching: 'Matching',
};

export const PHASE_PURPOSE: Record<PhaseName, string> = {
  validation:
    'checks every active identity keeps a blocking key in both the old and the target index, before any write',
  writing: 'writes the new blocking tags in batches',
  importing: 'imports changed patients from the external FHIR source',
  rebuilding: 'rebuilds canonical identities from their source records',
  matching: 're-runs bounded matching; likely duplicates become review cases',
};

export const STATUS_LABEL: Record<JobStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  cancelled: 'Cancelled',
  failed: 'Failed',
  stopped: 'Stopped',
};

export const STATUS_COLOR: Record<JobStatus, string> = {
  queued: 'gray',
  running: 'blue',
  completed: 'teal',
  cancelled: 'gray',
  failed: 'red',
  stopped: 'orange',
};

export const PHASE_STATUS_LABEL: Record<PhaseStatus, string> = {
  pending: 'Pending',
  running: 'Running',
  completed: 'Completed',
  skipped: 'Skipped',
  cancelled: 'Cancelled',
  failed: 'Failed',
  stopped: 'Stopped',
};

export const COUNTERS: readonly { readonly name: CounterName; readonly label: string; readonly help: string }[] = [
  { name: 'validated', label: 'Validated', help: 'identities checked by re-index validation' },
  { name: 'scanned', label: 'Scanned', help: 'identities visited, counted once per phase' },
  { name: 'imported', label: 'Imported', help: 'patients imported from an external source' },
  { name: 'updated', label: 'Updated', help: 'identities whose tags or canonical record changed' },
  { name: 'unchanged', label: 'Unchanged', help: 'identities already up to date' },
  { name: 'reviewCreated', label: 'Review created', help: 'new review cases for a person to decide' },
  { name: 'warning', label: 'Warning', help: 'items reported for attention, nothing changed for them' },
  { name: 'failure', label: 'Failure', help: 'items that could not be processed' },
];

export function isActive(job: Pick<JobState, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'running';
}

/** A running job whose lease has expired: its worker stopped, and it waits for a worker to resume it. */
export function isStalled(job: JobState, now = Date.now()): boolean {
  return job.status === 'running' && (job.leaseExpiresAt === null || Date.parse(job.leaseExpiresAt) <= now);
}

/** A phase's status in words; a phase a finished job never reached did not run (it is not still pending). */
export function phaseStatusText(job: JobState, phase: JobPhase): string {
  return phase.status === 'pending' && !isActive(job) ? 'Not run' : PHASE_STATUS_LABEL[phase.status];
}

/** The phase running now, else the last phase the job reached. */
function currentPhase(job: JobState): JobPhase | undefined {
  return (
    job.phases.find((p) => p.status === 'running') ??
    job.phases.findLast((p) => p.status !== 'pending' && p.status !== 'skipped')
  );
}

/**
 * The jobs list's Phase column: the phase running now; where an ended job stopped; never the last phase's name
 * beside a completed job, which read as if it were still at it.
 */
export function phaseCellText(job: JobState): string {
  if (job.status === 'completed') return 'All done';
  const phase = currentPhase(job);
  if (phase === undefined) return 'Not started';
  return job.status === 'running' || job.status === 'queued'
    ? PHASE_LABEL[phase.name]
    : `Ended in ${PHASE_LABEL[phase.name].toLowerCase()}`;
}

/**
 * What a cancel does for this job now (null: it cannot be cancelled). A running job is stopped by its worker
 * at the next batch boundary; when no worker holds its lease (the worker stopped), it is cancelled at once.
 */
export function cancelEffect(job: JobState, now = Date.now()): string | null {
  if (job.status === 'queued') return 'The job has not started: it is cancelled at once.';
  if (job.status !== 'running') return null;
  if (isStalled(job, now)) {
    return 'No worker holds this job right now: it is cancelled at once, keeping the batches already committed.';
  }
  return job.cancelRequested
    ? 'Cancel requested: the job stops at the next batch boundary; the batch in progress is committed first.'
    : 'The job is running: it stops at the next batch boundary; the batch in progress is committed first.';
}

/** Identities finished across all phases: the work measure behind the rate and the throughput chart. */
export function itemsDone(job: JobState): number {
  return job.phases.reduce((sum, phase) => sum + phase.processed, 0);
}

/** Fractions 0–1 of the whole job and of each phase, or null when no reliable population total exists. */
export function progressOf(job: JobState): { overall: number; phases: Map<PhaseName, number> } | null {
  const total = job.populationTotal;
  if (total === null) return null;
  const counted = job.phases.filter((p) => p.status !== 'skipped');
  const phases = new Map<PhaseName, number>();
  for (const phase of counted) {
    phases.set(phase.name, phase.status === 'completed' ? 1 : total === 0 ? 0 : Math.min(1, phase.processed / total));
  }
  const overall =
    job.status === 'completed'
      ? 1
      : counted.length === 0
        ? 0
        : [...phases.values()].reduce((a, b) => a + b, 0) / counted.length;
  return { overall, phases };
}

export interface PhaseEstimate {
  readonly phase: PhaseName;
  /** Milliseconds left in the running phase at its pace so far; null until it has finished some identities. */
  readonly remainingMs: number | null;
  /** The phases still to run after it (their pace is not known until they run). */
  readonly later: readonly PhaseName[];
}

/**
 * How long the running phase has left, from its own pace since it started (time per identity so far × identities
 * left of the population total). Phases cost very different amounts per identity (matching compares, rebuilding
 * rewrites), so no estimate is made for the whole job: the phases still to come are named instead. Null when no
 * phase is running or the total is unknown.
 */
export function phaseEstimate(job: JobState, now = Date.now()): PhaseEstimate | null {
  const total = job.populationTotal;
  if (job.status !== 'running' || total === null) return null;
  const index = job.phases.findIndex((p) => p.status === 'running');
  const phase = job.phases[index];
  if (phase === undefined) return null;
  const later = job.phases
    .slice(index + 1)
    .filter((p) => p.status === 'pending')
    .map((p) => p.name);
  const started = phase.startedAt === null ? Number.NaN : Date.parse(phase.startedAt);
  if (phase.processed <= 0 || !Number.isFinite(started) || now <= started)
    return { phase: phase.name, remainingMs: null, later };
  const perIdentity = (now - started) / phase.processed;
  return { phase: phase.name, remainingMs: Math.max(0, total - phase.processed) * perIdentity, later };
}
