/**
 * A review case knows whether it is out of date (either identity changed since the case was opened, or was retired),
 * kept by the store's triggers on both stores (SQLite's migration 0021, PostgreSQL's 0011), so the review queue counts
 * and orders the cases that can be decided now from review_case alone. Checked against the definition itself: the
 * identities joined to every case. Real SQLite file, real PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Store } from '../../../engine/store/store.ts';
import { loadMigrations } from '../../../engine/store/migrate.ts';
import { loadPgMigrations } from '../../../engine/store/pg/pg-store.ts';
import { insertIdentity, updateCanonical } from '../../../engine/store/identities.ts';
import { insertReviewCase, listReviewCases, type ReviewCaseWrite } from '../../../engine/store/reviews.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { buildCanonical } from '../../../engine/ingest/survivorship.ts';
import { tempDir } from '../../helpers/temp.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';

const T = 'north';
const AT = '2026-12-04T10:00:00.000Z';

/** Every case of the tenant with its flag and the flag as the identities say it must be. */
const FLAG_AND_TRUTH = `SELECT c.case_id AS "caseId", c.outdated,
    CASE WHEN li.logical_version <> c.left_version OR ri.logical_version <> c.right_version
      OR li.status <> 'active' OR ri.status <> 'active' THEN 1 ELSE 0 END AS truth
  FROM review_case c
  JOIN identity li ON li.tenant_id = c.tenant_id AND li.identity_id = c.left_identity_id
  JOIN identity ri ON ri.tenant_id = c.tenant_id AND ri.identity_id = c.right_identity_id
  WHERE c.tenant_id = ? ORDER BY c.case_id`;

function caseOf(caseId: string, left: [number, number], right: [number, number]): ReviewCaseWrite {
  return {
    caseId: `rc-${caseId.padEnd(32, '0')}`,
    kind: 'IngestionMatch',
    leftIdentityId: left[0],
    leftVersion: left[1],
    rightIdentityId: right[0],
    rightVersion: right[1],
    profileVersion: 1,
    score: 0.8,
    decision: 'probable',
    evidence: [],
    limitedBy: null,
    heldFrom: null,
  };
}

function setUp(store: Store): void {
  store.exec(`INSERT INTO tenant (tenant_id, created_at) VALUES ('${T}', '${AT}')`);
  withTenant(T, () => {
    store.write(() => {
      store
        .statement(
          `INSERT INTO matching_profile (tenant_id, profile_version, profile_json, created_at, reason, is_active)
           VALUES (?, 1, '{}', ?, 'test', 1)`,
        )
        .run(T, AT);
    });
  });
}

/** Opens cases, changes and retires identities, and returns the flags read at each step beside their truth. */
function exercise(store: Store): { steps: { caseId: string; outdated: number; truth: number }[][]; current: string[] } {
  const steps: { caseId: string; outdated: number; truth: number }[][] = [];
  const read = (): void => {
    steps.push(store.statement(FLAG_AND_TRUTH).all(T) as { caseId: string; outdated: number; truth: number }[]);
  };
  return withTenant(T, () => {
    const ids = store.write(() =>
      [1, 2, 3, 4, 5].map((n) => insertIdentity(store, T, `E-${String(n)}`, buildCanonical([], []), AT)),
    );
    const [a, b, c, d, e] = ids as [number, number, number, number, number];
    const open = (w: ReviewCaseWrite): void => {
      store.write(() => insertReviewCase(store, T, w, AT));
    };
    const rebuild = (id: number): void => {
      store.write(() => updateCanonical(store, T, id, null, JSON.stringify(buildCanonical([], [])), AT));
    };
    open(caseOf('ab', [a, 1], [b, 1]));
    open(caseOf('cd', [c, 1], [d, 1]));
    open(caseOf('be', [b, 1], [e, 1]));
    open(caseOf('de', [d, 1], [e, 1]));
    read();
    rebuild(c); // the left side of cd
    open(caseOf('ce-old', [c, 1], [e, 1])); // opened naming a version c is no longer at
    open(caseOf('ac', [a, 1], [c, 2])); // opened at c's version now
    read();
    rebuild(b); // the right side of ab, the left of be
    read();
    store.write(() => {
      store.statement("UPDATE identity SET status = 'retired' WHERE tenant_id = ? AND identity_id = ?").run(T, e);
    });
    read();
    const current = store.read(() => listReviewCases(store, T, { status: 'open', currentOnly: true }, 'oldest', 50, 0));
    expect(current.total).toBe(current.rows.length);
    return { steps, current: current.rows.map((r) => r.caseId) };
  });
}

function expectTruth(result: ReturnType<typeof exercise>): void {
  for (const step of result.steps) for (const row of step) expect(row.outdated, row.caseId).toBe(row.truth);
  const outdatedAt = result.steps.map((step) => step.filter((r) => r.outdated === 1).map((r) => r.caseId.slice(3, 9)));
  expect(outdatedAt).toEqual([
    [],
    ['cd0000', 'ce-old'],
    ['ab0000', 'be0000', 'cd0000', 'ce-old'],
    ['ab0000', 'be0000', 'cd0000', 'ce-old', 'de0000'],
  ]);
  expect(result.current).toEqual([`rc-${'ac'.padEnd(32, '0')}`]);
}

describe('a review case out of date', () => {
  it('is flagged on SQLite when either identity changes or retires, or when opened at an old version', () => {
    const store = Store.open(join(tempDir(), 'outdated.db'));
    try {
      setUp(store);
      expectTruth(exercise(store));
    } finally {
      store.close();
    }
  });

  it('is flagged on PostgreSQL as on SQLite', async () => {
    const store = Store.open(await freshDatabase());
    try {
      setUp(store);
      expectTruth(exercise(store));
    } finally {
      store.close();
    }
  });

  it('is flagged for the cases a registry held before the flag existed, on both stores', async () => {
    const older = (migrations: ReturnType<typeof loadMigrations>, id: number) => migrations.filter((m) => m.id < id);
    for (const [location, migrations, id] of [
      [join(tempDir(), 'before.db'), loadMigrations(), 21],
      [await freshDatabase(), loadPgMigrations(), 11],
    ] as const) {
      const before = Store.open(location, { migrations: older(migrations, id) });
      setUp(before);
      withTenant(T, () => {
        before.write(() => {
          const [a, b, c] = [1, 2, 3].map((n) =>
            insertIdentity(before, T, `E-${String(n)}`, buildCanonical([], []), AT),
          ) as [number, number, number];
          // As a registry of that time wrote them: today's insertReviewCase writes columns added since.
          for (const [key, left, right] of [
            ['ab', a, b],
            ['bc', b, c],
          ] as const) {
            before
              .statement(
                `INSERT INTO review_case (tenant_id, case_id, kind, left_identity_id, left_version, right_identity_id,
                   right_version, profile_version, score, decision, evidence_json, status, created_at)
                 VALUES (?, ?, 'IngestionMatch', ?, 1, ?, 1, 1, 0.8, 'probable', '[]', 'open', ?)`,
              )
              .run(T, caseOf(key, [left, 1], [right, 1]).caseId, left, right, AT);
          }
          updateCanonical(before, T, c, null, JSON.stringify(buildCanonical([], [])), AT);
        });
      });
      before.close();
      const after = Store.open(location);
      try {
        const rows = withTenant(T, () => after.statement(FLAG_AND_TRUTH).all(T)) as {
          caseId: string;
          outdated: number;
        }[];
        expect(
          rows.map((r) => [r.caseId.slice(3, 5), r.outdated]),
          location,
        ).toEqual([
          ['ab', 0],
          ['bc', 1],
        ]);
      } finally {
        after.close();
      }
    }
  });
});
