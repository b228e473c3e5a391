/**
 * The formatter's rule, as `npm test` applies it (`prettier --check .` before lint): an unformatted source is refused,
 * the tree's own sources pass, and the hashed migrations are left alone (a reformatted migration would be a
 * different, refused one).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function formatted(path: string, text: string): Promise<boolean> {
  const options = (await prettier.resolveConfig(`${ROOT}${path}`)) ?? {};
  return prettier.check(text, { ...options, filepath: `${ROOT}${path}` });
}

describe('the formatter', () => {
  it('refuses an unformatted source and accepts the tree as it is', async () => {
    expect(await formatted('engine/jobs/runner.ts', 'export const x = {a:1,\n  b : "two"}\n')).toBe(false);
    expect(await formatted('engine/jobs/runner.ts', "export const x = { a: 1, b: 'two' };\n")).toBe(true);
    for (const path of ['engine/jobs/runner.ts', 'renderer/pages/assurance/audit-panel.tsx', 'main/cli/main.ts']) {
      expect(await formatted(path, readFileSync(`${ROOT}${path}`, 'utf8')), path).toBe(true);
    }
  });

  it('leaves the hashed migrations and the prose alone', async () => {
    const info = (path: string) => prettier.getFileInfo(`${ROOT}${path}`, { ignorePath: `${ROOT}.prettierignore` });
    expect((await info('engine/store/migrations/0001-registry.sql')).ignored).toBe(true);
    expect((await info('engine/store/pg/migrations/0001-tenants-and-jobs.sql')).ignored).toBe(true);
    expect((await info('README.md')).ignored).toBe(true);
    expect((await info('engine/jobs/runner.ts')).ignored).toBe(false);
  });
});
