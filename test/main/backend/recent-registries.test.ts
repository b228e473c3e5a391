/** The registries connected to before: newest first, one entry per URL, at most eight, in a 0600 file with no token. */
import { describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecentRegistries } from '../../../main/backend/recent-registries.ts';
import { tempDir } from '../../helpers/temp.ts';

describe('recent registries', () => {
  it('lists the newest first, once per URL, keeps eight, and never holds a token', () => {
    const dir = tempDir();
    const recent = new RecentRegistries(dir);
    expect(recent.list()).toEqual([]);
    for (let i = 0; i < 10; i++)
      recent.remember(
        { baseUrl: `https://r${String(i)}.example.org`, method: 'token', issuer: null, clientId: null, resource: null },
        `2026-11-0${String((i % 9) + 1)}T00:00:00Z`,
      );
    recent.remember(
      {
        baseUrl: 'https://r3.example.org',
        method: 'sign-in',
        issuer: 'https://login.example.org',
        clientId: 'mpi-console',
        resource: null,
      },
      '2026-11-20T00:00:00Z',
    );
    const list = recent.list();
    expect(list).toHaveLength(8);
    expect(list.map((e) => e.baseUrl).slice(0, 3)).toEqual([
      'https://r3.example.org',
      'https://r9.example.org',
      'https://r8.example.org',
    ]);
    expect(list[0]).toMatchObject({ method: 'sign-in', issuer: 'https://login.example.org', clientId: 'mpi-console' });
    const file = join(dir, 'recent-registries.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toMatch(/token"\s*:|accessToken|refreshToken/);
    // A damaged file is an empty list, not a failure.
    writeFileSync(file, '{ not json');
    expect(recent.list()).toEqual([]);
  });
});
