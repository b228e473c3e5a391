/**
 * Profile changes checked against the configuration file and the blocking index (issue 7, items 8 and 9):
 * validate, apply and rollback refuse a blocking key version without a secret; apply refuses a direct,
 * non-overlapping blocking replacement (new rules only, or a new key without the previous one inactive, or
 * the final rules before the staged re-index completed) and names the staged procedure; the staged
 * procedure itself (union rules, previous key inactive, re-index, final rules, key removed) goes through.
 */
import { join } from 'node:path';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import type { BlockingConfig, BlockingRule } from '../../../engine/contract/profile.ts';
import { isEngineError, type EngineError } from '../../../engine/contract/errors.ts';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';

const TENANT = 'blocking-change';
const CTX = { tenantId: TENANT, actor: 'test' };
const NEW_RULE: BlockingRule = {
  Name: 'given-initial-postcode',
  Parts: [
    { Field: 'givenName', Transform: 'Initial' },
    { Field: 'postalCode', Transform: 'Exact' },
  ],
};
const STAGED = /Stage the change.*union of the old and new rules.*InactiveKeyVersion.*re-index.*docs\/maintenance\.md/s;

let engine: LocalEngine;
let db: string;

beforeEach(async () => {
  const dir = tempDir();
  db = join(dir, 'registry.db');
  engine = LocalEngine.open({ dbPath: db });
  onTestFinished(() => {
    engine.close();
  });
  await engine.call('sandbox/create', { syntheticPeople: 40, seed: 4 }, CTX);
});

async function cli(...args: string[]): Promise<void> {
  const run = await runCli(['--db', db, '--tenant', TENANT, ...args]);
  expect(run.code, run.stderr).toBe(0);
}

async function blocking(): Promise<BlockingConfig> {
  return (await engine.call('profile/get', {}, CTX)).profile.Blocking;
}

async function version(): Promise<number> {
  return (await engine.call('profile/get', {}, CTX)).matchingProfileVersion;
}

async function rejection(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    if (isEngineError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}

async function reindex(): Promise<void> {
  const { jobId } = await engine.call('maintenance/reindex', { reason: 'test', batchSize: 25 }, CTX);
  await runWorker(engine.env, { tenants: [TENANT], once: true });
  expect((await engine.call('jobs/get', { jobId }, CTX)).status).toBe('completed');
}

describe('blocking key versions are checked against the configuration file', () => {
  it('on validate and apply: a key version without a secret is refused with the path and the fix', async () => {
    const old = await blocking();
    for (const document of [
      { Blocking: { ...old, ActiveKeyVersion: 'k9', InactiveKeyVersion: 'k1' } },
      { Blocking: { ...old, InactiveKeyVersion: 'k8' } },
    ]) {
      const missing = document.Blocking.ActiveKeyVersion === 'k9' ? 'k9' : 'k8';
      const path = missing === 'k9' ? 'Blocking.ActiveKeyVersion' : 'Blocking.InactiveKeyVersion';
      const validation = await engine.call('profile/validate', { document }, CTX);
      expect(validation.valid).toBe(false);
      expect(validation.issues).toContainEqual({
        path,
        message: expect.stringMatching(
          new RegExp(`"${missing}".*no secret in the configuration file.*blocking-key add ${missing}`),
        ) as unknown,
      });
      const error = await rejection(engine.call('profile/apply', { document, reason: 'test' }, CTX));
      expect(error.kind).toBe('validation');
      expect(error.issues.map((i) => i.path)).toContain(path);
    }
    expect(await version()).toBe(1);
  });

  it('on rollback: restoring a version whose key was removed is refused', async () => {
    const old = await blocking();
    await cli('blocking-key', 'add', 'k2');
    await engine.call(
      'profile/apply',
      {
        document: { Blocking: { ...old, Version: 2, ActiveKeyVersion: 'k2', InactiveKeyVersion: 'k1' } },
        reason: 'stage key',
      },
      CTX,
    );
    await reindex();
    await engine.call(
      'profile/apply',
      { document: { Blocking: { ...old, Version: 3, ActiveKeyVersion: 'k2' } }, reason: 'final key' },
      CTX,
    );
    await cli('blocking-key', 'remove', 'k1');
    const error = await rejection(engine.call('profile/rollback', { reason: 'undo' }, CTX));
    expect(error.message).toMatch(/"k1".*no secret in the configuration file/);
    expect(await version()).toBe(3);
  });
});

describe('a direct non-overlapping blocking replacement is refused at apply time', () => {
  it('refuses new rules that share none with the index, naming the staged procedure', async () => {
    const old = await blocking();
    const document = { Blocking: { ...old, Version: 2, Rules: [NEW_RULE] } };
    const validation = await engine.call('profile/validate', { document }, CTX);
    expect(validation.valid).toBe(false);
    expect(validation.issues).toEqual([{ path: 'Blocking', message: expect.stringMatching(STAGED) as unknown }]);
    const error = await rejection(engine.call('profile/apply', { document, reason: 'direct' }, CTX));
    expect(error.issues).toEqual(validation.issues);
    expect(await version()).toBe(1);
  });

  it('counts a rule whose order of values changed (Unordered) as a new rule: it makes other tags', async () => {
    const old = await blocking();
    const Rules = old.Rules.map((rule) => ({ ...rule, Unordered: rule.Unordered !== true }));
    const validation = await engine.call(
      'profile/validate',
      { document: { Blocking: { ...old, Version: 2, Rules } } },
      CTX,
    );
    expect(validation.valid).toBe(false);
    expect(validation.issues).toEqual([{ path: 'Blocking', message: expect.stringMatching(STAGED) as unknown }]);
  });

  it('refuses a new key without the previous one kept inactive', async () => {
    await cli('blocking-key', 'add', 'k2');
    const error = await rejection(
      engine.call(
        'profile/apply',
        { document: { Blocking: { ...(await blocking()), ActiveKeyVersion: 'k2' } }, reason: 'direct key' },
        CTX,
      ),
    );
    expect(error.issues[0]?.message).toMatch(STAGED);
    expect(await version()).toBe(1);
  });

  it('refuses the final rules while the staged re-index has not completed, and accepts them after it', async () => {
    const old = await blocking();
    await cli('blocking-key', 'add', 'k2');
    await engine.call(
      'profile/apply',
      {
        document: {
          Blocking: { Version: 2, Rules: [...old.Rules, NEW_RULE], ActiveKeyVersion: 'k2', InactiveKeyVersion: 'k1' },
        },
        reason: 'stage',
      },
      CTX,
    );
    const final = { Blocking: { Version: 3, Rules: [NEW_RULE, ...old.Rules.slice(0, 2)], ActiveKeyVersion: 'k2' } };
    const early = await rejection(engine.call('profile/apply', { document: final, reason: 'too early' }, CTX));
    expect(early.issues[0]?.message).toMatch(/re-index/);
    await reindex();
    await engine.call('profile/apply', { document: final, reason: 'final' }, CTX);
    await cli('blocking-key', 'remove', 'k1');
    await reindex();
    expect(await version()).toBe(3);
    // A comparator-only change still goes through while the index holds only the final rules.
    await engine.call(
      'profile/apply',
      {
        document: { MatchingRules: { Thresholds: { Certain: 0.95, Probable: 0.8 }, FellegiSunter: null } },
        reason: 'thresholds',
      },
      CTX,
    );
    expect(await version()).toBe(4);
  });
});
