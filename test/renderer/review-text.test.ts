import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../renderer/format.ts';
import {
  ageText,
  nextCaseOf,
  pageStartWithin,
  pageText,
  queueText,
  shortCaseId,
  staleText,
} from '../../renderer/pages/reviews/review-text.ts';

describe('review case words', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('says a case’s age in its largest whole unit', () => {
    expect(ageText('2026-11-26T11:59:30Z', now)).toBe('just now');
    expect(ageText('2026-11-26T11:55:00Z', now)).toBe('5 min');
    expect(ageText('2026-11-26T09:00:00Z', now)).toBe('3 h');
    expect(ageText('2026-11-24T11:00:00Z', now)).toBe('2 days');
    expect(ageText('not a date', now)).toBe('—');
  });
  it('names a page of cases and shortens case IDs', () => {
    expect(pageText(50, 50, 263)).toBe(`Cases 51–100 of ${(263).toLocaleString()}`);
    expect(pageText(0, 0, 0)).toBe('No cases');
    expect(shortCaseId('rc-0123456789abcdef0123456789abcdef')).toBe('01234567');
  });
  it('says how many waiting cases are out of date, with the agreement English needs', () => {
    expect(staleText(0, 10)).toBeNull();
    expect(staleText(3, 0)).toBeNull();
    expect(staleText(1, 10)).toMatch(
      /^1 of these 10 waiting cases is out of date: an identity changed since it was opened/,
    );
    expect(staleText(1_164, 2_267)).toMatch(
      new RegExp(
        `^${(1164).toLocaleString()} of these ${(2267).toLocaleString()} waiting cases are out of date: .* since they were`,
      ),
    );
    expect(staleText(4, 4)).toMatch(/^All 4 waiting cases are out of date/);
    expect(staleText(1, 1)).toMatch(/^The waiting case is out of date: an identity changed since it was opened/);
    expect(staleText(2, 10)).toMatch(
      /A reconciliation \(Maintenance, Start a job\) asks again about the pairs that still need a person, as new cases at .* supersedes the out-of-date ones/,
    );
  });
});

describe('the next case offered to a reviewer', () => {
  const unsure = { decision: 'unsure', reason: 'r', actor: 'a', decidedAt: '2026-11-30T10:00:00Z' } as const;
  it("is the queue's first waiting case nobody answered, other than the one on screen", () => {
    const rows = [
      { caseId: 'rc-a', review: null },
      { caseId: 'rc-b', review: unsure },
      { caseId: 'rc-c', review: null },
    ];
    expect(nextCaseOf({ total: 3, rows }, 'rc-x')).toEqual({ caseId: 'rc-a' });
    expect(nextCaseOf({ total: 3, rows }, 'rc-a')).toEqual({ caseId: 'rc-c' });
  });

  it('says so when none is left, and when the ones read were all answered unsure', () => {
    expect(nextCaseOf({ total: 1, rows: [{ caseId: 'rc-a', review: null }] }, 'rc-a')).toEqual({
      text: 'No other case on the list you came from can be decided and waits for a first decision.',
    });
    const answered = [
      { caseId: 'rc-b', review: unsure },
      { caseId: 'rc-c', review: unsure },
    ];
    expect(nextCaseOf({ total: 80, rows: answered }, 'rc-a')).toEqual({
      text: 'The next 2 cases that can be decided were all answered unsure: find others on the list.',
    });
  });
});

describe('the page a kept list opens at', () => {
  it('is the kept one while it holds cases, else the last page, else the first', () => {
    expect(pageStartWithin(50, 263, 50)).toBe(50);
    expect(pageStartWithin(100, 100, 50)).toBe(50);
    expect(pageStartWithin(250, 101, 50)).toBe(100);
    expect(pageStartWithin(50, 0, 50)).toBe(0);
    expect(pageStartWithin(0, 0, 50)).toBe(0);
  });
});

describe('which list "Next waiting case" follows', () => {
  it('names what the reviewer chose, and nothing for every case oldest first', () => {
    expect(
      queueText({ kind: 'any', source: 'any', held: 'any', openedAfter: null, sort: 'oldest', jobId: null }),
    ).toBeNull();
    expect(
      queueText({
        kind: 'LinkQuality',
        source: 'any',
        held: 'any',
        openedAfter: null,
        sort: 'most-doubtful',
        jobId: null,
      }),
    ).toBe('From the list as you left it: link quality, most doubtful links first.');
    expect(
      queueText({
        kind: 'any',
        source: 'northside-gp',
        held: 'any',
        openedAfter: null,
        sort: 'score-high',
        jobId: 'job-1a2b3c4d5e6f',
      }),
    ).toBe(
      'From the list as you left it: every kind, ingested from northside-gp, opened by job 1a2b3c4d, highest score first.',
    );
    // A hold chosen alone is a queue of its own, named in the list's words.
    expect(
      queueText({
        kind: 'any',
        source: 'any',
        held: 'PossibleTwin:names-alike',
        openedAfter: null,
        sort: 'oldest',
        jobId: null,
      }),
    ).toBe('From the list as you left it: every kind, held: possible twin, names alike, oldest first.');
    expect(
      queueText({
        kind: 'IngestionMatch',
        source: 'any',
        held: 'none',
        openedAfter: null,
        sort: 'oldest',
        jobId: null,
      }),
    ).toBe('From the list as you left it: ingestion, held by no rule, oldest first.');
    // The Health page's way to one ingest's cases: the source and the time after which they were opened.
    const after = '2026-12-07T14:02:05.000Z';
    expect(
      queueText({
        kind: 'IngestionMatch',
        source: 'northside-gp',
        held: 'any',
        openedAfter: after,
        sort: 'newest',
        jobId: null,
      }),
    ).toBe(
      `From the list as you left it: ingestion, ingested from northside-gp, opened after ${formatDateTime(after)}, newest first.`,
    );
  });
});
