import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { BlockingKeyOverlap } from '../../../engine/assurance/blocking-recall.ts';
import { SqliteStore } from '../../../engine/store/db.ts';
import type { BlockingConfig } from '../../../engine/contract/profile.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';
import { tempDir } from '../../helpers/temp.ts';

const names = (unordered: boolean): BlockingConfig => ({
  Version: 1,
  ActiveKeyVersion: 'k1',
  Rules: [
    {
      Name: 'names',
      Parts: [
        { Field: 'familyName', Transform: 'Phonetic' },
        { Field: 'givenName', Transform: 'Phonetic' },
      ],
      ...(unordered ? { Unordered: true } : {}),
    },
  ],
});

describe('blocking recall under an Unordered rule', () => {
  it('finds the key two records share crosswise, which part-by-part values would miss', () => {
    const store = SqliteStore.open(join(tempDir(), 'registry.db'));
    try {
      const ring = { keys: [{ version: 'k1', secret: Buffer.alloc(32, 1) }] };
      const plain: MatchFields = SAMPLE_FIELDS;
      const swapped: MatchFields = { ...SAMPLE_FIELDS, familyName: 'annabel', givenName: 'fairweather' };
      const ordered = new BlockingKeyOverlap(store, 't', names(false), ring);
      const unordered = new BlockingKeyOverlap(store, 't', names(true), ring);
      expect(ordered.oneSharedKey(plain, swapped, 0)).toBeUndefined();
      const key = unordered.oneSharedKey(plain, swapped, 0);
      expect(key).toBeDefined();
      expect(unordered.materialsOf(plain, 0)).toEqual([key]);
      expect(unordered.materialsOf(swapped, 0)).toEqual([key]);
      // Other people share nothing.
      expect(unordered.oneSharedKey(plain, { ...SAMPLE_FIELDS, givenName: 'zebedee' }, 0)).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
