/**
 * The blocking-candidate enumeration groups keys rule by rule (blocking-candidates.ts), to hold one rule's keys at a
 * time. Checked against the plain reference it replaced, every rule's keys grouped at once in one map: on a real
 * synthetic sandbox the same pairs come out in the same order, whole and when the cap cuts them short, so the
 * estimate and the workbench draw exactly what they drew before; and each pair carries the rules under which its records
 * share a usable key (the estimate's per-rule sessions read them instead of working the keys out again).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { BlockingKeyOverlap } from '../../../engine/assurance/blocking-recall.ts';
import { blockingCandidatePairs } from '../../../engine/assurance/blocking-candidates.ts';
import { keyRingFor } from '../../../engine/config/key-ring.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import { tenantRecordFields } from '../../../engine/store/candidate-records.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import type { BlockingConfig } from '../../../engine/contract/profile.ts';
import { createRng } from '../../../engine/synthetic/prng.ts';

const ctx = { tenantId: 'demo', actor: 'test' };

/** Every rule's keys in one map, in the order they first appear; the pairs of each usable shared key, in that order. */
function referencePairs(overlap: BlockingKeyOverlap, fields: readonly MatchFields[]): number[] {
  const n = fields.length;
  const groups = new Map<string, number[]>();
  fields.forEach((f, i) => {
    for (let rule = 0; rule < overlap.ruleCount; rule++)
      for (const material of overlap.materialsOf(f, rule)) {
        const group = groups.get(material);
        if (group === undefined) groups.set(material, [i]);
        else if (group.at(-1) !== i) group.push(i);
      }
  });
  const seen = new Set<number>();
  const pairs: number[] = [];
  for (const [material, members] of groups) {
    if (members.length < 2 || !overlap.isUsable(material)) continue;
    for (let x = 0; x < members.length; x++)
      for (let y = x + 1; y < members.length; y++) {
        const key = (members[x] ?? 0) * n + (members[y] ?? 0);
        if (!seen.has(key)) pairs.push(key);
        seen.add(key);
      }
  }
  return pairs;
}

describe('blocking candidates, grouped rule by rule', () => {
  it('gives the pairs of the all-rules-at-once reference, in its order, whole and cut at the cap', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    try {
      await engine.call('sandbox/create', { syntheticPeople: 1_500, seed: 4 }, ctx);
      const { store } = engine.env;
      withTenant(ctx.tenantId, () => {
        const profile = activeProfile(store, ctx.tenantId).profile;
        const ring = keyRingFor(profile.Blocking, engine.env.settings(), ctx.tenantId);
        const overlap = (): BlockingKeyOverlap => new BlockingKeyOverlap(store, ctx.tenantId, profile.Blocking, ring);
        const fields = tenantRecordFields(store, ctx.tenantId).map((row) => JSON.parse(row.fieldsJson) as MatchFields);
        expect(profile.Blocking.Rules.length).toBeGreaterThan(3);

        const reference = referencePairs(overlap(), fields);
        expect(reference.length).toBeGreaterThan(1_000);
        const whole = blockingCandidatePairs(overlap(), fields, Number.MAX_SAFE_INTEGER);
        expect(whole.truncated).toBe(false);
        expect([...whole.pairs.keys()]).toEqual(reference);
        // Each pair's rule set is exactly the rules under which its records share a usable key.
        const check = overlap();
        let multiRule = 0;
        for (const [pair, rules] of whole.pairs) {
          const a = fields[Math.floor(pair / fields.length)] as MatchFields;
          const b = fields[pair % fields.length] as MatchFields;
          const expected = Array.from({ length: check.ruleCount }, (_, r) =>
            check.allSharedKeys(a, b, r).some((key) => check.isUsable(key)),
          );
          expect(Array.from({ length: check.ruleCount }, (_, r) => ((rules >>> r) & 1) === 1)).toEqual(expected);
          if (expected.filter(Boolean).length > 1) multiRule++;
        }
        expect(multiRule).toBeGreaterThan(100);

        const cap = Math.floor(reference.length / 3);
        const cut = blockingCandidatePairs(overlap(), fields, cap);
        expect(cut.truncated).toBe(true);
        expect([...cut.pairs.keys()]).toEqual(reference.slice(0, cap));

        // Among a sample of the records every shared key's block size is read: still the reference's pairs.
        const sample = fields.filter((_, i) => i % 2 === 0);
        expect([
          ...blockingCandidatePairs(overlap(), sample, Number.MAX_SAFE_INTEGER, undefined, {
            sampled: true,
          }).pairs.keys(),
        ]).toEqual(referencePairs(overlap(), sample));
      });
    } finally {
      engine.close();
    }
  });

  it('groups on values exactly as on key strings: several values per part, the cap, Unordered, three parts, a separator', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'c.db') });
    try {
      await engine.call('sandbox/create', { syntheticPeople: 10, seed: 4 }, ctx);
      const { store } = engine.env;
      const blocking: BlockingConfig = {
        ...activeProfile(store, ctx.tenantId).profile.Blocking,
        Rules: [
          // Family names (a current one and previous ones) by identifiers: products past MAX_KEYS_PER_RULE.
          {
            Name: 'family-identifier',
            Parts: [
              { Field: 'familyName', Transform: 'Exact' },
              { Field: 'identifier', Transform: 'Exact' },
            ],
          },
          {
            Name: 'names-unordered',
            Unordered: true,
            Parts: [
              { Field: 'familyName', Transform: 'Prefix3' },
              { Field: 'givenName', Transform: 'Prefix3' },
            ],
          },
          { Name: 'identifier', Parts: [{ Field: 'identifier', Transform: 'Exact' }] },
          {
            Name: 'three-parts',
            Parts: [
              { Field: 'familyName', Transform: 'Initial' },
              { Field: 'givenName', Transform: 'Initial' },
              { Field: 'birthDate', Transform: 'Year' },
            ],
          },
          // Values holding the key separator, as a city and an e-mail here: ('new␟york', 'x') and ('new', 'york␟x') make
          // one key string, so the rule is grouped on the key strings.
          {
            Name: 'city-email',
            Parts: [
              { Field: 'city', Transform: 'Exact' },
              { Field: 'email', Transform: 'Exact' },
            ],
          },
        ],
      };
      const rng = createRng(5);
      const pick = <T>(items: readonly T[]): T => items[rng.int(items.length)] as T;
      const names = ['abel', 'abbot', 'bell', 'belle', 'cole', 'colm', 'dunn', 'abe'];
      const fields: MatchFields[] = Array.from({ length: 400 }, () => ({
        familyName: rng.chance(0.1) ? null : pick(names),
        previousFamilyNames: Array.from({ length: rng.int(4) }, () => pick(names)),
        givenName: rng.chance(0.1) ? null : pick(names),
        middleNames: null,
        birthDate: `19${String(10 + rng.int(5))}-01-01`,
        sex: null,
        addressLine: null,
        city: pick(['new\u001fyork', 'new']),
        state: null,
        postalCode: null,
        phone: null,
        email: pick(['x', 'york\u001fx']),
        identifiers: Array.from({ length: rng.int(6) }, () => ({ system: 'urn:s', value: String(rng.int(12)) })),
      }));
      withTenant(ctx.tenantId, () => {
        const ring = keyRingFor(blocking, engine.env.settings(), ctx.tenantId);
        const overlap = (): BlockingKeyOverlap => new BlockingKeyOverlap(store, ctx.tenantId, blocking, ring);
        const whole = blockingCandidatePairs(overlap(), fields, Number.MAX_SAFE_INTEGER);
        expect([...whole.pairs.keys()]).toEqual(referencePairs(overlap(), fields));
        const check = overlap();
        for (const [pair, rules] of whole.pairs) {
          const a = fields[Math.floor(pair / fields.length)] as MatchFields;
          const b = fields[pair % fields.length] as MatchFields;
          for (let r = 0; r < check.ruleCount; r++)
            expect(((rules >>> r) & 1) === 1).toBe(check.allSharedKeys(a, b, r).some((key) => check.isUsable(key)));
        }
        // Every rule found pairs, and some records reach the cap of keys per rule.
        for (let r = 0; r < check.ruleCount; r++)
          expect([...whole.pairs.values()].some((rules) => ((rules >>> r) & 1) === 1)).toBe(true);
        expect(fields.some((f) => check.materialsOf(f, 0).length === 8)).toBe(true);
      });
    } finally {
      engine.close();
    }
  });
});
