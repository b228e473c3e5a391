import { scoreBand } from '../../../engine/contract/score-bands.ts';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { tempDir } from '../../helpers/temp.ts';

const ctx = { tenantId: 'ip', actor: 'test' };

describe('the impact preview of a candidate profile', () => {
  it('finds no change for the active profile, exactly the links a raised Certain removes, and the cases a reconciliation opens', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'ip.db') });
    await engine.call('sandbox/create', { syntheticPeople: 400, seed: 4 }, ctx);
    const { profile } = await engine.call('profile/get', {}, ctx);
    const before = engine.env.store.statement('SELECT count(*) FROM review_case').pluck().get() as number;

    const same = await engine.call('profile/preview', { document: {} }, ctx);
    expect(same.changes).toEqual({ 'link-below-certain': 0, 'new-certain': 0, 'new-review': 0, 'leaves-review': 0 });
    expect(same.examples).toEqual([]);
    expect(same.blockingNote).toBeNull();
    expect(same.linkedRecordsCompared).toBeGreaterThan(0);
    expect(same.candidatePairsCompared).toBeGreaterThan(0);

    // Certain raised: exactly the linked records whose best score inside their identity is Certain today and below
    // the new bound, counted here from matching/explain pair by pair.
    const raised = 0.9999;
    const rows = (await engine.call('identities/list', {}, ctx)).rows;
    const byIdentity = new Map<string, { sourceSystem: string; localId: string }[]>();
    for (const r of rows)
      byIdentity.set(r.enterpriseId, [
        ...(byIdentity.get(r.enterpriseId) ?? []),
        { sourceSystem: r.sourceSystem, localId: r.localId },
      ]);
    let expected = 0;
    for (const records of byIdentity.values()) {
      if (records.length < 2) continue;
      for (const record of records) {
        let best: { score: number; decision: string } | undefined;
        for (const other of records) {
          if (other === record) continue;
          const explained = await engine.call('matching/explain', { left: record, right: other }, ctx);
          if (best === undefined || explained.score > best.score)
            best = { score: explained.score, decision: explained.decision };
        }
        if (best?.decision === 'certain' && best.score < raised) expected++;
      }
    }
    const thresholds = { ...profile.MatchingRules.Thresholds, Certain: raised };
    const preview = await engine.call(
      'profile/preview',
      { document: { MatchingRules: { ...profile.MatchingRules, Thresholds: thresholds } } },
      ctx,
    );
    expect(preview.changes['link-below-certain']).toBe(expected);
    expect(expected).toBeGreaterThan(0);
    expect(preview.changes['new-certain']).toBe(0);
    expect(preview.thresholds.candidate.certain).toBe(raised);
    for (const example of preview.examples) expect(example.scoreCandidate).toBeLessThan(raised);
    // Each pair is shown once, though both records of a two-record identity count.
    const shownPairs = preview.examples.map((e) =>
      [e.kind, ...[e.left, e.right].map((r) => `${r.sourceSystem}/${r.localId}`).sort()].join(' '),
    );
    expect(new Set(shownPairs).size).toBe(shownPairs.length);
    expect(preview.examples.length).toBeGreaterThan(0);
    // By the candidate's score band (the same score: only a threshold moved): no removed link lies below the old
    // Certain's band.
    const bands = preview.byScoreBand['link-below-certain'];
    expect(bands.reduce((a, b) => a + b, 0)).toBe(expected);
    const lowest = scoreBand(profile.MatchingRules.Thresholds.Certain);
    expect(bands.slice(0, lowest)).toEqual(bands.slice(0, lowest).map(() => 0));
    expect(
      Object.values(same.byScoreBand)
        .flat()
        .every((count) => count === 0),
    ).toBe(true);

    // Nothing was written by either preview.
    expect(engine.env.store.statement('SELECT count(*) FROM review_case').pluck().get()).toBe(before);
    expect((await engine.call('profile/get', {}, ctx)).matchingProfileVersion).toBe(1);

    // The cases a reconciliation would open under the active profile are the cases it opens.
    const { jobId } = await engine.call(
      'maintenance/reconcile',
      { reason: 'compare with the preview', batchSize: 25 },
      ctx,
    );
    await runWorker(engine.env, { tenants: [ctx.tenantId], once: true });
    expect((await engine.call('jobs/get', { jobId }, ctx)).counters.reviewCreated).toBe(
      same.reviewCasesReconciliationWouldOpen,
    );

    // A document that could not be applied is refused, naming the field.
    const refused = await engine
      .call(
        'profile/preview',
        { document: { MatchingRules: { ...profile.MatchingRules, Thresholds: { Probable: 0.9, Certain: 0.5 } } } },
        ctx,
      )
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'validation' });
    engine.close();
  });

  it('counts the review cases a lowered Probable adds as the reconciliation under it then opens them', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'ip.db') });
    await engine.call('sandbox/create', { syntheticPeople: 400, seed: 4 }, ctx);
    const { profile } = await engine.call('profile/get', {}, ctx);
    const MatchingRules = {
      ...profile.MatchingRules,
      Thresholds: { ...profile.MatchingRules.Thresholds, Probable: 0.001 },
    };
    const preview = await engine.call('profile/preview', { document: { MatchingRules } }, ctx);
    // Pairs below the old Probable but above the new one: the candidate pairs whose household fields the preview no
    // longer compares when they stay below Probable under both profiles (scorer.outcomeFromProbable).
    expect(preview.changes['new-review']).toBeGreaterThan(0);
    expect(preview.changes['leaves-review']).toBe(0);
    for (const example of preview.examples.filter((e) => e.kind === 'new-review')) {
      expect(example.decisionNow).toBe('no-match');
      expect(example.scoreNow).toBeLessThan(profile.MatchingRules.Thresholds.Probable);
      expect(example.scoreCandidate).toBeGreaterThanOrEqual(0.001);
    }
    await engine.call('profile/apply', { document: { MatchingRules }, reason: 'lower Probable' }, ctx);
    const { jobId } = await engine.call('maintenance/reconcile', { reason: 'compare', batchSize: 25 }, ctx);
    await runWorker(engine.env, { tenants: [ctx.tenantId], once: true });
    expect((await engine.call('jobs/get', { jobId }, ctx)).counters.reviewCreated).toBe(
      preview.reviewCasesReconciliationWouldOpen,
    );
    expect(preview.reviewCasesReconciliationWouldOpen).toBeGreaterThan(0);
    engine.close();
  });
});
