/**
 * A sandbox copied to another folder without its configuration file (which holds the blocking keys, never the
 * database): matching a new record and comparing two records' values are refused with words that say what to do,
 * nothing is written, and the records already there are still read and scored.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { isEngineError } from '../../../engine/contract/errors.ts';
import { tempDir } from '../../helpers/temp.ts';

const ctx = { tenantId: 'moved', actor: 'test' };

async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (isEngineError(error)) return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a sandbox moved without its configuration file', () => {
  it('says which key is missing, refuses to match or compare values, says which file to bring, writes nothing', async () => {
    const made = join(tempDir(), 'made.db');
    const first = LocalEngine.open({ dbPath: made });
    await first.call('sandbox/create', { syntheticPeople: 40, seed: 2 }, ctx);
    const [a, b] = (await first.call('identities/list', { limit: 2 }, ctx)).rows;
    expect((await first.call('profile/summary', {}, ctx)).missingKeyVersions).toEqual([]);
    first.close();
    if (a === undefined || b === undefined) throw new Error('expected two records');

    const moved = join(tempDir(), 'moved.db');
    copyFileSync(made, moved);
    const engine = LocalEngine.open({ dbPath: moved, create: false, onWarning: () => undefined });
    try {
      // The summary the console's pages read says which key is missing.
      expect((await engine.call('profile/summary', {}, ctx)).missingKeyVersions).toEqual(['k1']);
      const before = await engine.call('identities/list', { limit: 1 }, ctx);
      const patient = { resourceType: 'Patient', id: 'p-1', name: [{ family: 'Nguyen', given: ['Ana'] }] };
      const ingest = await refusal(
        engine.call('records/ingest', { sourceSystem: a.sourceSystem, ndjson: JSON.stringify(patient) + '\n' }, ctx),
      );
      const explain = await refusal(
        engine.call(
          'matching/explain',
          {
            left: { sourceSystem: a.sourceSystem, localId: a.localId },
            right: { sourceSystem: b.sourceSystem, localId: b.localId },
            withValues: true,
          },
          ctx,
        ),
      );
      for (const message of [ingest, explain]) {
        expect(message).toMatch(/blocking key version "k1" of tenant "moved" is not in the configuration file/);
        expect(message).toMatch(/open the registry with the configuration file it was made with/);
        expect(message).toMatch(/\.config\.json/);
      }
      // Nothing written, and what is there is still read.
      expect((await engine.call('identities/list', { limit: 1 }, ctx)).total).toBe(before.total);
    } finally {
      engine.close();
    }
  });
});
