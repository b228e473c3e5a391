import { describe, expect, it } from 'vitest';
import { resolveJobId, shortJobId } from '../../renderer/pages/maintenance/job-id.ts';

const A = 'job-3f2a9c1e-0b7d-4e55-9a61-2c8f0d4b7e10';
const B = 'job-3f2a9c77-1111-4e55-9a61-2c8f0d4b7e10';
const C = 'job-9b01d2aa-2222-4e55-9a61-2c8f0d4b7e10';

describe('Watch job: the ID a person types', () => {
  it('shows the first 8 characters after job- in lists', () => {
    expect(shortJobId(A)).toBe('3f2a9c1e');
  });

  it('takes a full ID as it is, listed or not (the registry says whether it exists)', () => {
    expect(resolveJobId(` ${A} `, [A, B])).toEqual({ kind: 'job', jobId: A });
    expect(resolveJobId('job-00000000-0000-0000-0000-000000000000', [A])).toEqual({
      kind: 'job',
      jobId: 'job-00000000-0000-0000-0000-000000000000',
    });
  });

  it('resolves the short form the list shows, with or without job-, in any case', () => {
    expect(resolveJobId('9b01d2aa', [A, B, C])).toEqual({ kind: 'job', jobId: C });
    expect(resolveJobId('job-9B01D2AA', [A, B, C])).toEqual({ kind: 'job', jobId: C });
    expect(resolveJobId('3f2a9c1e', [A, B, C])).toEqual({ kind: 'job', jobId: A });
  });

  it('asks for more when a prefix is shared, and for the full ID when nothing listed starts so', () => {
    expect(resolveJobId('3f2a9c', [A, B, C])).toEqual({
      kind: 'ambiguous',
      message: '2 jobs start with 3f2a9c: type more of the ID',
    });
    expect(resolveJobId('deadbeef', [A, B, C])).toMatchObject({
      kind: 'unknown-short',
      message: expect.stringMatching(/^No listed job starts with deadbeef: paste the full ID/) as unknown,
    });
    expect(resolveJobId('a b', [A])).toMatchObject({ kind: 'invalid' });
    expect(resolveJobId('<script>', [A])).toMatchObject({ kind: 'invalid' });
  });
});
