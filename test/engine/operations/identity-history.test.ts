import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, movedAway, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { isEngineError } from '../../../engine/contract/errors.ts';
import { MAX_RECORDS_WITH_VALUES } from '../../../engine/contract/identity-history.ts';

describe('identity history', () => {
  it('says why each record is where it is: arrivals, updates, rebuilds, review cases and decisions, in time order', async () => {
    const engine = openRegistry(tempDir(), ['t1', 't2']);
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'A1', nhi: 'N-1' })) },
      ctx(),
    );
    // The same national ID: certain by a trusted identifier, whatever the rest says.
    await engine.call(
      'records/ingest',
      { sourceSystem: 'clinic', ndjson: ndjson(patient({ id: 'c1', nhi: 'N-1', phone: '020 7000 0001' })) },
      ctx(),
    );
    // A probable look-alike: a new identity and a review case about the pair.
    const moved = movedAway('c2');
    await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(moved) }, ctx());
    const eid =
      (await engine.call('identities/list', {}, ctx())).rows.find((r) => r.localId === 'A1')?.enterpriseId ?? '';

    let history = await engine.call('identities/history', { enterpriseId: eid }, ctx());
    expect(history.records.map((r) => r.localId).sort()).toEqual(['A1', 'c1']);
    // Patient values only when asked: the canonical record, each field from the most trusted source that has it.
    expect(history.canonical).toBeUndefined();
    const canonical = (await engine.call('identities/history', { enterpriseId: eid, withValues: true }, ctx()))
      .canonical;
    expect(canonical).toMatchObject({
      fields: { familyName: 'fairweather', givenName: 'annabel', birthDate: '1984-03-17', phone: '2392001122' },
      provenance: { familyName: 'hospital/A1', phone: 'hospital/A1' },
      recordCount: 2,
    });
    // Each record's own fields beside it, with values only.
    expect(history.records.every((r) => r.fields === undefined)).toBe(true);
    const withValues = await engine.call('identities/history', { enterpriseId: eid, withValues: true }, ctx());
    expect(withValues.records.map((r) => [r.localId, r.fields?.phone])).toEqual([
      ['A1', '2392001122'],
      ['c1', '2070000001'],
    ]);
    // The national number is on both records (the hospital's own number is its local identifier, not among them):
    // the union of every record's, normalised, once.
    expect(canonical?.fields.identifiers.map((i) => i.value)).toEqual(['N1']);
    expect(history.recordsWithoutDetail).toBe(0);
    expect(history.events.map((e) => [e.kind, e.record?.localId ?? null, e.decidedBy, e.profileVersion])).toEqual([
      ['identity-created', 'A1', null, 1],
      ['record-joined', 'c1', 'trusted-identifier', 1],
      ['review-case-opened', null, null, 1],
    ]);

    // An update, a decision, then a new profile version and a reconciliation that rebuilds the canonical record.
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'hospital',
        ndjson: ndjson(
          patient({ id: 'h1', mrn: 'A1', nhi: 'N-1', phone: '023 9200 0000', lastUpdated: '2026-01-01T00:00:00Z' }),
        ),
      },
      ctx(),
    );
    const caseId = history.events.find((e) => e.kind === 'review-case-opened')?.caseId ?? '';
    // The case went stale with the update; it is read, not decided.
    expect((await engine.call('reviews/get', { caseId }, ctx())).case.stale).toBe(true);
    const profile = await engine.call('profile/get', {}, ctx());
    await engine.call(
      'profile/apply',
      { document: { SourceTrust: [...profile.profile.SourceTrust].reverse() }, reason: 'trust the clinic first' },
      ctx(),
    );
    const { jobId } = await engine.call('maintenance/reconcile', { reason: 'history test', batchSize: 25 }, ctx());
    await runWorker(engine.env, { tenants: ['t1'], once: true });
    history = await engine.call('identities/history', { enterpriseId: eid }, ctx());
    const kinds = history.events.map((e) => e.kind);
    expect(kinds.slice(0, 4)).toEqual(['identity-created', 'record-joined', 'review-case-opened', 'record-updated']);
    // The finished job is among the health figures, with its review cases.
    const jobSample = (await engine.call('health/series', {}, ctx())).samples.find((s) => s.jobId === jobId);
    expect(jobSample).toMatchObject({
      origin: 'job',
      jobKind: 'reconciliation',
      jobStatus: 'completed',
      profileVersion: 2,
    });
    // Its case, by what held it: the pair no rule held.
    expect(jobSample?.reviewCases).toBe(1);
    expect(jobSample?.reviewHolds).toEqual({ none: 1 });
    const rebuilt = history.events.find((e) => e.kind === 'canonical-rebuilt');
    expect(rebuilt).toMatchObject({ jobId, profileVersion: 2 });
    // The clinic is now trusted first: the rebuilt record takes its phone, and says so.
    expect(
      (await engine.call('identities/history', { enterpriseId: eid, withValues: true }, ctx())).canonical,
    ).toMatchObject({ fields: { phone: '2070000001' }, provenance: { phone: 'clinic/c1', familyName: 'clinic/c1' } });
    const times = history.events.map((e) => e.at);
    expect(times).toEqual([...times].sort());

    // A newer case opened by the reconciliation can be decided; the decisions join the history, in the order made.
    const current = (await engine.call('reviews/list', { currentOnly: true }, ctx())).rows[0];
    if (current === undefined) throw new Error('the reconciliation opened no current case');
    expect(current.jobId).toBe(jobId);
    await engine.call(
      'reviews/decide',
      { caseId: current.caseId, decision: 'unsure', reason: 'ask the clinic' },
      ctx(),
    );
    await engine.call(
      'reviews/decide',
      { caseId: current.caseId, decision: 'different-people', reason: 'different mothers' },
      ctx(),
    );
    const decided = (await engine.call('identities/history', { enterpriseId: eid }, ctx())).events.filter(
      (e) => e.kind === 'review-decided',
    );
    expect(decided).toMatchObject([
      { caseId: current.caseId, decision: 'unsure', actor: 'test' },
      { caseId: current.caseId, decision: 'different-people', actor: 'test' },
    ]);

    // Links older than the event log: their time, kind and score, and the history says detail is missing.
    engine.env.store.exec("DELETE FROM identity_event WHERE tenant_id = 't1'");
    const older = await engine.call('identities/history', { enterpriseId: eid }, ctx());
    expect(older.recordsWithoutDetail).toBe(2);
    expect(
      older.events
        .filter((e) => e.kind === 'record-linked')
        .map((e) => e.record?.localId)
        .sort(),
    ).toEqual(['A1', 'c1']);

    // Another tenant does not see it.
    const refused = await engine.call('identities/history', { enterpriseId: eid }, ctx('t2')).catch((e: unknown) => e);
    expect(isEngineError(refused) && refused.kind === 'not_found').toBe(true);
    engine.close();
  });

  it("finds a record's identity by its source system and local ID, in the caller's tenant only", async () => {
    const engine = openRegistry(tempDir(), ['t1', 't2']);
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'MRN-4471', nhi: 'N-1' })) },
      ctx(),
    );
    await engine.call(
      'records/ingest',
      { sourceSystem: 'clinic', ndjson: ndjson(patient({ id: 'c1', nhi: 'N-1' })) },
      ctx(),
    );
    await engine.call(
      'records/ingest',
      { sourceSystem: 'clinic', ndjson: ndjson(patient({ id: 'c2', family: 'Okonkwo', given: ['Chidi'] })) },
      ctx(),
    );
    const hospital = await engine.call(
      'identities/of-record',
      { sourceSystem: 'hospital', localId: 'MRN-4471' },
      ctx(),
    );
    expect(hospital.status).toBe('active');
    // The clinic's record of the same person is in the same identity; another person's is not.
    expect(await engine.call('identities/of-record', { sourceSystem: 'clinic', localId: 'c1' }, ctx())).toEqual(
      hospital,
    );
    const other = await engine.call('identities/of-record', { sourceSystem: 'clinic', localId: 'c2' }, ctx());
    expect(other.enterpriseId).not.toBe(hospital.enterpriseId);
    // The sources a record can be looked up by: the tenant's own, each once, in order.
    expect(await engine.call('records/sources', {}, ctx())).toEqual({ sources: ['clinic', 'hospital'] });
    expect(await engine.call('records/sources', {}, ctx('t2'))).toEqual({ sources: [] });
    const history = await engine.call('identities/history', { enterpriseId: hospital.enterpriseId }, ctx());
    expect(history.records.map((r) => `${r.sourceSystem}/${r.localId}`).sort()).toEqual([
      'clinic/c1',
      'hospital/MRN-4471',
    ]);

    // Not found names the source, never the local ID (it can be a medical record number); so does another tenant.
    for (const [ref, tenant] of [
      [{ sourceSystem: 'hospital', localId: 'MRN-4472' }, 't1'],
      [{ sourceSystem: 'clinic', localId: 'MRN-4471' }, 't1'],
      [{ sourceSystem: 'hospital', localId: 'MRN-4471' }, 't2'],
    ] as const) {
      const missing = await engine.call('identities/of-record', ref, ctx(tenant)).catch((e: unknown) => e);
      expect(isEngineError(missing) && missing.kind === 'not_found').toBe(true);
      expect((missing as Error).message).toContain(`"${ref.sourceSystem}"`);
      expect((missing as Error).message).not.toContain('MRN');
    }
    // Values for the first MAX_RECORDS_WITH_VALUES records only: an identity grown past one person's is not read by eye.
    const many = Array.from({ length: MAX_RECORDS_WITH_VALUES + 2 }, (_, i) => patient({ id: `m${String(i)}` }));
    await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(...many) }, ctx());
    const grown = await engine.call(
      'identities/history',
      { enterpriseId: hospital.enterpriseId, withValues: true },
      ctx(),
    );
    expect(grown.records).toHaveLength(MAX_RECORDS_WITH_VALUES + 4);
    expect(grown.records.filter((r) => r.fields !== undefined)).toHaveLength(MAX_RECORDS_WITH_VALUES);
    expect(grown.records.slice(0, MAX_RECORDS_WITH_VALUES).every((r) => r.fields?.familyName === 'fairweather')).toBe(
      true,
    );
    const invalid = await engine
      .call('identities/of-record', { sourceSystem: 'hospital', localId: '' }, ctx())
      .catch((e: unknown) => e);
    expect(isEngineError(invalid) && invalid.kind === 'validation').toBe(true);
    engine.close();
  });
});
