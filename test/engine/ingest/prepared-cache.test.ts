import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient, testProfile } from '../../helpers/registry.ts';
import { candidateMembers, type CandidateMember } from '../../../engine/store/records.ts';
import { createScorer } from '../../../engine/scoring/scorer.ts';
import { PreparedCache } from '../../../engine/ingest/prepared-cache.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';

describe('the prepared cache reader for one snapshot (shared by ingestion and reconciliation)', () => {
  it('prepares every member from its stored fields, keeps a cached record at its version, and throws for a vanished one', async () => {
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

    const cache = new PreparedCache(createScorer(testProfile()));
    // A record already prepared at its version is taken from the cache, not read again: these fields are not stored.
    const cachedFields: MatchFields = { ...stored(first), familyName: 'cached' };
    cache.put(first.recordId, first.version, cachedFields);
    const read = cache.readerFor(store, 't1', rows);
    expect(read(first).fields).toEqual(cachedFields);
    expect(read(second).fields).toEqual(stored(second));
    // A miss is prepared once and then served from the cache.
    expect(read(second)).toBe(read(second));

    // The same record at another version is a miss: its stored fields are read.
    expect(
      cache.readerFor(store, 't1', [{ ...first, version: first.version + 1 }])({ ...first, version: first.version + 1 })
        .fields,
    ).toEqual(stored(first));

    // A member whose row is not in the snapshot cannot happen; the reader says so instead of scoring nothing.
    const vanished: CandidateMember = { ...second, recordId: 999_999 };
    expect(() => cache.readerFor(store, 't1', [vanished])(vanished)).toThrow(
      expect.objectContaining({ kind: 'internal', message: 'a candidate record vanished within one read' }),
    );
    // Another tenant's reader reads nothing of this tenant's records.
    expect(() => new PreparedCache(createScorer(testProfile())).readerFor(store, 't2', [second])(second)).toThrow(
      expect.objectContaining({ kind: 'internal' }),
    );
    engine.close();
  });
});
