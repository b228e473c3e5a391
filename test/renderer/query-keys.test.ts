/**
 * The console's query keys: every key of data read from a connection names that connection, so a page opened after
 * switching sandbox, registry or tenant never shows what the cache kept from the one before (the same source system
 * and local ID exist in every synthetic sandbox).
 */
import { describe, expect, it } from 'vitest';
import { keys } from '../../renderer/hooks/query-keys.ts';

const CONNECTION = 'local-sandbox:/tmp/a.db:demo';
const RECORD = { sourceSystem: 'northside-gp', localId: 'NG0000001' };

describe('query keys', () => {
  it('name the connection in every key but the status, which says what the connection is', () => {
    const made: Record<string, readonly unknown[]> = {
      jobs: keys.jobs(CONNECTION),
      job: keys.job(CONNECTION, 'job-1'),
      profile: keys.profile(CONNECTION),
      profileSummary: keys.profileSummary(CONNECTION),
      runs: keys.runs(CONNECTION),
      health: keys.health(CONNECTION),
      reviews: keys.reviews(CONNECTION),
      reviewsPage: keys.reviews(CONNECTION, { offset: 0 }),
      review: keys.review(CONNECTION, 'case-1'),
      recordSources: keys.recordSources(CONNECTION),
      identityHistory: keys.identityHistory(CONNECTION, 'e-1'),
      pairRecords: keys.pairRecords(CONNECTION, RECORD, { ...RECORD, localId: 'NG0000002' }),
    };
    // Every key of the object is covered above (a new key must join this test).
    expect(Object.keys(keys).sort()).toEqual(
      [...Object.keys(made).filter((k) => k !== 'reviewsPage'), 'status'].sort(),
    );
    for (const [name, key] of Object.entries(made)) expect(key, name).toContain(CONNECTION);
  });

  it('tell two connections apart for the same pair of records', () => {
    const other = 'local-sandbox:/tmp/b.db:demo';
    const right = { ...RECORD, localId: 'NG0000002' };
    expect(keys.pairRecords(CONNECTION, RECORD, right)).not.toEqual(keys.pairRecords(other, RECORD, right));
  });
});
