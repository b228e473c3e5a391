/**
 * The Match assurance page on a remote registry (issue 10, Tests: "Remote mode against `serve`"), in real
 * Chromium against the real browser host connected to a real `mpi-console serve --dev-auth` on loopback over
 * a synthetic sandbox, with tokens from `mpi-console token`: with an mpi.admin token a label set evaluates
 * through the registry and the page's numbers equal the CLI's `evaluate --json` for the same labels on the
 * same database; with a token lacking mpi.admin the page shows the refusal naming mpi.admin and offers no
 * control that would fail (no Evaluate, Calibrate or sampling button), and the registry itself refuses an
 * evaluation with that token. axe on each state; screenshots in test-results/screenshots/.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LocalEngine } from '../../engine/local-engine.ts';
import { labelsToTsv } from '../../engine/contract/label-tsv.ts';
import type { EvaluationReport } from '../../engine/contract/assurance.ts';
import { RemoteEngine } from '../../main/remote/remote-engine.ts';
import { StaticTokenProvider } from '../../main/remote/token-provider.ts';
import { runCli } from '../helpers/cli.ts';
import {
  closeBrowserAndHost,
  digits,
  expectAccessible,
  expectEvaluationSummary,
  expectMetricsTable,
  type HostProcess,
  openConsole,
  type RegistryProcess,
  screenshot,
  startRegistry,
  stopChild,
} from './helpers.ts';
import { scratchDir } from '../helpers/temp.ts';

const TENANT = 'r1';
let dir: string;
let db: string;
let labelsFile: string;
let registry: RegistryProcess;
let registryUrl: string;
let adminToken: string;
let operationsToken: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let thresholds: number[];
const pageErrors: string[] = [];

async function token(scope: string): Promise<string> {
  const run = await runCli(['--db', db, '--tenant', TENANT, 'token', '--scope', scope, '--ttl', '1h']);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout.trim();
}

beforeAll(async () => {
  dir = scratchDir('mpi-e2e-assurance-remote-').dir;
  db = join(dir, 'registry.db');
  labelsFile = join(dir, 'labels.tsv');
  const engine = LocalEngine.open({ dbPath: db });
  const ctx = { tenantId: TENANT, actor: 'setup' };
  try {
    await engine.call('sandbox/create', { syntheticPeople: 600, seed: 5 }, ctx);
    const { pairs } = await engine.call('labels/sample', { maxPairs: 300, seed: 4 }, ctx);
    writeFileSync(labelsFile, labelsToTsv(pairs, { header: true }));
    const summary = await engine.call('profile/summary', {}, ctx);
    // The evaluation panel's default chips: 0.5, the profile's two thresholds and 0.9.
    thresholds = [...new Set([0.5, summary.thresholds.probable, summary.thresholds.certain, 0.9])].sort(
      (a, b) => a - b,
    );
  } finally {
    engine.close();
  }
  // The tokens first: the first one creates the development signing key that `serve --dev-auth` then reads.
  adminToken = await token('mpi.admin mpi.operations');
  operationsToken = await token('mpi.operations');
  registry = await startRegistry(['--db', db, '--dev-auth']);
  registryUrl = registry.url;
  ({ host, browser, context, page } = await openConsole(join(dir, 'console'), pageErrors));
}, 300_000);

afterAll(async () => {
  const code = await closeBrowserAndHost(context, browser, host);
  await stopChild(registry.child);
  rmSync(dir, { recursive: true, force: true });
  expect(code, host.output()).toBe(0);
  expect(pageErrors).toEqual([]);
});

/** Connects the console to the registry with a pasted token (signing out of any earlier connection first). */
async function connectWith(accessToken: string, scopesShown: RegExp): Promise<void> {
  await page
    .getByRole('link', { name: /Sandboxes/ })
    .first()
    .click();
  const card = page.getByRole('region', { name: 'Remote registry' });
  // The card shows either the connection (with Sign out) or the form: wait for one before choosing.
  const signOut = card.getByRole('button', { name: 'Sign out' });
  const pasteToken = card.getByText('Paste a token');
  await signOut.or(pasteToken).first().waitFor();
  if ((await signOut.count()) > 0) await signOut.click();
  await pasteToken.click();
  await card.getByLabel('Registry URL').fill(registryUrl);
  await card.getByLabel('Access token').fill(accessToken);
  await card.getByRole('button', { name: 'Connect' }).click();
  const signedIn = page.getByTestId('registry-signed-in');
  await signedIn.waitFor({ timeout: 60_000 });
  expect(await signedIn.textContent()).toMatch(scopesShown);
  expect(await page.content()).not.toContain(accessToken);
}

async function openAssurance(): Promise<void> {
  await page.getByRole('link', { name: /Match assurance/ }).click();
  await page.getByRole('heading', { name: 'Match assurance', level: 1 }).waitFor();
}

describe('the Match assurance page on a remote registry (serve --dev-auth)', () => {
  it(
    'with an mpi.admin token, evaluates through the registry and shows the same numbers as the CLI evaluate --json on the same database',
    { timeout: 240_000 },
    async () => {
      await page.goto(host.launchUrl);
      await page.getByRole('region', { name: 'Remote registry' }).waitFor();
      await connectWith(adminToken, /mpi\.admin/);
      await openAssurance();
      await expect
        .poll(() => page.getByTestId('profile-version').textContent(), { timeout: 30_000 })
        .toMatch(/^version \d+$/);

      await page.getByLabel('Labels (paste, or drop a file here)').fill(readFileSync(labelsFile, 'utf8'));
      await expect.poll(() => page.getByTestId('label-counts').textContent()).toMatch(/300 rows/);
      await page.getByRole('tab', { name: 'Evaluation' }).click();
      await page.getByLabel('Dataset ID').fill('remote-labels-1');
      await page.getByRole('button', { name: /^Evaluate 300 pairs/ }).click();
      await page.getByRole('heading', { name: 'Evaluation of remote-labels-1' }).waitFor({ timeout: 60_000 });

      // The CLI on the registry's own database file, for the same labels and thresholds.
      const cli = await runCli([
        '--db',
        db,
        '--tenant',
        TENANT,
        'evaluate',
        '--labels',
        labelsFile,
        '--dataset',
        'remote-labels-1',
        '--thresholds',
        thresholds.join(','),
        '--max-errors',
        '20',
        '--json',
      ]);
      expect(cli.code, cli.stderr).toBe(0);
      const report = JSON.parse(cli.stdout) as EvaluationReport;
      await expectEvaluationSummary(page, report);
      await expectMetricsTable(page, 'metrics-table', report.thresholds);
      // The confusion matrix at the explorer's first threshold is the CLI's too.
      expect(digits(await page.getByTestId('cm-tp').textContent())).toBe(report.thresholds[0]?.tp);
      expect(digits(await page.getByTestId('cm-fp').textContent())).toBe(report.thresholds[0]?.fp);
      // The registry ran it, as a tracked run the console followed: serve logs each request once answered (its
      // output may arrive after the page shows it).
      await expect
        .poll(() => registry.output())
        .toMatch(/"route":"\/api\/v1\/runs","operation":"runs\/start","status":202/);
      await expect
        .poll(() => registry.output())
        .toMatch(/"route":"\/api\/v1\/runs\/:runId","operation":"runs\/get","status":200/);
      await expectAccessible(page, 'assurance-remote-evaluation');
      await screenshot(page, 'assurance-remote-01-evaluation');
    },
  );

  it(
    'with a token lacking mpi.admin, shows the refusal naming mpi.admin and offers nothing that would fail; the registry refuses anyway',
    { timeout: 240_000 },
    async () => {
      await connectWith(operationsToken, /mpi\.operations/);
      expect(await page.getByTestId('registry-signed-in').textContent()).not.toContain('mpi.admin');
      await openAssurance();
      const refusal = page.getByTestId('assurance-refusal');
      await refusal.waitFor();
      expect(await refusal.textContent()).toMatch(/needs the mpi\.admin scope.*this connection has mpi\.operations/s);
      for (const name of [/^Evaluate/, /^Calibrate/, /^Sample labels/, /^Load \d+ pairs/, /^Open a TSV file/]) {
        expect(await page.getByRole('button', { name }).count(), String(name)).toBe(0);
      }
      expect(await page.getByRole('tab').count()).toBe(0);
      expect(await page.getByRole('textbox').count()).toBe(0);
      await expectAccessible(page, 'assurance-remote-refusal');
      await screenshot(page, 'assurance-remote-02-refusal');

      // Past the console: the registry itself refuses an evaluation with this token.
      const remote = new RemoteEngine({ baseUrl: registryUrl, tokens: new StaticTokenProvider(operationsToken) });
      try {
        const pairs = readFileSync(labelsFile, 'utf8')
          .trim()
          .split('\n')
          .slice(1, 3)
          .map((line) => {
            const [ls = '', li = '', rs = '', ri = '', m = ''] = line.split('\t');
            return {
              left: { sourceSystem: ls, localId: li },
              right: { sourceSystem: rs, localId: ri },
              isMatch: m === '1',
            };
          });
        const refused = await remote
          .call('matching/evaluate', { datasetId: 'x', pairs, thresholds: [0.5] }, { tenantId: TENANT, actor: 'x' })
          .then(
            () => null,
            (error: unknown) => error as Error & { kind: string },
          );
        expect(refused?.kind).toBe('forbidden');
      } finally {
        await remote.close();
      }
    },
  );
});
