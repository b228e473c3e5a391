/**
 * `explain` says when a rule held a pair's score to Probable, and why, in the words of the one table of limit texts
 * (engine/contract/score-explanation.ts LIMIT_TEXT): here two records of one rare name born months apart in one year.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';
import { SYNTHETIC_SOURCES } from '../../../engine/synthetic/generate.ts';

const SOURCE = SYNTHETIC_SOURCES[0];
if (SOURCE === undefined) throw new Error('no synthetic source');

const patient = (localId: string, birthDate: string): string =>
  JSON.stringify({
    resourceType: 'Patient',
    identifier: [{ system: SOURCE.localIdentifierSystem, value: localId }],
    name: [{ use: 'official', family: 'Quillfeather', given: ['Ottoline'] }],
    gender: 'female',
    birthDate,
    address: [{ use: 'home', line: ['4 Marram Lane'], city: 'Wexcombe', postalCode: 'WX4 1QL' }],
  });

describe('explain on a pair a rule holds to Probable', () => {
  it('names the rule, says why, at most probable, and the score it held', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'limits'];
    expect((await runCli([...db, 'sandbox', 'init'])).code).toBe(0);
    const file = join(dir, 'pair.ndjson');
    writeFileSync(file, `${patient('QF-1', '2021-03-07')}\n${patient('QF-2', '2021-10-24')}\n`);
    expect((await runCli([...db, 'ingest', '--source', SOURCE.sourceSystem, '--ndjson', file])).code).toBe(0);
    const explained = await runCli([
      ...db,
      'explain',
      '--left',
      `${SOURCE.sourceSystem}/QF-1`,
      '--right',
      `${SOURCE.sourceSystem}/QF-2`,
    ]);
    expect(explained.code, explained.stderr).toBe(0);
    const limited =
      /score limited by\s+BirthDateConflict \(birth dates within a year but beyond a keying error, no personal identifier agrees: at most probable; held from (0\.\d{6})\)/.exec(
        explained.stdout,
      );
    // The score the fields gave before the hold: above the Probable threshold, or no rule would have held it.
    expect(Number(limited?.[1])).toBeGreaterThan(0.5);
    expect(explained.stdout).toMatch(/decision\s+probable/);
  });
});
