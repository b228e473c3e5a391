/**
 * `explain` says when a rule held a pair's score to Probable, and why, in the words of the one table of limit texts
 * (engine/contract/score-explanation.ts LIMIT_TEXT): here two records of one rare name born months apart in one year;
 * and, for possible twins, which case of the twin rule held the pair (TWIN_REASON_TEXT).
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

/** Two Patients (QF-1 and QF-2) ingested through the CLI into a new sandbox, then `explain` on them: its output. */
const explainPair = async (left: string, right: string): Promise<string> => {
  const dir = tempDir();
  const db = ['--db', join(dir, 's.db'), '--tenant', 'limits'];
  expect((await runCli([...db, 'sandbox', 'init'])).code).toBe(0);
  const file = join(dir, 'pair.ndjson');
  writeFileSync(file, `${left}\n${right}\n`);
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
  return explained.stdout;
};

describe('explain on a pair a rule holds to Probable', () => {
  it('names the rule, says why, at most probable, and the score it held', async () => {
    const stdout = await explainPair(patient('QF-1', '2021-03-07'), patient('QF-2', '2021-10-24'));
    const limited =
      /score limited by\s+BirthDateConflict \(birth dates within a year but beyond a keying error, no personal identifier agrees: at most probable; held from (0\.\d{6})\)/.exec(
        stdout,
      );
    // The score the fields gave before the hold: above the Probable threshold, or no rule would have held it.
    expect(Number(limited?.[1])).toBeGreaterThan(0.5);
    expect(stdout).toMatch(/decision\s+probable/);
    expect(stdout).not.toMatch(/^why /m);
  });

  it("says which case of the twin rule held a pair, in the pair's own words", async () => {
    // A boy and a girl of one birth date at one home, from a source that sends no sex.
    const twin = (localId: string, given: string): string =>
      JSON.stringify({
        resourceType: 'Patient',
        identifier: [{ system: SOURCE.localIdentifierSystem, value: localId }],
        name: [{ use: 'official', family: 'Quillfeather', given: [given] }],
        birthDate: '2019-06-02',
        address: [{ use: 'home', line: ['4 Marram Lane'], city: 'Wexcombe', postalCode: 'WX4 1QL' }],
      });
    const stdout = await explainPair(twin('QF-1', 'Daniel'), twin('QF-2', 'Danielle'));
    expect(stdout).toMatch(/score limited by\s+PossibleTwin \(/);
    expect(stdout).toMatch(
      /^why\s+The given names are a boy’s and a girl’s form of one name \(Daniel and Danielle, Paul and Paula\)/m,
    );
    expect(stdout).toMatch(/decision\s+probable/);
  });
});
