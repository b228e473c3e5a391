import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient, testProfile } from '../../helpers/registry.ts';
import { candidateMembers, type CandidateMember } from '../../../engine/store/records.ts';
import { createScorer } from '../../../engine/scoring/scorer.ts';
import { PreparedCache } from '../../../engine/ingest/prepared-cache.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';

describe('the prepared cache on candidate members (shared by ingestion, reconciliation and the assurance walks)', () => {
  it('prepares a member from the stored fields read with it, and keeps a cached record at its version', async () => {
    const engine = openRegistry(tempDir());
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'hospital',
        ndjson: ndjson(
          patient({ id: 'h1', mrn: 'A1', family: 'Okafor', given: ['Ada'], birthDate: '1980-01-02' }),
          patient({ id: 'h2', mrn: 'A2', family: 'Lindqvist', given: ['Bo'], birthDate: '1975-06-07' }),
        ),
      },
      ctx(),
    );
    const store = engine.env.store;
    const identities = store
      .statement("SELECT identity_id FROM identity WHERE tenant_id = 't1' ORDER BY identity_id")
      .pluck()
      .all() as number[];
    const members = candidateMembers(store, 't1', identities, 10);
    const rows = [...members.values()].flat();
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [CandidateMember, CandidateMember];
    const stored = (row: CandidateMember): MatchFields =>
      JSON.parse(
        store
          .statement("SELECT fields_json FROM source_record WHERE tenant_id = 't1' AND record_id = ?")
          .pluck()
          .get(row.recordId) as string,
      ) as MatchFields;
    // Each member comes with its own record's stored fields.
    expect(JSON.parse(first.fieldsJson)).toEqual(stored(first));
    expect(JSON.parse(second.fieldsJson)).toEqual(stored(second));

    const cache = new PreparedCache(createScorer(testProfile()));
    // A record already prepared at its version is taken from the cache, its fields not parsed: these are not stored.
    const cachedFields: MatchFields = { ...stored(first), familyName: 'cached' };
    cache.put(first.recordId, first.version, cachedFields);
    expect(cache.get(first).fields).toEqual(cachedFields);
    expect(cache.get(second).fields).toEqual(stored(second));
    // A miss is prepared once and then served from the cache.
    expect(cache.get(second)).toBe(cache.get(second));
    // The same record at another version is a miss: it is prepared from the fields read with it.
    expect(cache.get({ ...first, version: first.version + 1 }).fields).toEqual(stored(first));

    // Another tenant's read finds none of this tenant's members.
    expect([...candidateMembers(store, 't2', identities, 10).values()].flat()).toEqual([]);
    engine.close();
  });
});
