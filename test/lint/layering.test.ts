import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

async function messagesFor(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering lint rule', () => {
  it('refuses electron, main/ and renderer/ imports from engine/', async () => {
    const file = 'engine/contract/errors.ts';
    expect(await messagesFor(file, "import { app } from 'electron';\nexport const x = app;\n")).toEqual([expect.stringMatching(/Electron/)]);
    expect(await messagesFor(file, "import { w } from '../../main/window.ts';\nexport const x = w;\n")).toEqual([expect.stringMatching(/main\/ or renderer\//)]);
    expect(await messagesFor(file, "import { p } from '../../renderer/pages/maintenance.tsx';\nexport const x = p;\n")).toEqual([expect.stringMatching(/main\/ or renderer\//)]);
  }, 60_000);

  it('lets only the store own the SQLite driver', async () => {
    expect(await messagesFor('engine/contract/errors.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n")).toEqual([
      expect.stringMatching(/Only engine\/store\/db\.ts/),
    ]);
    expect(await messagesFor('engine/store/db.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n")).toEqual([]);
  }, 60_000);

  it('accepts ordinary engine imports', async () => {
    expect(await messagesFor('engine/contract/errors.ts', "import { z } from 'zod';\nexport const x = z;\n")).toEqual([]);
  }, 60_000);
});
