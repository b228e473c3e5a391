/** The running phase's time left, from its own pace; later phases named, not guessed; the jobs list's Phase column. */
import { describe, expect, it } from 'vitest';
import type { JobPhase, JobState } from '../../engine/contract/maintenance.ts';
import { phaseCellText, phaseEstimate } from '../../renderer/pages/maintenance/job-text.ts';

const phase = (
  name: JobPhase['name'],
  status: JobPhase['status'],
  processed: number,
  startedAt: string | null,
): JobPhase => ({ name, status, processed, cursor: 0, note: null, startedAt, finishedAt: null });

function job(
  phases: JobPhase[],
  status: JobState['status'] = 'running',
  populationTotal: number | null = 1000,
): JobState {
  return {
    jobId: 'j',
    kind: 'reconciliation',
    status,
    reason: 'r',
    requestedBy: 'a',
    batchSize: 25,
    externalSourceSystem: null,
    changedSince: null,
    scheduleKey: null,
    matchingProfileVersion: 1,
    populationTotal,
    phases,
    counters: {
      validated: 0,
      scanned: 0,
      imported: 0,
      updated: 0,
      unchanged: 0,
      reviewCreated: 0,
      warning: 0,
      failure: 0,
    },
    cancelRequested: false,
    leaseOwner: 'w',
    leaseExpiresAt: null,
    error: null,
    createdAt: '2026-11-01T00:00:00Z',
    startedAt: '2026-11-01T00:00:00Z',
    finishedAt: null,
  };
}

describe('the running phase’s estimate', () => {
  const now = Date.parse('2026-11-01T00:01:00Z');
  it('extrapolates the phase’s own pace to the identities it has left, and names the phases still to run', () => {
    // 250 of 1,000 in the 40 s since the phase started: 120 s left.
    const estimate = phaseEstimate(
      job([
        phase('rebuilding', 'completed', 1000, '2026-11-01T00:00:00Z'),
        phase('matching', 'running', 250, '2026-11-01T00:00:20Z'),
      ]),
      now,
    );
    expect(estimate).toEqual({ phase: 'matching', remainingMs: 120_000, later: [] });
    const first = phaseEstimate(
      job([phase('rebuilding', 'running', 500, '2026-11-01T00:00:00Z'), phase('matching', 'pending', 0, null)]),
      now,
    );
    expect(first).toEqual({ phase: 'rebuilding', remainingMs: 60_000, later: ['matching'] });
  });

  it('measures before it guesses, and says nothing without a total or a running phase', () => {
    expect(phaseEstimate(job([phase('matching', 'running', 0, '2026-11-01T00:00:50Z')]), now)).toEqual({
      phase: 'matching',
      remainingMs: null,
      later: [],
    });
    expect(
      phaseEstimate(job([phase('matching', 'running', 10, '2026-11-01T00:00:50Z')], 'running', null), now),
    ).toBeNull();
    expect(
      phaseEstimate(job([phase('matching', 'completed', 1000, '2026-11-01T00:00:50Z')], 'completed'), now),
    ).toBeNull();
  });
});

describe('the jobs list’s Phase column', () => {
  const at = '2026-11-01T00:00:00Z';
  it('names the phase running, says where an ended job stopped, and never shows a completed job still at a phase', () => {
    expect(phaseCellText(job([phase('validation', 'pending', 0, null)], 'queued'))).toBe('Not started');
    expect(
      phaseCellText(job([phase('validation', 'completed', 10, at), phase('writing', 'running', 3, at)], 'running')),
    ).toBe('Writing');
    expect(
      phaseCellText(
        job([phase('validation', 'completed', 10, at), phase('writing', 'completed', 10, at)], 'completed'),
      ),
    ).toBe('All done');
    expect(
      phaseCellText(job([phase('validation', 'completed', 10, at), phase('writing', 'failed', 3, at)], 'failed')),
    ).toBe('Ended in writing');
    expect(
      phaseCellText(job([phase('validation', 'cancelled', 4, at), phase('writing', 'pending', 0, null)], 'cancelled')),
    ).toBe('Ended in validation');
  });
});
