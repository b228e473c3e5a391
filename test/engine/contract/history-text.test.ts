import { describe, expect, it } from 'vitest';
import { historyText, NO_EVENT_DETAIL, type HistoryEvent } from '../../../engine/contract/identity-history.ts';

const base: HistoryEvent = {
  ...NO_EVENT_DETAIL,
  at: '2026-11-30T10:00:00.000Z',
  kind: 'review-case-opened',
  caseId: 'rc-1a2b',
};

describe('historyText of review cases', () => {
  it('names a case by the kind the Review cases page shows, and says what its score is', () => {
    expect(historyText({ ...base, caseKind: 'IngestionMatch', score: 0.9942, profileVersion: 2 })).toBe(
      'an ingestion review case rc-1a2b opened on a pair scored 0.9942 (profile v2)',
    );
    expect(
      historyText({ ...base, caseKind: 'PopulationReconciliation', score: 0.5, profileVersion: 1, jobId: 'j-9' }),
    ).toBe('a reconciliation review case rc-1a2b opened on a pair scored 0.5000 (profile v1, job j-9)');
    // A link quality case is about one identity: its score is the identity's weakest link, not a pair's match.
    expect(historyText({ ...base, caseKind: 'LinkQuality', score: 0, profileVersion: 1 })).toBe(
      'a link quality review case rc-1a2b opened on its weakest link, scored 0.0000 (profile v1)',
    );
    expect(historyText(base)).toBe('a review case rc-1a2b opened');
  });

  it('says what is known of a link made before the history was kept', () => {
    const linked: HistoryEvent = {
      ...base,
      kind: 'record-linked',
      record: { sourceSystem: 'clinic', localId: 'c1' },
      caseId: null,
    };
    expect(historyText({ ...linked, score: 1 })).toBe(
      'clinic/c1 linked with score 1.0000 (before the history was kept: how it was decided is not recorded)',
    );
    expect(historyText(linked)).toBe(
      'clinic/c1 linked (before the history was kept: how it was decided is not recorded)',
    );
  });

  it('says a decision in words, with who made it', () => {
    const decided: HistoryEvent = { ...base, kind: 'review-decided', actor: 'analyst-7' };
    expect(historyText({ ...decided, decision: 'different-people' })).toBe(
      'review case rc-1a2b decided: different people, by analyst-7',
    );
    expect(historyText({ ...decided, decision: 'same-person' })).toBe(
      'review case rc-1a2b decided: same person, by analyst-7',
    );
    expect(historyText({ ...decided, decision: 'unsure', actor: null })).toBe(
      'review case rc-1a2b decided: unsure, by an unknown reviewer',
    );
  });
});
