import { describe, expect, it } from 'vitest';
import { FIELD_INDEX } from '../../../engine/contract/fields.ts';
import { FIELD_COUNT } from '../../../engine/scoring/field-comparison.ts';
import { scoreLimit, TERM_READINGS } from '../../../engine/scoring/scorer.ts';
import { compileModel } from '../../../engine/scoring/fellegi-sunter.ts';
import { defaultModel } from '../../../engine/scoring/default-model.ts';
import { DEFAULT_COMPARATOR_VERSION } from '../../../engine/profile/default-profile.ts';
import {
  linkChange,
  linksKeptCheck,
  profileLinks,
  MAX_NET_LOSS_SHARE,
  MIN_NET_LOSS,
  type ModelledPairs,
} from '../../../engine/assurance/links-kept.ts';

const PROFILE = { model: compileModel(defaultModel(DEFAULT_COMPARATOR_VERSION)), certain: 0.97, priorShift: 0 };

type Kind = 'sure' | 'apart' | 'held';

/**
 * Pairs of three kinds, each field missing unless set: 'sure' agree exactly on family name, given name and birth date
 * (the default model links them); 'apart' differ on all three; 'held' agree on the birth date with both names missing,
 * which the name-evidence rule holds at Probable under any model.
 */
function pairs(kinds: readonly Kind[]): ModelledPairs {
  const similarity = new Float64Array(kinds.length * FIELD_COUNT).fill(Number.NaN);
  kinds.forEach((kind, i) => {
    const set = (field: keyof typeof FIELD_INDEX, value: number): void => {
      similarity[i * FIELD_COUNT + FIELD_INDEX[field]] = value;
    };
    set('birthDate', kind === 'apart' ? 0 : 1);
    if (kind !== 'held') {
      set('familyName', kind === 'sure' ? 1 : 0);
      set('givenName', kind === 'sure' ? 1 : 0);
    }
  });
  return {
    count: kinds.length,
    similarity,
    termReadings: new Float64Array(kinds.length * TERM_READINGS).fill(Number.NaN),
    flags: new Uint8Array(kinds.length),
  };
}

const repeat = (kind: Kind, n: number): Kind[] => Array.from({ length: n }, () => kind);

/** The estimate's side: its scores, the pairs a rule holds (as the estimate marks them) and its Certain. */
function estimate(modelled: ModelledPairs, score: Float64Array, certain: number) {
  const held = new Uint8Array(modelled.count);
  for (let i = 0; i < modelled.count; i++)
    held[i] = scoreLimit(modelled.similarity.subarray(i * FIELD_COUNT, (i + 1) * FIELD_COUNT), modelled.flags[i])
      ? 1
      : 0;
  return { score, held, certain };
}

describe('the links-kept check: an estimate may not only take the active profile’s links away', () => {
  it('fails a model that would stop linking pairs the profile links and link none of its own', () => {
    const modelled = pairs([...repeat('sure', 20), ...repeat('apart', 30)]);
    const change = linkChange(
      profileLinks(modelled, PROFILE),
      estimate(modelled, new Float64Array(50).fill(0.1), 0.97),
    );
    expect(change).toEqual({ profileLinks: 20, estimateLinks: 0, takenAway: 20, added: 0 });
    const check = linksKeptCheck(change);
    expect(check.passed).toBe(false);
    expect(check.check).toBe('links-kept');
    expect(check.detail).toContain('stop linking 20 of the 20 candidate pairs the active profile links and link 0');
  });

  it('passes a model that adds at least as many links as it takes away', () => {
    const modelled = pairs([...repeat('sure', 20), ...repeat('apart', 30)]);
    // It links 12 of the profile's 20 and 25 pairs the profile does not.
    const score = new Float64Array(50).fill(0.1);
    score.fill(0.99, 8, 45);
    const change = linkChange(profileLinks(modelled, PROFILE), estimate(modelled, score, 0.97));
    expect(change).toEqual({ profileLinks: 20, estimateLinks: 37, takenAway: 8, added: 25 });
    expect(linksKeptCheck(change).passed).toBe(true);
  });

  it('counts no held pair: a pair a rule holds is a review case under either model', () => {
    const modelled = pairs(repeat('held', 40));
    const change = linkChange(
      profileLinks(modelled, PROFILE),
      estimate(modelled, new Float64Array(40).fill(0.999), 0.97),
    );
    expect(change).toEqual({ profileLinks: 0, estimateLinks: 0, takenAway: 0, added: 0 });
  });

  it('reads the estimate’s links at its own Certain and the profile’s prior as moved for the registry’s size', () => {
    const modelled = pairs(repeat('sure', 20));
    const score = new Float64Array(20).fill(0.9);
    expect(linkChange(profileLinks(modelled, PROFILE), estimate(modelled, score, 0.95)).estimateLinks).toBe(0);
    expect(linkChange(profileLinks(modelled, PROFILE), estimate(modelled, score, 0.8)).estimateLinks).toBe(20);
    // A registry so large that the profile's prior falls by e^-30: the profile links none of them any more.
    expect(
      linkChange(profileLinks(modelled, { ...PROFILE, priorShift: -30 }), estimate(modelled, score, 0.8)).profileLinks,
    ).toBe(0);
  });

  it(`lets a net loss below ${String(MIN_NET_LOSS)} pairs or ${String(MAX_NET_LOSS_SHARE * 100)}% of the profile's links pass`, () => {
    const few = { profileLinks: 20, estimateLinks: 11, takenAway: MIN_NET_LOSS - 1, added: 0 };
    expect(linksKeptCheck(few).passed).toBe(true);
    expect(linksKeptCheck({ ...few, takenAway: MIN_NET_LOSS }).passed).toBe(false);
    const many = { profileLinks: 2_000, estimateLinks: 1_985, takenAway: 20, added: 5 };
    expect(linksKeptCheck(many).passed).toBe(true);
    expect(linksKeptCheck({ ...many, takenAway: 26 }).passed).toBe(false);
  });
});
