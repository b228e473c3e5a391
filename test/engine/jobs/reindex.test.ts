/**
 * Re-index: a direct non-overlapping blocking change (new rules, or a new key without the previous one kept
 * inactive) is refused by `profile apply`; should such a profile be active all the same (written before that
 * check, or by another tool), the re-index fails in validation with no identity or tag changed; the staged
 * procedure of docs/maintenance.md
 * (union of rules + previous key inactive → re-index → final rules, previous key removed → clean-up
 * re-index), run through the CLI, succeeds and keeps candidate discovery complete throughout.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import type { BlockingConfig, BlockingRule } from '../../../engine/contract/profile.ts';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { keyRingFor } from '../../../engine/config/key-ring.ts';
import { tagHex } from '../../../engine/blocking/tags.ts';
import { identityTags } from '../../../engine/ingest/identity-rebuild.ts';
import { recordsOfIdentity } from '../../../engine/store/records.ts';
import { tagsOfIdentity } from '../../../engine/store/tags.ts';
import { activeProfile, insertActiveProfile } from '../../../engine/store/profiles.ts';
import { CTX, TENANT, cli, cliJson, dumpTables, makeSandbox } from './helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

const NEW_RULE: BlockingRule = {
  Name: 'given-initial-postcode',
  Parts: [
    { Field: 'givenName', Transform: 'Initial' },
    { Field: 'postalCode', Transform: 'Exact' },
  ],
};

let dir: string;
let cleanup: () => void;
let db: string;

beforeEach(async () => {
  ({ dir, cleanup } = scratchDir());
  db = await makeSandbox(dir, 'registry', 400, 9);
});

afterEach(() => {
  cleanup();
});

function run(args: readonly string[]): string {
  const result = cli(db, args);
  expect(result.status, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

function applyBlocking(blocking: BlockingConfig, name: string): void {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ Blocking: blocking }));
  run(['profile', 'validate', file]);
  run(['profile', 'apply', file, '--reason', name]);
}

/**
 * A direct blocking change: refused by validate and apply (naming the staged procedure), then made active
 * through the store itself, as a profile from before that check would be.
 */
async function forceBlocking(blocking: BlockingConfig, name: string): Promise<void> {
  const engine = LocalEngine.open({ dbPath: db });
  try {
    const document = { Blocking: blocking };
    const validation = await engine.call('profile/validate', { document }, CTX);
    expect(validation.issues.map((i) => i.message).join()).toMatch(/Stage the change/);
    await expect(engine.call('profile/apply', { document, reason: name }, CTX)).rejects.toMatchObject({
      kind: 'validation',
    });
    const { store } = engine.env;
    store.write(() => {
      insertActiveProfile(
        store,
        TENANT,
        { ...activeProfile(store, TENANT).profile, Blocking: blocking },
        name,
        new Date().toISOString(),
      );
    });
  } finally {
    engine.close();
  }
}

function currentBlocking(): BlockingConfig {
  const engine = LocalEngine.open({ dbPath: db });
  try {
    return activeProfile(engine.env.store, TENANT).profile.Blocking;
  } finally {
    engine.close();
  }
}

function reindexAndDrain(): JobState {
  const { jobId } = cliJson<{ jobId: string }>(db, ['reindex', '--reason', 'test re-index', '--batch-size', '7']);
  run(['worker', '--once']);
  return cliJson<JobState>(db, ['job', 'show', jobId]);
}

/**
 * For every active identity: how many of its target tags under the active configuration are missing from
 * its stored tags (candidate discovery is complete when none is), and how many stored tags are not targets.
 */
function tagCoverage(): { missing: number; extra: number; identities: number } {
  const engine = LocalEngine.open({ dbPath: db });
  try {
    const { store } = engine.env;
    const { Blocking } = activeProfile(store, TENANT).profile;
    const ring = keyRingFor(Blocking, engine.env.settings(), TENANT);
    const ids = store
      .statement("SELECT identity_id FROM identity WHERE tenant_id = ? AND status = 'active'")
      .pluck()
      .all(TENANT) as number[];
    let missing = 0;
    let extra = 0;
    for (const id of ids) {
      const stored = new Set(tagsOfIdentity(store, TENANT, id).map((t) => tagHex(t.tag)));
      const target = new Set(
        identityTags(recordsOfIdentity(store, TENANT, id), Blocking, ring).map((t) => tagHex(t.tag)),
      );
      for (const t of target) if (!stored.has(t)) missing++;
      for (const t of stored) if (!target.has(t)) extra++;
    }
    return { missing, extra, identities: ids.length };
  } finally {
    engine.close();
  }
}

function expectFailedValidation(job: JobState, identities: number): void {
  expect(job.status).toBe('failed');
  expect(job.phases.map((p) => [p.name, p.status])).toEqual([
    ['validation', 'failed'],
    ['writing', 'pending'],
  ]);
  expect(job.counters.validated).toBe(identities);
  expect(job.counters.failure).toBeGreaterThan(0);
  expect(job.counters.scanned).toBe(0);
  expect(job.error).toMatch(/no identity was changed/);
  expect(job.phases[0]?.note).toMatch(/^first identity with no blocking key in both indexes: enterprise ID /);
}

describe('re-index validation', () => {
  it('fails a direct replacement of the rules before any identity or tag changes', async () => {
    const before = dumpTables(db, ['identity', 'blocking_tag']);
    const old = currentBlocking();
    await forceBlocking({ ...old, Version: 2, Rules: [NEW_RULE] }, 'direct-rules');
    const job = reindexAndDrain();
    expectFailedValidation(job, job.populationTotal ?? -1);
    expect(dumpTables(db, ['identity', 'blocking_tag'])).toEqual(before);
    const history = cliJson<{ rows: JobState[] }>(db, ['jobs']);
    expect(history.rows.map((j) => j.status)).toEqual(['failed']);
  });

  it('fails a new key that does not keep the previous one inactive, with no identity or tag changed', async () => {
    const before = dumpTables(db, ['identity', 'blocking_tag']);
    run(['blocking-key', 'add', 'k2']);
    await forceBlocking({ ...currentBlocking(), ActiveKeyVersion: 'k2' }, 'direct-key');
    const job = reindexAndDrain();
    expectFailedValidation(job, job.populationTotal ?? -1);
    expect(job.counters.failure).toBe(job.populationTotal);
    expect(dumpTables(db, ['identity', 'blocking_tag'])).toEqual(before);
  });

  it('passes identities that lost some or all stored tags, warns for those with none, and gives the tags back', () => {
    const engine = LocalEngine.open({ dbPath: db });
    try {
      const { store } = engine.env;
      const ids = store
        .statement("SELECT identity_id FROM identity WHERE tenant_id = ? AND status = 'active' ORDER BY identity_id")
        .pluck()
        .all(TENANT) as number[];
      const [bare1, bare2, partial] = [ids[3], ids[40], ids[77]];
      store.write(() => {
        // Two identities without any stored tag (nothing to lose: a warning), and one that keeps only one rule's
        // tags, so its first target tag is missing and validation must look at all it holds.
        store
          .statement('DELETE FROM blocking_tag WHERE tenant_id = ? AND identity_id IN (?, ?)')
          .run(TENANT, bare1, bare2);
        const kept = store
          .statement(
            "DELETE FROM blocking_tag WHERE tenant_id = ? AND identity_id = ? AND rule_name <> 'family-given-phonetic'",
          )
          .run(TENANT, partial);
        expect(kept.changes).toBeGreaterThan(0);
      });
      expect(tagsOfIdentity(store, TENANT, partial ?? -1).length).toBeGreaterThan(0);
    } finally {
      engine.close();
    }
    expect(tagCoverage().missing).toBeGreaterThan(0);
    const job = reindexAndDrain();
    expect(job.status).toBe('completed');
    expect(job.counters).toMatchObject({ validated: job.populationTotal, warning: 2, failure: 0, updated: 3 });
    expect(tagCoverage()).toMatchObject({ missing: 0, extra: 0 });
  });

  it('leaves an unchanged configuration unchanged', () => {
    const before = dumpTables(db, ['identity', 'blocking_tag']);
    const job = reindexAndDrain();
    expect(job.status).toBe('completed');
    expect(job.counters).toMatchObject({
      validated: job.populationTotal,
      scanned: job.populationTotal,
      updated: 0,
      unchanged: job.populationTotal,
      failure: 0,
    });
    expect(dumpTables(db, ['identity', 'blocking_tag'])).toEqual(before);
  });
});

describe('the staged blocking change (docs/maintenance.md)', () => {
  it(
    'changes rules and key through a union stage and keeps candidate discovery complete',
    { timeout: 180_000 },
    async () => {
      const old = currentBlocking();
      const finalRules = [...old.Rules.filter((r) => r.Name !== 'phone' && r.Name !== 'birth-date-postcode'), NEW_RULE];
      expect(tagCoverage().missing).toBe(0);

      // 1-2: the union of old and new rules; the new key active, the previous one inactive.
      run(['blocking-key', 'add', 'k2']);
      applyBlocking(
        { Version: 2, Rules: [...old.Rules, NEW_RULE], ActiveKeyVersion: 'k2', InactiveKeyVersion: 'k1' },
        'stage',
      );
      // 3: re-index until completed.
      const staged = reindexAndDrain();
      expect(staged.status).toBe('completed');
      expect(staged.counters.failure).toBe(0);
      expect(staged.counters.updated).toBe(staged.populationTotal);
      expect(tagCoverage()).toMatchObject({ missing: 0, extra: 0 });

      // 4: the final rules; the previous key removed (refused while the profile still names it).
      const refused = cli(db, ['blocking-key', 'remove', 'k1']);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/inactive key of the active profile/);
      applyBlocking({ Version: 3, Rules: finalRules, ActiveKeyVersion: 'k2' }, 'final');
      run(['blocking-key', 'remove', 'k1']);
      const afterFinal = tagCoverage();
      expect(afterFinal.missing).toBe(0);
      expect(afterFinal.extra).toBeGreaterThan(0);

      // A new record of a known person still finds its identity through the stored tags.
      const engine = LocalEngine.open({ dbPath: db });
      try {
        const row = engine.env.store
          .statement(
            "SELECT r.source_system, x.resource_json FROM source_record r JOIN source_resource x ON x.record_id = r.record_id WHERE r.tenant_id = ? AND r.source_system = 'st-marys-hospital' ORDER BY r.record_id LIMIT 1",
          )
          .get(TENANT) as { source_system: string; resource_json: string };
        const patient = JSON.parse(row.resource_json) as {
          id: string;
          identifier: { system: string; value: string }[];
        };
        patient.id = 'copy-of-a-known-person';
        for (const identifier of patient.identifier)
          if (identifier.system.endsWith(':mrn')) identifier.value = 'SM-NEW-0001';
        const report = await engine.call(
          'records/ingest',
          { sourceSystem: row.source_system, ndjson: JSON.stringify(patient) },
          CTX,
        );
        expect(report.autoLinked).toBe(1);
      } finally {
        engine.close();
      }
    },
  );

  it('an optional clean-up re-index removes the obsolete tags', { timeout: 180_000 }, () => {
    const old = currentBlocking();
    run(['blocking-key', 'add', 'k2']);
    applyBlocking(
      { Version: 2, Rules: [...old.Rules, NEW_RULE], ActiveKeyVersion: 'k2', InactiveKeyVersion: 'k1' },
      'stage',
    );
    expect(reindexAndDrain().status).toBe('completed');
    applyBlocking({ Version: 3, Rules: [NEW_RULE, ...old.Rules.slice(0, 3)], ActiveKeyVersion: 'k2' }, 'final');
    run(['blocking-key', 'remove', 'k1']);
    const cleanupJob = reindexAndDrain();
    expect(cleanupJob.status).toBe('completed');
    expect(cleanupJob.counters.updated).toBe(cleanupJob.populationTotal);
    expect(tagCoverage()).toMatchObject({ missing: 0, extra: 0 });
  });
});
