import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

// The project's own configuration (its import rules are what is tested), parsed without type information: only
// no-restricted-imports runs, and building the typed program for each linted text was nearly all of this file's time.
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
});

async function messagesFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering lint rule', () => {
  it('refuses electron, main/ and renderer/ imports from engine/', async () => {
    const file = 'engine/jobs/runner.ts';
    expect(await messagesFor(file, "import { app } from 'electron';\nexport const x = app;\n")).toEqual([
      expect.stringMatching(/Only main\/electron/),
    ]);
    expect(await messagesFor(file, "import { w } from '../../main/window.ts';\nexport const x = w;\n")).toEqual([
      expect.stringMatching(/may not import main\/, renderer\//),
    ]);
    expect(
      await messagesFor(file, "import { p } from '../../renderer/pages/maintenance.tsx';\nexport const x = p;\n"),
    ).toEqual([expect.stringMatching(/may not import main\/, renderer\//)]);
  });

  it('lets only the store own the SQLite driver', async () => {
    expect(
      await messagesFor(
        'engine/contract/errors.ts',
        "import Database from 'better-sqlite3';\nexport const x = Database;\n",
      ),
    ).toEqual([expect.stringMatching(/Only engine\/store\/db\.ts/)]);
    expect(
      await messagesFor('engine/store/db.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n"),
    ).toEqual([]);
  });

  it('keeps each engine floor below the ones above it', async () => {
    const refused = [
      [
        'engine/blocking/tags.ts',
        "import { blockingSecret } from '../config/settings.ts';\nexport const x = blockingSecret;\n",
      ],
      [
        'engine/fhir/patient.ts',
        "import { normaliseBirthDate } from '../normalise/date.ts';\nexport const x = normaliseBirthDate;\n",
      ],
      [
        'engine/jobs/runner.ts',
        "import { driftFlags } from '../assurance/health-drift.ts';\nexport const x = driftFlags;\n",
      ],
      ['engine/store/pg/pg-store.ts', "import { runJob } from '../../jobs/runner.ts';\nexport const x = runJob;\n"],
      ['engine/config/settings.ts', "import { Ingestor } from '../ingest/ingestor.ts';\nexport const x = Ingestor;\n"],
    ] as const;
    for (const [file, text] of refused) {
      expect(await messagesFor(file, text), file).toEqual([expect.stringMatching(/may not import a floor above it/)]);
    }
    const allowed = [
      [
        'engine/assurance/audit-sample.ts',
        "import { laterCandidates } from '../jobs/reconcile.ts';\nexport const x = laterCandidates;\n",
      ],
      [
        'engine/normalise/date.ts',
        "import { isCalendarDate } from '../fhir/calendar-date.ts';\nexport const x = isCalendarDate;\n",
      ],
      [
        'engine/store/pg/pg-store.ts',
        "import { conflict } from '../../contract/errors.ts';\nexport const x = conflict;\n",
      ],
    ] as const;
    for (const [file, text] of allowed) expect(await messagesFor(file, text), file).toEqual([]);
  });

  it('lets only the PostgreSQL store own the pg driver', async () => {
    for (const file of [
      'engine/jobs/runner.ts',
      'engine/store/db.ts',
      'engine/store/pg/pg-store.ts',
      'main/api/serve.ts',
      'test/engine/store/migrations.test.ts',
    ]) {
      expect(await messagesFor(file, "import pg from 'pg';\nexport const x = pg;\n")).toEqual([
        expect.stringMatching(/Only engine\/store\/pg\/connection\.ts/),
      ]);
    }
    expect(await messagesFor('engine/store/pg/connection.ts', "import pg from 'pg';\nexport const x = pg;\n")).toEqual(
      [],
    );
  });

  it('keeps the engine top layer above the rest of the engine', async () => {
    expect(
      await messagesFor(
        'engine/jobs/runner.ts',
        "import { getJob } from '../operations/maintenance.ts';\nexport const x = getJob;\n",
      ),
    ).toEqual([expect.stringMatching(/top layer/)]);
    expect(
      await messagesFor(
        'engine/assurance/evaluate.ts',
        "import { LocalEngine } from '../local-engine.ts';\nexport const x = LocalEngine;\n",
      ),
    ).toEqual([expect.stringMatching(/top layer/)]);
    expect(
      await messagesFor(
        'engine/operations/maintenance.ts',
        "import { runJob } from '../jobs/runner.ts';\nexport const x = runJob;\n",
      ),
    ).toEqual([]);
  });

  it('keeps the contract browser-safe and engine/ free of HTTP server and UI packages', async () => {
    expect(
      await messagesFor(
        'engine/contract/errors.ts',
        "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      ),
    ).toEqual([expect.stringMatching(/browser-safe/)]);
    expect(
      await messagesFor(
        'engine/contract/errors.ts',
        "import { Store } from '../store/store.ts';\nexport const x = Store;\n",
      ),
    ).toEqual([expect.stringMatching(/browser-safe/)]);
    expect(
      await messagesFor('engine/jobs/runner.ts', "import Fastify from 'fastify';\nexport const x = Fastify;\n"),
    ).toEqual([expect.stringMatching(/UI\/HTTP-server/)]);
  });

  it('lets only main/electron import electron', async () => {
    expect(await messagesFor('main/cli/main.ts', "import { app } from 'electron';\nexport const x = app;\n")).toEqual([
      expect.stringMatching(/Only main\/electron/),
    ]);
    expect(
      await messagesFor('test/lint/layering.test.ts', "import { app } from 'electron';\nexport const x = app;\n"),
    ).toEqual([expect.stringMatching(/never import electron/)]);
  });

  it('lets main/ reach the engine only through its front door (engine/index.ts, its host side, the thread starter) and the contract', async () => {
    const file = 'main/api/serve.ts';
    expect(
      await messagesFor(file, "import { runJob } from '../../engine/jobs/runner.ts';\nexport const x = runJob;\n"),
    ).toEqual([expect.stringMatching(/front door/)]);
    expect(
      await messagesFor(file, "import { Store } from '../../engine/store/store.ts';\nexport const x = Store;\n"),
    ).toEqual([expect.stringMatching(/front door/)]);
    expect(
      await messagesFor(file, "import { LocalEngine } from '../../engine/index.ts';\nexport const x = LocalEngine;\n"),
    ).toEqual([]);
    // The front door's host side and the thread starter: what a request thread uses without loading the engine.
    expect(
      await messagesFor(file, "import { Store } from '../../engine/host-side.ts';\nexport const x = Store;\n"),
    ).toEqual([]);
    expect(
      await messagesFor(
        file,
        "import { startThread } from '../../engine/threads/start-thread.ts';\nexport const x = startThread;\n",
      ),
    ).toEqual([]);
    expect(
      await messagesFor(
        file,
        "import { startThread } from '../../engine/threads/bootstrap.js';\nexport const x = startThread;\n",
      ),
    ).toEqual([expect.stringMatching(/front door/)]);
    expect(
      await messagesFor(
        file,
        "import type { JobState } from '../../engine/contract/maintenance.ts';\nexport type X = JobState;\n",
      ),
    ).toEqual([]);
    expect(
      await messagesFor(
        'main/cli/commands/assurance.ts',
        "import { loadFebrl } from '../../../engine/benchmark/index.ts';\nexport const x = loadFebrl;\n",
      ),
    ).toEqual([]);
    expect(
      await messagesFor(
        'main/cli/commands/assurance.ts',
        "import { loadFebrl } from '../../../engine/benchmark/febrl-run.ts';\nexport const x = loadFebrl;\n",
      ),
    ).toEqual([expect.stringMatching(/front door/)]);
    // Inside the engine, the front door is the top layer: a lower layer may not import it.
    expect(
      await messagesFor(
        'engine/jobs/runner.ts',
        "import { LocalEngine } from '../index.ts';\nexport const x = LocalEngine;\n",
      ),
    ).toEqual([expect.stringMatching(/top layer/)]);
  });

  it('keeps the statistics below the reports and the console protocol beside the contract', async () => {
    expect(
      await messagesFor(
        'engine/contract/statistics/threshold-metrics.ts',
        "import type { EvaluationReport } from '../assurance.ts';\nexport type X = EvaluationReport;\n",
      ),
    ).toEqual([expect.stringMatching(/statistics\/ may import only zod/)]);
    expect(
      await messagesFor(
        'engine/contract/assurance.ts',
        "import { thresholdMetrics } from './statistics/threshold-metrics.ts';\nexport const x = thresholdMetrics;\n",
      ),
    ).toEqual([]);
    expect(
      await messagesFor(
        'console-protocol/protocol.ts',
        "import { runJob } from '../engine/jobs/runner.ts';\nexport const x = runJob;\n",
      ),
    ).toEqual([expect.stringMatching(/console-protocol\/ may import only zod and engine\/contract/)]);
    expect(
      await messagesFor(
        'console-protocol/protocol.ts',
        "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      ),
    ).toEqual([expect.stringMatching(/browser-safe/)]);
    expect(
      await messagesFor(
        'engine/jobs/runner.ts',
        "import { ConsoleStatusSchema } from '../../console-protocol/protocol.ts';\nexport const x = ConsoleStatusSchema;\n",
      ),
    ).toEqual([expect.stringMatching(/may not import main\/, renderer\/, console-protocol\//)]);
    expect(
      await messagesFor(
        'renderer/app.tsx',
        "import type { ConsoleStatus } from '../console-protocol/protocol.ts';\nexport type X = ConsoleStatus;\n",
      ),
    ).toEqual([]);
  });

  it('lets tests make temporary folders only through the one temp helper', async () => {
    const code = "import { mkdtempSync } from 'node:fs';\nexport const x = mkdtempSync;\n";
    expect(await messagesFor('test/engine/jobs/reindex.test.ts', code)).toEqual([
      expect.stringMatching(/test\/helpers\/temp\.ts/),
    ]);
    expect(await messagesFor('test/helpers/temp.ts', code)).toEqual([]);
  });

  it('accepts ordinary engine imports', async () => {
    expect(await messagesFor('engine/contract/errors.ts', "import { z } from 'zod';\nexport const x = z;\n")).toEqual(
      [],
    );
  });

  it('lets renderer/ import engine/contract and nothing else of the engine, Node or main/', async () => {
    const file = 'renderer/pages/maintenance/job-text.ts';
    expect(
      await messagesFor(
        file,
        "import type { JobState } from '../../../engine/contract/maintenance.ts';\nexport type X = JobState;\n",
      ),
    ).toEqual([]);
    expect(
      await messagesFor(file, "import { runJob } from '../../../engine/jobs/runner.ts';\nexport const x = runJob;\n"),
    ).toEqual([expect.stringMatching(/renderer\/ may import only engine\/contract/)]);
    expect(
      await messagesFor(
        file,
        "import { LocalEngine } from '../../../engine/local-engine.ts';\nexport const x = LocalEngine;\n",
      ),
    ).toEqual([expect.stringMatching(/renderer\/ may import only engine\/contract/)]);
    expect(
      await messagesFor(file, "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"),
    ).toEqual([expect.stringMatching(/runs in the browser/)]);
    expect(
      await messagesFor(
        file,
        "import { ConsoleBackend } from '../../../main/backend/console-backend.ts';\nexport const x = ConsoleBackend;\n",
      ),
    ).toEqual([expect.stringMatching(/runs in the browser/)]);
  });

  it('keeps electron out of the console backend and the browser host', async () => {
    for (const file of ['main/backend/console-backend.ts', 'main/browser-host/server.ts']) {
      expect(await messagesFor(file, "import { ipcMain } from 'electron';\nexport const x = ipcMain;\n"), file).toEqual(
        [expect.stringMatching(/Only main\/electron/)],
      );
    }
    expect(
      await messagesFor('main/electron/main.ts', "import { ipcMain } from 'electron';\nexport const x = ipcMain;\n"),
    ).toEqual([]);
  });
});
