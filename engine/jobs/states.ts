/**
 * Job and phase states: string unions (in the contract) and one transition table each, drawn once here.
 *
 *   job        trigger                                                  next
 *   ─────────  ───────────────────────────────────────────────────────  ─────────
 *   queued     a worker claims it (lease taken)                         running
 *   queued     cancel request (takes effect at once)                    cancelled
 *   running    lease expired, another worker claims it                  running    (resumes from the stored cursors)
 *   running    cancel request, seen at the next batch boundary          cancelled  (at once when no lease is live)
 *   running    every phase done                                         completed  (audited)
 *   running    re-index validation found an identity with no shared     failed     (audited; no identity changed)
 *              key, a permanent error, or a batch kept conflicting
 *   running    configuration fingerprint changed (matching rules,       stopped    (audited; start a new job)
 *              source trust, blocking rules or keys)
 *   completed, cancelled, failed, stopped: final
 *
 *   phase      trigger                                                  next
 *   ─────────  ───────────────────────────────────────────────────────  ─────────
 *   pending    the job reaches it                                       running
 *   pending    not requested (Importing without an external source)     skipped    (set when the job is created)
 *   running    no identity left after its cursor                        completed
 *   running    the job is cancelled / fails / is stopped                cancelled / failed / stopped
 *   Phases after the running one stay pending when a job ends early: they never ran.
 */
import type { JobStatus, PhaseStatus } from '../contract/maintenance.ts';
import { EngineError } from '../contract/errors.ts';

export const JOB_TRANSITIONS: { readonly [S in JobStatus]: readonly JobStatus[] } = {
  queued: ['running', 'cancelled'],
  running: ['running', 'completed', 'cancelled', 'failed', 'stopped'],
  completed: [],
  cancelled: [],
  failed: [],
  stopped: [],
};

export const PHASE_TRANSITIONS: { readonly [S in PhaseStatus]: readonly PhaseStatus[] } = {
  pending: ['running', 'skipped'],
  running: ['completed', 'cancelled', 'failed', 'stopped'],
  completed: [],
  skipped: [],
  cancelled: [],
  failed: [],
  stopped: [],
};

/** The job statuses after which nothing changes. */
export type FinalJobStatus = 'completed' | 'cancelled' | 'failed' | 'stopped';

export function isFinal(status: JobStatus): status is FinalJobStatus {
  return JOB_TRANSITIONS[status].length === 0;
}

export function canTransition(from: JobStatus, to: JobStatus): boolean {
  return JOB_TRANSITIONS[from].includes(to);
}

/** Refuses a transition the table does not allow (a programming error or a lost race, never user input). */
export function assertTransition(from: JobStatus, to: JobStatus): void {
  if (!canTransition(from, to)) throw new EngineError('conflict', `a ${from} job cannot become ${to}`);
}

export function assertPhaseTransition(from: PhaseStatus, to: PhaseStatus): void {
  if (!PHASE_TRANSITIONS[from].includes(to)) throw new EngineError('internal', `a ${from} phase cannot become ${to}`);
}

/** The phase status a job's running phase takes when the job ends with this status. */
export function phaseStatusFor(jobStatus: FinalJobStatus): PhaseStatus {
  return jobStatus;
}
