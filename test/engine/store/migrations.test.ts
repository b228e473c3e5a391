import { ScoreLimitSchema, TwinReasonSchema } from '../../../engine/contract/matching.ts';
import { loadPgMigrations } from '../../../engine/store/pg/pg-store.ts';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { Store } from '../../../engine/store/store.ts';
import { loadMigrations } from '../../../engine/store/migrate.ts';

describe('migrations', () => {
  it('records each migration with its content hash and refuses an edited one', () => {
    const path = join(tempDir(), 'm.db');
    const store = Store.open(path);
    const recorded = store
      .statement('SELECT migration_id, name, sha256 FROM schema_migration ORDER BY migration_id')
      .all() as { sha256: string }[];
    expect(recorded.map((r) => r.sha256)).toEqual(loadMigrations().map((m) => m.sha256));
    store.close();

    // Reopening with the same files is fine; with an edited file it is refused.
    Store.open(path).close();
    const edited = loadMigrations().map((m, i) =>
      i === 0 ? { ...m, sha256: 'e'.repeat(64), sql: m.sql + '\n-- edited' } : m,
    );
    expect(() => Store.open(path, { migrations: edited })).toThrow(/differs from the one applied/);
  });

  it('enables WAL, foreign keys and the schema constraints', () => {
    const store = Store.open(join(tempDir(), 'c.db'));
    expect(store.statement('PRAGMA journal_mode').pluck().get()).toBe('wal');
    expect(store.statement('PRAGMA foreign_keys').pluck().get()).toBe(1);
    // A link to an identity that does not exist violates the foreign key.
    store.exec("INSERT INTO tenant (tenant_id, created_at) VALUES ('t', 'now')");
    expect(() => {
      store.exec(
        "INSERT INTO identity_link (tenant_id, record_id, identity_id, link_kind, created_at) VALUES ('t', 1, 1, 'auto', 'now')",
      );
    }).toThrow(/FOREIGN KEY/);
    expect(() => {
      store.exec("INSERT INTO tenant (tenant_id, created_at) VALUES ('bad tenant', 'now')");
    }).toThrow(/CHECK/);
    store.close();
  });
});

describe('migration 0003 (received resources in their own table)', () => {
  it('moves the resources of an existing registry and keeps every record', () => {
    const path = join(tempDir(), 'upgrade.db');
    const before = Store.open(path, { migrations: loadMigrations().filter((m) => m.id <= 2) });
    before.exec(`INSERT INTO tenant (tenant_id, created_at) VALUES ('t', 'now');
      INSERT INTO source_record (tenant_id, source_system, local_id, resource_json, fields_json, payload_digest, logical_version, created_at, updated_at)
      VALUES ('t', 's', 'a', '{"resourceType":"Patient","id":"a"}', '{}', '${'a'.repeat(64)}', 1, 'now', 'now'),
             ('t', 's', 'b', '{"resourceType":"Patient","id":"b"}', '{}', '${'b'.repeat(64)}', 1, 'now', 'now')`);
    before.close();
    const after = Store.open(path);
    expect(
      after
        .statement(
          'SELECT r.local_id, x.resource_json FROM source_record r JOIN source_resource x ON x.record_id = r.record_id ORDER BY r.local_id',
        )
        .all(),
    ).toEqual([
      { local_id: 'a', resource_json: '{"resourceType":"Patient","id":"a"}' },
      { local_id: 'b', resource_json: '{"resourceType":"Patient","id":"b"}' },
    ]);
    expect(
      after
        .statement("SELECT COUNT(*) FROM pragma_table_info('source_record') WHERE name = 'resource_json'")
        .pluck()
        .get(),
    ).toBe(0);
    expect(after.statement('PRAGMA foreign_key_check').all()).toEqual([]);
    after.close();
  });
});

describe('migration 0007 (term frequencies of names)', () => {
  it('counts the names of the records a registry already holds, per tenant', () => {
    const path = join(tempDir(), 'tf.db');
    const before = Store.open(path, { migrations: loadMigrations().filter((m) => m.id <= 6) });
    const fields = (family: string | null, given: string | null): string =>
      JSON.stringify({ familyName: family, givenName: given });
    before.exec(`INSERT INTO tenant (tenant_id, created_at) VALUES ('t', 'now'), ('u', 'now');
      INSERT INTO source_record (tenant_id, source_system, local_id, fields_json, payload_digest, logical_version, created_at, updated_at)
      VALUES ('t', 's', 'a', '${fields('smith', 'ann')}', '${'a'.repeat(64)}', 1, 'now', 'now'),
             ('t', 's', 'b', '${fields('smith', 'bo')}', '${'b'.repeat(64)}', 1, 'now', 'now'),
             ('t', 's', 'c', '${fields('jones', null)}', '${'c'.repeat(64)}', 1, 'now', 'now'),
             ('u', 's', 'a', '${fields('smith', 'ann')}', '${'d'.repeat(64)}', 1, 'now', 'now')`);
    before.close();
    const after = Store.open(path);
    expect(
      after
        .statement('SELECT tenant_id, field, value, count FROM term_frequency ORDER BY tenant_id, field, value')
        .all(),
    ).toEqual([
      { tenant_id: 't', field: 'familyName', value: 'jones', count: 1 },
      { tenant_id: 't', field: 'familyName', value: 'smith', count: 2 },
      { tenant_id: 't', field: 'givenName', value: 'ann', count: 1 },
      { tenant_id: 't', field: 'givenName', value: 'bo', count: 1 },
      { tenant_id: 'u', field: 'familyName', value: 'smith', count: 1 },
      { tenant_id: 'u', field: 'givenName', value: 'ann', count: 1 },
    ]);
    expect(
      after
        .statement('SELECT tenant_id, field, total, sum_squares FROM term_frequency_total ORDER BY tenant_id, field')
        .all(),
    ).toEqual([
      { tenant_id: 't', field: 'familyName', total: 3, sum_squares: 5 },
      { tenant_id: 't', field: 'givenName', total: 2, sum_squares: 2 },
      { tenant_id: 'u', field: 'familyName', total: 1, sum_squares: 1 },
      { tenant_id: 'u', field: 'givenName', total: 1, sum_squares: 1 },
    ]);
    after.close();
  });
});

/**
 * A registry at migration `upTo` holding tenant t, profile 1, identities 1 … `identities` and one open ingestion
 * case, rc-…01, about identities 1 and 2 at `score`.
 */
function withOneCase(path: string, upTo: number, identities: number, score: number): void {
  const before = Store.open(path, { migrations: loadMigrations().filter((m) => m.id <= upTo) });
  const rows = Array.from(
    { length: identities },
    (_, i) => `(${String(i + 1)}, 't', 'e${String(i + 1)}', 1, '{}', 'active', 'now', 'now')`,
  ).join(', ');
  before.exec(`INSERT INTO tenant (tenant_id, created_at) VALUES ('t', 'now');
    INSERT INTO matching_profile (tenant_id, profile_version, profile_json, created_at, reason, is_active) VALUES ('t', 1, '{}', 'now', 'test', 1);
    INSERT INTO identity (identity_id, tenant_id, enterprise_id, logical_version, canonical_json, status, created_at, updated_at)
      VALUES ${rows};
    INSERT INTO review_case (tenant_id, case_id, kind, left_identity_id, left_version, right_identity_id, right_version, profile_version, score,
      decision, evidence_json, status, created_at)
      VALUES ('t', 'rc-00000000000000000000000000000001', 'IngestionMatch', 1, 1, 2, 1, 1, ${String(score)}, 'probable', '[]', 'open', 'then')`);
  before.close();
}

/** Adds an open case held at 0.5 between identity 1 and identity `right` to a registry at the latest migration. */
function addHeldCase(store: Store, right: number, limitedBy: string, heldFrom: number | null): void {
  store.exec(`INSERT INTO review_case (tenant_id, case_id, kind, left_identity_id, left_version, right_identity_id, right_version,
    profile_version, score, decision, evidence_json, status, created_at, limited_by, held_from)
    VALUES ('t', 'rc-held-${String(right)}', 'IngestionMatch', 1, 1, ${String(right)}, 1, 1, 0.5, 'probable', '[]', 'open', 'now',
    '${limitedBy}', ${heldFrom === null ? 'NULL' : String(heldFrom)})`);
}

describe('migration 0009 (review cases rebuilt: origin, LinkQuality, decisions)', () => {
  it('keeps every existing case, with no origin, and accepts the new kind for one identity only', () => {
    const path = join(tempDir(), 'reviews.db');
    withOneCase(path, 8, 2, 0.9);
    const after = Store.open(path);
    expect(after.statement('SELECT case_id, kind, job_id, source_system, status FROM review_case').all()).toEqual([
      {
        case_id: 'rc-00000000000000000000000000000001',
        kind: 'IngestionMatch',
        job_id: null,
        source_system: null,
        status: 'open',
      },
    ]);
    const insert = (kind: string, left: number, right: number): void => {
      after.exec(`INSERT INTO review_case (tenant_id, case_id, kind, left_identity_id, left_version, right_identity_id, right_version, profile_version,
        score, decision, evidence_json, status, created_at) VALUES ('t', 'rc-${kind}-${String(left)}-${String(right)}', '${kind}', ${String(left)}, 1,
        ${String(right)}, 1, 1, 0.2, 'probable', '[]', 'open', 'now')`);
    };
    insert('LinkQuality', 1, 1);
    expect(() => {
      insert('PopulationReconciliation', 2, 2);
    }).toThrow(/CHECK/);
    expect(() => {
      insert('LinkQuality', 2, 1);
    }).toThrow(/CHECK/);
    expect(after.statement('PRAGMA foreign_key_check').all()).toEqual([]);
    after.close();
  });
});

describe('migration 0012 (health samples: matching figures, identity sizes, daily origin)', () => {
  it('keeps every existing sample, without the new figures, and accepts a daily sample', () => {
    const path = join(tempDir(), 'health.db');
    const before = Store.open(path, { migrations: loadMigrations().filter((m) => m.id <= 11) });
    before.exec(`INSERT INTO tenant (tenant_id, created_at) VALUES ('t', 'now');
      INSERT INTO health_sample (tenant_id, at, origin, source_system, profile_version, records, created, auto_linked, review_cases, rejected, field_present_json, duration_ms)
        VALUES ('t', '2026-11-01T00:00:00Z', 'ingest', 'clinic', 1, 10, 9, 3, 1, 1, '{"birthDate":9}', 12)`);
    expect(() => {
      before.exec(`INSERT INTO health_sample (tenant_id, at, origin, records, created, auto_linked, review_cases, rejected, field_present_json, duration_ms)
      VALUES ('t', 'now', 'daily', 0, 0, 0, 0, 0, '{}', 0)`);
    }).toThrow(/CHECK/);
    before.close();
    const after = Store.open(path);
    expect(
      after
        .statement(
          'SELECT tenant_id, origin, source_system, records, created, field_present_json, matching_json, identity_sizes_json FROM health_sample',
        )
        .all(),
    ).toEqual([
      {
        tenant_id: 't',
        origin: 'ingest',
        source_system: 'clinic',
        records: 10,
        created: 9,
        field_present_json: '{"birthDate":9}',
        matching_json: null,
        identity_sizes_json: null,
      },
    ]);
    after.exec(`INSERT INTO health_sample (tenant_id, at, origin, records, created, auto_linked, review_cases, rejected, field_present_json, duration_ms, identity_sizes_json)
      VALUES ('t', 'now', 'daily', 10, 0, 0, 0, 0, '{}', 0, '[1,2,3,0,0,0]')`);
    expect(() => {
      after.exec(`INSERT INTO health_sample (tenant_id, at, origin, records, created, auto_linked, review_cases, rejected, field_present_json, duration_ms, matching_json)
      VALUES ('t', 'now', 'ingest', 1, 1, 0, 0, 0, '{}', 0, 'not json')`);
    }).toThrow(/CHECK/);
    after.close();
  });
});

describe('migrations 0013 and 0014 (a held review case records its rule, then the score it was held from)', () => {
  const cases = [
    { upTo: 12, column: 'limited_by', good: ['PossibleTwin', null], bad: ['Twin', null] },
    { upTo: 13, column: 'held_from', good: ['PossibleTwin', 0.93], bad: ['PossibleTwin', 1.5] },
  ] as const;
  it.each(cases)('$column: every existing case keeps none, and only what the scorer gives is taken', (c) => {
    const path = join(tempDir(), `${c.column}.db`);
    withOneCase(path, c.upTo, 3, 0.5);
    const after = Store.open(path);
    expect(after.statement(`SELECT case_id, score, ${c.column} AS value FROM review_case`).all()).toEqual([
      { case_id: 'rc-00000000000000000000000000000001', score: 0.5, value: null },
    ]);
    addHeldCase(after, 3, c.good[0], c.good[1]);
    expect(() => {
      addHeldCase(after, 2, c.bad[0], c.bad[1]);
    }).toThrow(/CHECK/);
    after.close();
  });
});

describe('migration 0023 (a case held as a possible twin records which case of the twin rule held it)', () => {
  it('leaves every existing case without one, and takes only a reason the twin rule gives', () => {
    const path = join(tempDir(), 'twin-reason.db');
    withOneCase(path, 22, 3, 0.5);
    const after = Store.open(path);
    expect(after.statement('SELECT case_id, twin_reason FROM review_case').all()).toEqual([
      { case_id: 'rc-00000000000000000000000000000001', twin_reason: null },
    ]);
    addHeldCase(after, 3, 'PossibleTwin', 0.93);
    after.exec("UPDATE review_case SET twin_reason = 'names-of-two-sexes' WHERE case_id = 'rc-held-3'");
    expect(after.statement("SELECT twin_reason FROM review_case WHERE case_id = 'rc-held-3'").pluck().get()).toBe(
      'names-of-two-sexes',
    );
    expect(() => {
      after.exec("UPDATE review_case SET twin_reason = 'twins' WHERE case_id = 'rc-held-3'");
    }).toThrow(/CHECK/);
    after.close();
  });

  it('names every reason the contract names, on SQLite and on PostgreSQL (whose migration 0013 restates the list)', () => {
    const store = Store.open(join(tempDir(), 'reasons.db'));
    const table = store.statement("SELECT sql FROM sqlite_schema WHERE name = 'review_case'").pluck().get() as string;
    store.close();
    const pg = loadPgMigrations().find((m) => m.name.includes('twin-reason'))?.sql ?? '';
    for (const reason of TwinReasonSchema.options) {
      expect(table, reason).toContain(`'${reason}'`);
      expect(pg, reason).toContain(`'${reason}'`);
    }
  });
});

describe('migrations 0016, 0018, 0019 and 0024 (review cases rebuilt for the middle-name, shared-number, bare-record and identities-apart rules)', () => {
  const rebuilds = [
    { id: 16, rule: 'MiddleNameConflict', doubt: null },
    { id: 18, rule: 'SharedIdentifier', doubt: 2 },
    { id: 19, rule: 'BareRecord', doubt: 2 },
    { id: 24, rule: 'IdentitiesApart', doubt: 2 },
  ] as const;
  it.each(rebuilds)('$id keeps every case with its rule, score and decisions, and takes $rule and no other', (m) => {
    const path = join(tempDir(), `rebuild-${String(m.id)}.db`);
    withOneCase(path, m.id - 1, 4, 0.5);
    const before = Store.open(path, { migrations: loadMigrations().filter((n) => n.id < m.id) });
    addHeldCase(before, 3, 'PossibleTwin', 0.93);
    // The column 0017 added survives the later rebuilds.
    if (m.doubt !== null) before.exec(`UPDATE review_case SET doubt = ${String(m.doubt)} WHERE case_id = 'rc-held-3'`);
    // And so do the columns 0021 and 0023 added (the flag of a case out of date, the twin rule's case).
    const later = m.id > 23;
    if (later)
      before.exec(
        "UPDATE review_case SET outdated = 1, twin_reason = 'another-given-name' WHERE case_id = 'rc-held-3'",
      );
    before.exec(`INSERT INTO review_decision (tenant_id, case_id, seq, decision, reason, actor, decided_at)
        VALUES ('t', 'rc-held-3', 1, 'different-people', 'twins', 'ana', 'now');
      INSERT INTO distinct_pair (tenant_id, left_identity_id, left_records, right_identity_id, right_records, case_id, decided_at)
        VALUES ('t', 1, '${'a'.repeat(64)}', 3, '${'b'.repeat(64)}', 'rc-held-3', 'now')`);
    before.close();

    const after = Store.open(path);
    expect(
      after.statement('SELECT case_id, score, limited_by, held_from, doubt FROM review_case ORDER BY case_id').all(),
    ).toEqual([
      { case_id: 'rc-00000000000000000000000000000001', score: 0.5, limited_by: null, held_from: null, doubt: null },
      { case_id: 'rc-held-3', score: 0.5, limited_by: 'PossibleTwin', held_from: 0.93, doubt: m.doubt },
    ]);
    if (later)
      expect(after.statement('SELECT case_id, outdated, twin_reason FROM review_case ORDER BY case_id').all()).toEqual([
        { case_id: 'rc-00000000000000000000000000000001', outdated: 0, twin_reason: null },
        { case_id: 'rc-held-3', outdated: 1, twin_reason: 'another-given-name' },
      ]);
    expect(after.statement('SELECT case_id, decision, reason FROM review_decision').all()).toEqual([
      { case_id: 'rc-held-3', decision: 'different-people', reason: 'twins' },
    ]);
    expect(after.statement('SELECT case_id FROM distinct_pair').pluck().all()).toEqual(['rc-held-3']);
    expect(
      after
        .statement(
          "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'review_case' AND sql IS NOT NULL",
        )
        .pluck()
        .all()
        .sort(),
    ).toEqual([
      'review_case_by_age',
      'review_case_by_hold',
      'review_case_by_job',
      'review_case_by_right',
      'review_case_by_source',
      'review_case_open',
      'review_case_pair',
      'review_case_waiting',
    ]);
    // The flag of a case out of date is kept by triggers (migration 0021), which a rebuild of the table would drop.
    expect(
      after.statement("SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name").pluck().all(),
    ).toEqual(['identity_outdates_review_cases', 'review_case_outdated_at_insert']);
    expect(
      after
        .statement("SELECT count(*) FROM sqlite_schema WHERE name LIKE '%_aside' OR name LIKE '%_next'")
        .pluck()
        .get(),
    ).toBe(0);
    expect(after.statement('PRAGMA foreign_key_check').all()).toEqual([]);
    const table = after.statement("SELECT sql FROM sqlite_schema WHERE name = 'review_case'").pluck().get() as string;
    for (const limit of ScoreLimitSchema.options) expect(table).toContain(`'${limit}'`);
    addHeldCase(after, 4, m.rule, 0.99);
    expect(() => {
      addHeldCase(after, 2, 'MiddleNames', 0.99);
    }).toThrow(/CHECK/);
    // The decisions still name their case: one that names no case is refused.
    expect(() => {
      after.exec(`INSERT INTO review_decision (tenant_id, case_id, seq, decision, reason, actor, decided_at)
        VALUES ('t', 'rc-none', 1, 'unsure', 'x', 'ana', 'now')`);
    }).toThrow(/FOREIGN KEY/);
    after.close();
  });
});
