/**
 * What a phase does per batch. A batch is read (outside the write lock, in one read snapshot) into a plan;
 * the plan's write runs inside the batch's write transaction, checks the logical versions the read saw and
 * throws a conflict when anything changed, so the runner can roll back and retry the batch on fresh data.
 */
import type { JobCounters } from '../contract/maintenance.ts';
import type { KeyRing } from '../blocking/tags.ts';
import type { Store } from '../store/store.ts';
import type { StoredProfile } from '../store/profiles.ts';
import type { JobRow, PhaseNote, PhaseRow } from './job-store.ts';

export interface BatchPlan {
  /** The phase cursor after this batch: the last identity it read (a paged phase: the pages committed). */
  readonly lastIdentityId: number;
  /** A paged phase's next-page URL after this batch ('' when it was the last page). */
  readonly cursorUrl?: string;
  /** Identities in the batch. */
  readonly items: number;
  /** Counters known from the read. */
  readonly counters: Partial<JobCounters>;
  /** Notes for the phase (job-store.ts addPhaseNotes: bounded, the important ones first), never patient values. */
  readonly notes?: readonly PhaseNote[];
  /**
   * Version-checked registry writes; returns the counters only the write can know (inserted review cases).
   * isolated: false at first; true when the runner writes the batch again after this write threw BatchItemFailed.
   */
  write(at: string, isolated: boolean): Partial<JobCounters>;
}

/**
 * Thrown by a plan's write when one of its items failed on write: the runner rolls the batch back and calls write
 * again, isolated, in a new transaction, where the plan writes each item in a savepoint of its own and refuses
 * the failing one alone. The cause is kept for the code, never shown (it can quote values).
 */
export class BatchItemFailed extends Error {
  constructor(cause: unknown) {
    super('an item of the batch failed on write', { cause });
    this.name = 'BatchItemFailed';
  }
}

export interface PhaseWork {
  /** The next batch after cursor, or null when the phase has no identity left. */
  readBatch(cursor: number, batchSize: number): BatchPlan | null;
  /**
   * A paged phase (importing) reads its batch from outside the registry: the runner awaits this instead of
   * readBatch, outside any transaction, with the phase's stored cursor. The signal aborts when the job is
   * cancelled or the worker is asked to stop: the read is then abandoned (SourceAborted), nothing written.
   */
  readPage?(phase: PhaseRow, signal?: AbortSignal): Promise<BatchPlan | null>;
  /** Releases what the phase holds (connections) when the run ends. */
  dispose?(): Promise<void>;
  /** At the end of the phase: a message fails the job (without further writes), null lets it go on. */
  finish?(job: JobRow): string | null;
}

/** What every phase of one run works with: the profile version recorded at start and the keys of the configuration file. */
export interface JobContext {
  readonly store: Store;
  readonly tenantId: string;
  /** The job's ID: review cases it opens name it. */
  readonly jobId: string;
  readonly profile: StoredProfile;
  readonly ring: KeyRing;
}
