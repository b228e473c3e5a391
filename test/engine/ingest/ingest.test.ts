import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, movedAway, ndjson, openRegistry, patient, tableCounts } from '../../helpers/registry.ts';

describe('ingestion into a real SQLite registry', () => {
  it('links the same person across sources, opens a review case for a probable match and keeps strangers apart', async () => {
    const engine = openRegistry(tempDir());
    const hospital = await engine.call(
      'records/ingest',
      {
        sourceSystem: 'hospital',
        ndjson: ndjson(
          patient({ id: 'h1', mrn: 'MRN001' }),
          patient({
            id: 'h2',
            mrn: 'MRN002',
            family: 'Okonkwo',
            given: ['Chidi'],
            birthDate: '1970-11-02',
            gender: 'male',
            line: '4 Mill Lane',
            city: 'Leeds',
            postalCode: 'LS1 4AB',
            phone: '0113 496 0000',
          }),
        ),
      },
      ctx(),
    );
    expect(hospital).toMatchObject({ created: 2, newIdentities: 2, autoLinked: 0, rejected: [] });

    const clinic = await engine.call(
      'records/ingest',
      {
        sourceSystem: 'clinic',
        ndjson: ndjson(
          // Same person as h1 with different formatting: certain.
          patient({
            id: 'c1',
            family: 'FAIRWEATHER',
            given: ['Annabel'],
            phone: '+44 23 9200 1122',
            postalCode: 'po13ax',
          }),
          // Same birth date as h1, given and family name both misspelt, moved house and no phone: probable, not
          // certain (with one name right, names and birth date outweigh the move, which counts once: certain).
          movedAway('c2'),
        ),
      },
      ctx(),
    );
    expect(clinic.rejected).toEqual([]);
    expect(clinic.autoLinked).toBe(1);
    expect(clinic.newIdentities).toBe(1);
    expect(clinic.reviewCasesCreated).toBe(1);
    // A probable pair no rule held: the score alone sent it to review.
    expect(clinic.reviewHolds).toEqual({ none: 1 });

    const { rows } = await engine.call('identities/list', { limit: 100, offset: 0 }, ctx());
    const eid = new Map(rows.map((r) => [`${r.sourceSystem}/${r.localId}`, r.enterpriseId]));
    expect(rows).toHaveLength(4);
    expect(eid.get('clinic/c1')).toBe(eid.get('hospital/MRN001'));
    expect(eid.get('clinic/c2')).not.toBe(eid.get('hospital/MRN001'));
    expect(eid.get('hospital/MRN002')).not.toBe(eid.get('hospital/MRN001'));

    const reviews = await engine.call('reviews/list', { status: 'open', limit: 10, offset: 0 }, ctx());
    expect(reviews.rows).toHaveLength(1);
    const review = reviews.rows[0];
    expect(review?.kind).toBe('IngestionMatch');
    expect(review?.decision).toBe('probable');
    expect(new Set([review?.leftEnterpriseId, review?.rightEnterpriseId])).toEqual(
      new Set([eid.get('clinic/c2'), eid.get('hospital/MRN001')]),
    );
    engine.close();
  });

  it('uses the local identifier system when configured and Patient.id otherwise', async () => {
    const engine = openRegistry(tempDir());
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'fhir-id-9', mrn: 'MRN-77' })) },
      ctx(),
    );
    await engine.call(
      'records/ingest',
      { sourceSystem: 'clinic', ndjson: ndjson(patient({ id: 'clinic-5', mrn: 'IGNORED' })) },
      ctx(),
    );
    const { rows } = await engine.call('identities/list', { limit: 10, offset: 0 }, ctx());
    expect(rows.map((r) => `${r.sourceSystem}/${r.localId}`).sort()).toEqual(['clinic/clinic-5', 'hospital/MRN-77']);
    engine.close();
  });

  it('replaying the same file changes nothing', async () => {
    const engine = openRegistry(tempDir());
    const file = ndjson(
      patient({ id: 'h1', mrn: 'A1' }),
      patient({ id: 'h2', mrn: 'A2', given: ['Annie'], line: '1 Other Street' }),
      patient({ id: 'h3', mrn: 'A3', family: 'Zhang', given: ['Wei'], birthDate: '1999-01-01' }),
    );
    await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: file }, ctx());
    const before = tableCounts(engine);
    const versions = engine.env.store
      .statement('SELECT record_id, logical_version FROM source_record ORDER BY record_id')
      .all();
    const identities = engine.env.store
      .statement('SELECT identity_id, logical_version, canonical_json FROM identity ORDER BY identity_id')
      .all();
    const replay = await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: file }, ctx());
    expect(replay).toMatchObject({ created: 0, updated: 0, unchanged: 3, rejected: [] });
    expect(tableCounts(engine)).toEqual(before);
    expect(
      engine.env.store.statement('SELECT record_id, logical_version FROM source_record ORDER BY record_id').all(),
    ).toEqual(versions);
    expect(
      engine.env.store
        .statement('SELECT identity_id, logical_version, canonical_json FROM identity ORDER BY identity_id')
        .all(),
    ).toEqual(identities);
    engine.close();
  });

  it('recognises a replay whatever the key order of the resource', async () => {
    const engine = openRegistry(tempDir());
    const resource = patient({ id: 'h1', mrn: 'A1' });
    await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(resource) }, ctx());
    const reordered = Object.fromEntries(Object.entries(resource).reverse());
    const replay = await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(reordered) }, ctx());
    expect(replay.unchanged).toBe(1);
    engine.close();
  });

  it('applies a newer version, skips an older one and never overwrites newer data', async () => {
    const engine = openRegistry(tempDir());
    const v1 = patient({ id: 'h1', mrn: 'A1', lastUpdated: '2024-01-01T00:00:00Z', phone: '01000 000001' });
    const v2 = patient({ id: 'h1', mrn: 'A1', lastUpdated: '2025-01-01T00:00:00Z', phone: '01000 000002' });
    await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(v1) }, ctx());
    expect((await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(v2) }, ctx())).updated).toBe(
      1,
    );
    const stale = patient({ id: 'h1', mrn: 'A1', lastUpdated: '2024-06-01T00:00:00Z', phone: '01000 000003' });
    expect(
      (await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(stale) }, ctx())).stale,
    ).toBe(1);
    const row = engine.env.store
      .statement("SELECT logical_version, fields_json FROM source_record WHERE local_id = 'A1'")
      .get() as { logical_version: number; fields_json: string };
    expect(row.logical_version).toBe(2);
    expect((JSON.parse(row.fields_json) as { phone: string }).phone).toBe('1000000002');
    const identity = engine.env.store.statement('SELECT logical_version, canonical_json FROM identity').get() as {
      logical_version: number;
      canonical_json: string;
    };
    expect(identity.logical_version).toBe(2);
    expect(identity.canonical_json).toContain('1000000002');
    engine.close();
  });

  it('a meta.lastUpdated in the future is a warning, not an order: the next real correction is applied', async () => {
    const engine = openRegistry(tempDir());
    const future = patient({ id: 'h1', mrn: 'A1', lastUpdated: '2999-01-01T00:00:00Z', phone: '01000 000001' });
    const first = await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(future) }, ctx());
    expect(first.created).toBe(1);
    expect(first.warnings).toEqual([
      { line: 1, issues: [{ path: 'meta.lastUpdated', message: 'is in the future; ignored for ordering versions' }] },
    ]);
    expect(JSON.stringify(first)).not.toContain('2999');
    const correction = patient({
      id: 'h1',
      mrn: 'A1',
      lastUpdated: new Date(Date.now() - 60_000).toISOString(),
      phone: '01000 000002',
    });
    expect(
      (await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(correction) }, ctx())).updated,
    ).toBe(1);
    // A future instant stored before the rule existed decides nothing either.
    engine.env.store.write(() =>
      engine.env.store
        .statement("UPDATE source_record SET source_last_updated = '2999-01-01T00:00:00Z' WHERE local_id = 'A1'")
        .run(),
    );
    const later = patient({ id: 'h1', mrn: 'A1', lastUpdated: new Date().toISOString(), phone: '01000 000003' });
    expect(
      (await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(later) }, ctx())).updated,
    ).toBe(1);
    const row = engine.env.store.statement("SELECT fields_json FROM source_record WHERE local_id = 'A1'").get() as {
      fields_json: string;
    };
    expect((JSON.parse(row.fields_json) as { phone: string }).phone).toBe('1000000003');
    engine.close();
  });

  it('links on an equal trusted identifier even when demographics disagree', async () => {
    const engine = openRegistry(tempDir());
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'A1', nhi: '9434765919' })) },
      ctx(),
    );
    const report = await engine.call(
      'records/ingest',
      {
        sourceSystem: 'clinic',
        ndjson: ndjson(
          patient({
            id: 'c9',
            nhi: '9434765919',
            family: 'Fairweather-Jones',
            line: '1 New Street',
            city: 'York',
            postalCode: 'YO1 1AA',
            phone: '01904 000000',
          }),
        ),
      },
      ctx(),
    );
    expect(report.autoLinked).toBe(1);
    engine.close();
  });
});
