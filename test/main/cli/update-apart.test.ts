/**
 * Through the real `mpi-console ingest`: a clinic links James Okafor's record to the hospital's, then sends it again
 * with another person's details. The report says one updated record no longer matches the rest of its identity and
 * how to list the case; `reviews --kind LinkQuality` lists it under the clinic.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';

const HOME = {
  address: [{ line: ['27 Alder Road'], city: 'Springfield', state: 'ND', postalCode: '72419' }],
  telecom: [{ system: 'phone', value: '(204) 555-0142' }],
};
const james = (id: string) => ({
  resourceType: 'Patient',
  id,
  name: [{ family: 'Okafor', given: ['James'] }],
  gender: 'male',
  birthDate: '1970-04-05',
  ...HOME,
});

describe('ingest of an update that leaves its record apart from its identity', () => {
  it('says so and names the LinkQuality case to review', async () => {
    const dir = tempDir();
    const args = ['--db', join(dir, 'registry.db'), '--tenant', 't'];
    expect((await runCli([...args, 'sandbox', 'init'])).code).toBe(0);
    const file = (name: string, resource: unknown): string => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(resource) + '\n');
      return path;
    };
    const ingest = (source: string, path: string) => runCli([...args, 'ingest', '--source', source, '--ndjson', path]);
    expect((await ingest('st-marys-hospital', file('h.ndjson', james('h1')))).code).toBe(0);
    expect((await ingest('riverside-clinic', file('c.ndjson', james('c1')))).stdout).toMatch(/auto-linked\s+1/);
    const other = {
      resourceType: 'Patient',
      id: 'c1',
      name: [{ family: 'Lindqvist', given: ['Maria'] }],
      gender: 'female',
      birthDate: '1950-09-21',
      address: [{ line: ['9 Elm Street'], city: 'Fargo', state: 'ND', postalCode: '58102' }],
    };
    const run = await ingest('riverside-clinic', file('c2.ndjson', other));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/updated\s+1/);
    expect(run.stdout).toMatch(/review cases created\s+1/);
    expect(run.stdout).toContain(
      '1 updated record no longer matches the rest of its identity, linked as before until a reviewer decides: mpi-console reviews --kind LinkQuality --source riverside-clinic',
    );
    expect(run.stdout).not.toContain('--kind IngestionMatch');
    // No patient value in the report.
    expect(run.stdout).not.toMatch(/Lindqvist|Maria|1950/i);
    const cases = await runCli([...args, 'reviews', '--kind', 'LinkQuality', '--source', 'riverside-clinic']);
    expect(cases.stdout.trim().split('\n')).toHaveLength(2);
  });
});
