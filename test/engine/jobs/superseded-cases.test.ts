/**
 * One question per pair: a new review case about two identities dismisses the open cases about them that name older
 * versions (out of date, so undecidable), keeping them as history with a pointer to the case that superseded them. A
 * decision on a superseded case is refused with nothing written, and names the case to decide instead.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, movedAway, ndjson, openRegistry, patient, registryWithOneCase } from '../../helpers/registry.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { EngineError } from '../../../engine/contract/errors.ts';
import { insertReviewCase } from '../../../engine/store/reviews.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';

const A = patient({ id: 'h1', mrn: 'A1' });
/** Both names misspelt, moved house, no phone: Probable against A, not Certain. */
const MOVED = movedAway('c-moved');
/** A's record again with a new phone number: an update, which raises the version of A's identity. */
const A_UPDATED = patient({ id: 'h1', mrn: 'A1', phone: '023 9200 9999' });

describe('superseded review cases', () => {
  it('a new case about a pair dismisses its out-of-date open cases, which point to it and refuse a decision', async () => {
    const engine = openRegistry(tempDir());
    await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(A) }, ctx());
    const opened = await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(MOVED) }, ctx());
    expect(opened.reviewCasesCreated).toBe(1);
    const first = (await engine.call('reviews/list', {}, ctx())).rows;
    expect(first).toHaveLength(1);
    const old = first[0]?.caseId ?? '';

    // A's record changes: the case is out of date, still open, and nothing else asks about the pair yet.
    const updated = await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(A_UPDATED) }, ctx());
    expect(updated.reviewCasesCreated).toBe(0);
    const waiting = await engine.call('reviews/list', {}, ctx());
    expect(waiting.rows.map((c) => [c.caseId, c.stale])).toEqual([[old, true]]);

    // A reconciliation asks about the pair again at the current versions: that case replaces the old one.
    const { jobId } = await engine.call('maintenance/reconcile', { reason: 'after the update', batchSize: 25 }, ctx());
    await runWorker(engine.env, { tenants: ['t1'], once: true });
    expect((await engine.call('jobs/get', { jobId }, ctx())).counters.reviewCreated).toBe(1);
    const open = (await engine.call('reviews/list', {}, ctx())).rows;
    expect(open).toHaveLength(1);
    const fresh = open[0];
    expect(fresh?.caseId).not.toBe(old);
    expect(fresh?.stale).toBe(false);
    expect([fresh?.leftEnterpriseId, fresh?.rightEnterpriseId]).toEqual([
      first[0]?.leftEnterpriseId,
      first[0]?.rightEnterpriseId,
    ]);
    const dismissed = (await engine.call('reviews/list', { status: 'dismissed' }, ctx())).rows;
    expect(dismissed.map((c) => c.caseId)).toEqual([old]);
    const history = await engine.call('reviews/get', { caseId: old }, ctx());
    expect(history.case.status).toBe('dismissed');
    expect(history.supersededBy).toBe(fresh?.caseId);
    expect((await engine.call('reviews/get', { caseId: fresh?.caseId ?? '' }, ctx())).supersededBy).toBeNull();

    // Deciding the old case is refused, names the new one and writes nothing; the new one takes the decision.
    const refused = await engine
      .call('reviews/decide', { caseId: old, decision: 'same-person', reason: 'checked the forms' }, ctx())
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(EngineError);
    expect((refused as EngineError).kind).toBe('conflict');
    expect((refused as EngineError).message).toContain(`superseded by ${fresh?.caseId ?? '?'}`);
    expect((await engine.call('reviews/get', { caseId: old }, ctx())).decisions).toEqual([]);
    const decided = await engine.call(
      'reviews/decide',
      { caseId: fresh?.caseId ?? '', decision: 'same-person', reason: 'checked the forms' },
      ctx(),
    );
    expect(decided.case.status).toBe('resolved');
    engine.close();
  });

  it('points a superseded case to the case that replaced it, not to another superseded one opened at the same time', async () => {
    const { engine, left, right } = await registryWithOneCase(tempDir());
    const [opened] = (await engine.call('reviews/list', {}, ctx())).rows;
    const { store } = engine.env;
    // Three more questions about the pair in one chunk, so at one time; the middle one's ID sorts last.
    const at = new Date().toISOString();
    const ids = ['rc-' + '1'.repeat(32), 'rc-' + 'f'.repeat(32), 'rc-' + '2'.repeat(32)];
    withTenant('t1', () => {
      store.write(() => {
        ids.forEach((caseId, i) => {
          insertReviewCase(
            store,
            't1',
            {
              caseId,
              kind: 'IngestionMatch',
              leftIdentityId: left,
              leftVersion: 10 + i,
              rightIdentityId: right,
              rightVersion: 10 + i,
              profileVersion: 1,
              score: 0.6,
              decision: 'probable',
              evidence: [],
            },
            at,
          );
        });
      });
    });
    const open = (await engine.call('reviews/list', {}, ctx())).rows.map((c) => c.caseId);
    expect(open).toEqual([ids[2]]);
    for (const caseId of [opened?.caseId ?? '', ids[0] ?? '', ids[1] ?? ''])
      expect((await engine.call('reviews/get', { caseId }, ctx())).supersededBy, caseId).toBe(ids[2]);
    engine.close();
  });
});
