/**
 * A review case is inserted unless one with its ID exists, and nothing else is passed over: a case the schema refuses
 * throws, with nothing written, rather than vanishing (SQLite's INSERT OR IGNORE skipped rows a CHECK refused too, so
 * a pair held by a rule the schema did not list yet was neither linked nor asked about).
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { registryWithOneCase } from '../../helpers/registry.ts';
import { insertReviewCase, type ReviewCaseWrite } from '../../../engine/store/reviews.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import type { LocalEngine } from '../../../engine/local-engine.ts';
import type { ScoreLimit } from '../../../engine/contract/matching.ts';

/** A registry with one case, a case held at 0.5 between its two identities, and the store's insert of it. */
async function heldCases(): Promise<{
  engine: LocalEngine;
  held: (caseId: string, limitedBy: string) => ReviewCaseWrite;
  insert: (c: ReviewCaseWrite) => boolean;
}> {
  const { engine, left, right } = await registryWithOneCase(tempDir());
  const { store } = engine.env;
  const held = (caseId: string, limitedBy: string): ReviewCaseWrite => ({
    caseId,
    kind: 'IngestionMatch',
    leftIdentityId: left,
    leftVersion: 5,
    rightIdentityId: right,
    rightVersion: 5,
    profileVersion: 1,
    score: 0.5,
    decision: 'probable',
    evidence: [],
    limitedBy: limitedBy as ScoreLimit,
    heldFrom: 0.99,
  });
  const insert = (c: ReviewCaseWrite): boolean =>
    withTenant('t1', () => store.write(() => insertReviewCase(store, 't1', c, new Date().toISOString())));
  return { engine, held, insert };
}

describe('inserting a review case', () => {
  it('passes over a case already there, and refuses one the schema refuses with nothing written', async () => {
    const { engine, held, insert } = await heldCases();
    const id = 'rc-' + 'a'.repeat(32);
    expect(insert(held(id, 'PossibleTwin'))).toBe(true);
    expect(insert(held(id, 'PossibleTwin'))).toBe(false);
    const other = 'rc-' + 'b'.repeat(32);
    expect(() => insert(held(other, 'NotARule'))).toThrow(/CHECK/);
    const written = engine.env.store.statement(
      'SELECT case_id, limited_by FROM review_case WHERE case_id IN (?, ?) ORDER BY case_id',
    );
    expect(written.all(id, other)).toEqual([{ case_id: id, limited_by: 'PossibleTwin' }]);
    engine.close();
  });

  it('keeps a twin reason only on a case the twin rule held', async () => {
    const { engine, held, insert } = await heldCases();
    // What the pair's explanation said, whichever rule held the case (a hold on the identity comes first).
    const withReason = (caseId: string, limitedBy: ScoreLimit): ReviewCaseWrite => ({
      ...held(caseId, limitedBy),
      twinReason: 'another-given-name',
    });
    const twin = 'rc-' + 'c'.repeat(32);
    const bare = 'rc-' + 'd'.repeat(32);
    expect(insert(withReason(twin, 'PossibleTwin'))).toBe(true);
    expect(insert(withReason(bare, 'BareRecord'))).toBe(true);
    const written = engine.env.store.statement(
      'SELECT case_id, twin_reason FROM review_case WHERE case_id IN (?, ?) ORDER BY case_id',
    );
    expect(written.all(twin, bare)).toEqual([
      { case_id: twin, twin_reason: 'another-given-name' },
      { case_id: bare, twin_reason: null },
    ]);
    engine.close();
  });
});
