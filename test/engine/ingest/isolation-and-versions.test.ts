import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient, tableCounts } from '../../helpers/registry.ts';
import { updateRecord, findRecord } from '../../../engine/store/records.ts';
import { getIdentity, updateCanonical } from '../../../engine/store/identities.ts';

describe('tenant isolation', () => {
  it('a second tenant sees nothing of the first and the same person is never linked across tenants', async () => {
    const engine = openRegistry(tempDir(), ['t1', 't2']);
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'A1' })) },
      ctx('t1'),
    );
    expect((await engine.call('identities/list', { limit: 10, offset: 0 }, ctx('t2'))).rows).toEqual([]);
    expect((await engine.call('reviews/list', { status: 'open', limit: 10, offset: 0 }, ctx('t2'))).rows).toEqual([]);
    await expect(
      engine.call(
        'matching/explain',
        { left: { sourceSystem: 'hospital', localId: 'A1' }, right: { sourceSystem: 'hospital', localId: 'A1' } },
        ctx('t2'),
      ),
    ).rejects.toMatchObject({ kind: 'not_found' });

    // The same Patient in tenant 2 makes a new identity there; tenant 1 is untouched.
    const t1Before = tableCounts(engine, 't1');
    const report = await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'A1' })) },
      ctx('t2'),
    );
    expect(report).toMatchObject({ created: 1, newIdentities: 1, autoLinked: 0, unchanged: 0 });
    expect(tableCounts(engine, 't1')).toEqual(t1Before);
    const e1 = (await engine.call('identities/list', { limit: 10, offset: 0 }, ctx('t1'))).rows[0]?.enterpriseId;
    const e2 = (await engine.call('identities/list', { limit: 10, offset: 0 }, ctx('t2'))).rows[0]?.enterpriseId;
    expect(e1).toBeDefined();
    expect(e1).not.toBe(e2);
    // Each tenant's blocking key is its own: the same demographics give different tags.
    const tags = (t: string): string[] =>
      engine.env.store
        .statement('SELECT hex(tag) FROM blocking_tag WHERE tenant_id = ? ORDER BY 1')
        .pluck()
        .all(t) as string[];
    expect(tags('t1').filter((t) => tags('t2').includes(t))).toEqual([]);
    engine.close();
  });
});

describe('logical versions', () => {
  it('refuses a stale source-record write and overwrites nothing', async () => {
    const engine = openRegistry(tempDir());
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'A1', phone: '0100 000 0001' })) },
      ctx(),
    );
    const store = engine.env.store;
    const record = findRecord(store, 't1', 'hospital', 'A1');
    if (record === undefined) throw new Error('record missing');
    const write = {
      sourceSystem: 'hospital',
      localId: 'A1',
      resourceJson: '{}',
      fields: { ...record.fields, phone: '9999999999' },
      payloadDigest: 'f'.repeat(64),
      sourceLastUpdated: null,
    };
    store.write(() => updateRecord(store, 't1', record.recordId, record.version, write, new Date().toISOString()));
    expect(() =>
      store.write(() =>
        updateRecord(
          store,
          't1',
          record.recordId,
          record.version,
          { ...write, fields: { ...record.fields, phone: '1111111111' } },
          new Date().toISOString(),
        ),
      ),
    ).toThrow(expect.objectContaining({ kind: 'conflict' }) as unknown);
    const after = findRecord(store, 't1', 'hospital', 'A1');
    expect(after?.version).toBe(2);
    expect(after?.fields.phone).toBe('9999999999');
    engine.close();
  });

  it('refuses a stale identity write and overwrites nothing', async () => {
    const engine = openRegistry(tempDir());
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'A1' })) },
      ctx(),
    );
    const store = engine.env.store;
    const identityId = store.statement('SELECT identity_id FROM identity').pluck().get() as number;
    const identity = getIdentity(store, 't1', identityId);
    store.write(() =>
      updateCanonical(
        store,
        't1',
        identityId,
        identity.version,
        JSON.stringify({ ...identity.canonical, recordCount: 42 }),
        'now',
      ),
    );
    expect(() =>
      store.write(() =>
        updateCanonical(
          store,
          't1',
          identityId,
          identity.version,
          JSON.stringify({ ...identity.canonical, recordCount: 7 }),
          'later',
        ),
      ),
    ).toThrow(/changed since version 1/);
    expect(getIdentity(store, 't1', identityId)).toMatchObject({ version: 2, canonical: { recordCount: 42 } });
    engine.close();
  });
});

describe('tenant creation', () => {
  it('refuses to create a tenant twice and keeps its blocking key', async () => {
    const dir = tempDir();
    const engine = openRegistry(dir);
    const before = engine.env.settings().BlockingKeys.get('t1');
    await expect(engine.call('sandbox/create', { syntheticPeople: 0, seed: 1 }, ctx('t1'))).rejects.toMatchObject({
      kind: 'conflict',
    });
    expect(engine.env.settings().BlockingKeys.get('t1')).toEqual(before);
    engine.close();
  });
});
