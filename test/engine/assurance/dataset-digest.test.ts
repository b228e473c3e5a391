import { describe, expect, it } from 'vitest';
import { datasetDigest } from '../../../engine/assurance/dataset-digest.ts';
import type { LabelPair } from '../../../engine/assurance/labels.ts';

const P1: LabelPair = {
  left: { sourceSystem: 'EHR', localId: 'A1' },
  right: { sourceSystem: 'LAB', localId: 'B2' },
  isMatch: true,
};
const P2: LabelPair = {
  left: { sourceSystem: 'EHR', localId: 'A3' },
  right: { sourceSystem: 'LAB', localId: 'B4' },
  isMatch: false,
};
const mirror = (p: LabelPair): LabelPair => ({ left: p.right, right: p.left, isMatch: p.isMatch });

describe('datasetDigest', () => {
  it('is the SHA-256 of the documented serialisation', () => {
    // Computed independently with GNU coreutils:
    //   printf 'EHR\tA1\tLAB\tB2\t1\nEHR\tA3\tLAB\tB4\t0\n' | sha256sum
    //   → 1f58bac37ab9bebe812add9465adbc5f75714abaf589fb8f5c4279a20aaaa912
    expect(datasetDigest([P1, P2])).toBe('1f58bac37ab9bebe812add9465adbc5f75714abaf589fb8f5c4279a20aaaa912');
    //   printf 'EHR\tA1\tLAB\tB2\t1\n' | sha256sum
    //   → 70c0698f321c6d520b5df934784cbf97ddb4dfd1fa57cd2034e5e847b606b982
    expect(datasetDigest([P1])).toBe('70c0698f321c6d520b5df934784cbf97ddb4dfd1fa57cd2034e5e847b606b982');
  });

  it('of an empty dataset is the SHA-256 of the empty string', () => {
    // printf '' | sha256sum → e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
    expect(datasetDigest([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('is stable', () => {
    expect(datasetDigest([P1, P2])).toBe(datasetDigest([{ ...P1 }, { ...P2 }]));
  });

  it('is order-sensitive', () => {
    expect(datasetDigest([P2, P1])).not.toBe(datasetDigest([P1, P2]));
  });

  it('is label-sensitive', () => {
    expect(datasetDigest([{ ...P1, isMatch: false }, P2])).not.toBe(datasetDigest([P1, P2]));
  });

  it('distinguishes a pair from its mirror', () => {
    // printf 'LAB\tB2\tEHR\tA1\t1\n' | sha256sum
    //   → 7f8b8c81c8058cb8431c8db955f30da4c9ef0153efe06ee83acc889660bbcc4b
    expect(datasetDigest([mirror(P1)])).toBe('7f8b8c81c8058cb8431c8db955f30da4c9ef0153efe06ee83acc889660bbcc4b');
    expect(datasetDigest([mirror(P1)])).not.toBe(datasetDigest([P1]));
  });

  it('encodes non-ASCII identifiers as UTF-8', () => {
    // printf '\xc3\x89\t\xc3\xa4\tLAB\tB2\t1\n' | sha256sum   (É = C3 89, ä = C3 A4 in UTF-8)
    //   → d108a0eca889bd6d33c14fc911b83af9853f86de30dc7a0fb124593faceae990
    expect(
      datasetDigest([
        { left: { sourceSystem: 'É', localId: 'ä' }, right: { sourceSystem: 'LAB', localId: 'B2' }, isMatch: true },
      ]),
    ).toBe('d108a0eca889bd6d33c14fc911b83af9853f86de30dc7a0fb124593faceae990');
  });
});
