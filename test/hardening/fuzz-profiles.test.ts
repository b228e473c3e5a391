/**
 * Property-based test of matching profiles (issue 7, "keep it that way"): whole profiles and partial
 * documents (some sections) with random leaves replaced — planted secrets, control characters, wrong types,
 * out-of-range numbers, Object.prototype names as keys, unknown keys. Validation and apply always agree;
 * a rejection is a validation error whose every issue names a path and never repeats a planted secret, and
 * it writes nothing (profile versions and audit rows unchanged).
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../engine/local-engine.ts';
import type { MatchingProfile } from '../../engine/contract/profile.ts';

import { expectNoPlanted, expectSafeRejection, newSecret, plantedText } from './fuzz-helpers.ts';
import { scratchDir } from '../helpers/temp.ts';

const CTX = { tenantId: 'profile-fuzz', actor: 'test' };
let engine: LocalEngine;
let cleanup: () => void;
let base: MatchingProfile;
let secrets: string[];

beforeAll(async () => {
  const temp = scratchDir('mpi-fuzz-profiles-');
  cleanup = temp.cleanup;
  engine = LocalEngine.open({ dbPath: join(temp.dir, 'profiles.db') });
  await engine.call('sandbox/create', { syntheticPeople: 30, seed: 2 }, CTX);
  base = (await engine.call('profile/get', {}, CTX)).profile;
  const tenantKey = engine.env.settings().BlockingKeys.get(CTX.tenantId)?.get('k1') ?? '';
  secrets = [tenantKey, newSecret(), newSecret()];
});

afterAll(() => {
  engine.close();
  cleanup();
});

function counts(): string {
  const one = (sql: string): number => engine.env.store.statement(sql).pluck().get(CTX.tenantId) as number;
  return `${String(one('SELECT COUNT(*) FROM matching_profile WHERE tenant_id = ?'))}/${String(one('SELECT COUNT(*) FROM audit_record WHERE tenant_id = ?'))}`;
}

/** Every path to a leaf or container of a JSON value. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...paths(item, [...prefix, i])));
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function setAt(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) return (root as unknown[]).map((item, i) => (i === head ? setAt(item, rest, value) : item));
  if (typeof root === 'object' && root !== null) {
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(root)) copy[k] = k === head ? setAt(v, rest, value) : v;
    return copy;
  }
  return root;
}

function replacement(): fc.Arbitrary<unknown> {
  const secret = fc.constantFrom(0, 1, 2).map((i) => secrets[i] ?? '');
  return fc.oneof(
    plantedText(['__SECRET__']).chain((text) => secret.map((s) => text.replace('__SECRET__', s))),
    secret.map((s) => ({ [s]: ['x'] })),
    secret.map((s) => [s]),
    fc.constantFrom(
      null,
      true,
      -1,
      0,
      0.5,
      1,
      2,
      1e308,
      '',
      'Nickname',
      'Exact',
      'k1',
      'k9',
      '__proto__',
      [],
      {},
      { constructor: ['x'] },
    ),
    fc.string({ maxLength: 12 }),
  );
}

const document = fc
  .tuple(
    fc.subarray(
      [
        'Comparators',
        'MatchingRules',
        'Blocking',
        'SourceTrust',
        'TrustedIdentifierSystems',
        'HardConflictRules',
      ] as const,
      { minLength: 1 },
    ),
    fc.array(fc.tuple(fc.nat(), replacement()), { minLength: 0, maxLength: 3 }),
  )
  .map(([sections, edits]) => {
    let doc: unknown = Object.fromEntries(sections.map((s) => [s, base[s]]));
    for (const [at, value] of edits) {
      const all = paths(doc).filter((p) => p.length > 0);
      doc = setAt(doc, all[at % all.length] ?? [], value);
    }
    return doc;
  });

describe('profiles, fuzzed', () => {
  it('validate and apply agree; rejections name paths, never repeat a secret and write nothing', async () => {
    const seen = { valid: 0, invalid: 0 };
    await fc.assert(
      fc.asyncProperty(document, async (doc) => {
        const validation = await engine.call('profile/validate', { document: doc }, CTX);
        for (const issue of validation.issues) expect(issue.path).not.toBe('');
        expectNoPlanted(JSON.stringify(validation), secrets);
        const before = counts();
        try {
          await engine.call('profile/apply', { document: doc, reason: 'fuzz' }, CTX);
          expect(validation.valid, JSON.stringify(validation.issues)).toBe(true);
          seen.valid++;
        } catch (error) {
          expect(validation.valid, 'validate accepted what apply refused').toBe(false);
          const rejected = expectSafeRejection(error, secrets);
          expect(rejected.issues).toEqual(validation.issues);
          expect(counts()).toBe(before);
          seen.invalid++;
        }
      }),
      { numRuns: 120 },
    );
    expect(seen.valid).toBeGreaterThan(3);
    expect(seen.invalid).toBeGreaterThan(20);
  });
});
