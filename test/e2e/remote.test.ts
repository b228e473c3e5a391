/**
 * The console's remote-registry mode end to end, in real Chromium against the real browser host, a real
 * `mpi-console serve --worker` process and a real OpenID provider (oidc-provider with its own login page,
 * driven in a second page): sign in (authorization code + PKCE through the loopback listener) as a user whose
 * grant is mpi.operations only → identity, tenant and scopes shown → a job started elsewhere watched by ID,
 * live until it completes → no start offered (a disabled button with the reason), and the registry refuses a
 * start with that scope anyway → sign out → paste an admin service token → start a job from the console and
 * watch it complete → errors that say what to do. axe on every page; screenshots in test-results/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LocalEngine } from '../../engine/local-engine.ts';
import { MaintenanceSettingsSchema } from '../../engine/config/maintenance.ts';
import { RemoteEngine } from '../../main/remote/remote-engine.ts';
import { StaticTokenProvider } from '../../main/remote/token-provider.ts';
import { BIN } from '../helpers/processes.ts';
import {
  CONSOLE_CLIENT_ID,
  LOGIN_AUDIENCE,
  startLoginProvider,
  type LoginProvider,
} from '../helpers/login-provider.ts';
import {
  closeBrowserAndHost,
  expectAccessible,
  type HostProcess,
  openConsole,
  type RegistryProcess,
  screenshot,
  startRegistry,
  stopChild,
} from './helpers.ts';
import { scratchDir } from '../helpers/temp.ts';

const TENANT = 't1';
let dir: string;
let idp: LoginProvider;
let registry: RegistryProcess;
/** The maintenance worker, started once the console is watching a queued job (so its whole life is seen). */
let worker: ChildProcess | undefined;
let dbPath: string;
let registryUrl: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

function remoteWith(token: string): RemoteEngine {
  return new RemoteEngine({ baseUrl: registryUrl, tokens: new StaticTokenProvider(token) });
}

beforeAll(async () => {
  dir = scratchDir('mpi-e2e-remote-').dir;
  idp = await startLoginProvider({ 'operator@t1.example': { tenant: TENANT, scopes: ['mpi.operations'] } }, [
    { clientId: 'svc-admin', secret: 'svc-admin-secret', tenant: TENANT },
  ]);
  dbPath = join(dir, 'registry.db');
  const engine = LocalEngine.open({ dbPath });
  try {
    await engine.call('sandbox/create', { syntheticPeople: 1200, seed: 4 }, { tenantId: TENANT, actor: 'setup' });
    engine.env.changeSettings((current) => ({
      next: {
        ...current,
        Api: {
          TenantClaim: 'mpi_tenant',
          ClockSkewSeconds: 30,
          AllowInsecureHttp: false,
          Issuer: idp.issuer,
          Audience: LOGIN_AUDIENCE,
        },
        Maintenance: MaintenanceSettingsSchema.parse({ PollIntervalSeconds: 1 }),
      },
      commit: () => undefined,
    }));
  } finally {
    engine.close();
  }
  registry = await startRegistry(['--db', dbPath]);
  registryUrl = registry.url;
  ({ host, browser, context, page } = await openConsole(join(dir, 'console'), pageErrors));
}, 300_000);

afterAll(async () => {
  const code = await closeBrowserAndHost(context, browser, host);
  await Promise.all([stopChild(registry.child), stopChild(worker)]);
  await idp.close();
  rmSync(dir, { recursive: true, force: true });
  expect(code, host.output()).toBe(0);
  expect(pageErrors).toEqual([]);
});

describe('the console on a remote registry', () => {
  it(
    'signs in through the identity provider in a second page; shows identity, tenant and granted scopes',
    { timeout: 240_000 },
    async () => {
      await page.goto(host.launchUrl);
      const card = page.getByRole('region', { name: 'Remote registry' });
      await card.waitFor();
      await card.getByLabel('Registry URL').fill(registryUrl);
      await card.getByLabel('Identity provider').fill(idp.issuer);
      expect(await card.getByLabel('Client ID').inputValue()).toBe(CONSOLE_CLIENT_ID);
      await card.getByLabel('API resource (optional)').fill(LOGIN_AUDIENCE);
      await card.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('sign-in-waiting').waitFor();
      await expectAccessible(page, 'remote-sign-in-waiting');
      await screenshot(page, '20-remote-sign-in-waiting');

      const href = (await page.getByTestId('sign-in-link').getAttribute('href')) ?? '';
      expect(new URL(href).origin).toBe(idp.issuer);
      expect(new URL(href).searchParams.get('code_challenge_method')).toBe('S256');
      const login = await context.newPage();
      await login.goto(href);
      await login.getByLabel('User name').fill('operator@t1.example');
      await login.getByRole('button', { name: 'Sign in' }).click();
      await login.getByRole('heading', { name: 'Signed in' }).waitFor({ timeout: 60_000 });
      expect(new URL(login.url()).hostname).toBe('127.0.0.1');
      await screenshot(login, '21-remote-sign-in-done-tab');
      await login.close();

      // Connected: the console lands on Maintenance, the header naming the registry, tenant and identity.
      await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor({ timeout: 60_000 });
      await expect.poll(() => page.getByTestId('connection-identity').textContent()).toBe('operator@t1.example');
      await page.getByRole('link', { name: /Sandboxes/ }).click();
      const signedIn = page.getByTestId('registry-signed-in');
      await signedIn.waitFor();
      const text = (await signedIn.textContent()) ?? '';
      expect(text).toContain('operator@t1.example');
      expect(text).toContain(registryUrl);
      expect(text).toMatch(/Tenant\s*t1/);
      expect(text).toContain('mpi.operations');
      expect(text).not.toContain('mpi.admin');
      // As the identity provider spells it (scopes are case-sensitive), not in a badge's capitals.
      expect(await signedIn.innerText()).toContain('mpi.operations');
      expect(text).toContain('in memory until the console stops');
      // The token never reaches the page.
      expect(await page.content()).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/);
      await expectAccessible(page, 'remote-signed-in');
      await screenshot(page, '22-remote-signed-in-operations');
    },
  );

  it(
    'watches a job started elsewhere, live until it completes; starting is not offered, and the registry refuses it anyway',
    { timeout: 400_000 },
    async () => {
      const admin = remoteWith(await idp.serviceToken('svc-admin', 'mpi.admin mpi.operations'));
      const { jobId } = await admin.call(
        'maintenance/reconcile',
        { reason: 'Started by the scheduler', batchSize: 1 },
        { tenantId: TENANT, actor: 'x' },
      );
      await admin.close();

      await page.getByRole('button', { name: 'Go to Maintenance' }).click();
      await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
      const why = page.getByTestId('start-not-allowed');
      await why.waitFor();
      expect(await why.getByRole('button', { name: 'Start a job' }).isDisabled()).toBe(true);
      expect(await why.textContent()).toContain(
        'Starting jobs needs the mpi.admin scope; this sign-in grants mpi.operations. You can watch jobs.',
      );
      await page.locator(`[data-testid="jobs-table"] tbody tr[data-job-id="${jobId}"]`).waitFor();
      await expectAccessible(page, 'remote-maintenance-operations');
      await screenshot(page, '23-remote-maintenance-operations-only');

      await page.getByLabel('Job ID').fill(jobId);
      await page.getByRole('button', { name: 'Watch job' }).click();
      await page.getByTestId('job-detail').waitFor();
      // Every render of the job page is recorded in the page itself, so no pushed state slips between polls.
      await page.evaluate(`(() => {
      const seen = [];
      window.seen = seen;
      const record = () => {
        const detail = document.querySelector('[data-testid="job-detail"]');
        seen.push({ status: detail ? detail.getAttribute('data-job-status') : null, scanned: document.querySelector('[data-testid="counter-scanned"]')?.textContent ?? '' });
      };
      record();
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    })()`);
      await page.locator('[data-job-status="queued"]').waitFor();
      // No cancel for a token without mpi.admin, and the page says why where the button would be.
      expect(await page.getByTestId('cancel-effect').count()).toBe(0);
      expect(await page.getByTestId('cancel-not-allowed').textContent()).toBe(
        'Cancelling a job needs the mpi.admin scope; this sign-in grants mpi.operations. Ask an administrator to cancel it if it must stop.',
      );
      worker = spawn(process.execPath, [BIN, 'worker', '--db', dbPath], {
        stdio: 'ignore',
        env: { ...process.env, MPI_TENANT: '' },
      });
      // The job runs in seconds here: the worker is paused (SIGSTOP) once a batch of the matching phase has committed,
      // so the page must show the job running by the order of events, not by how fast the machine is; then it goes on.
      const probe = LocalEngine.open({ dbPath });
      try {
        await expect
          .poll(
            () =>
              (probe.env.store
                .statement("SELECT processed FROM maintenance_job_phase WHERE job_id = ? AND phase = 'matching'")
                .pluck()
                .get(jobId) as number | undefined) ?? 0,
            { timeout: 120_000, interval: 5 },
          )
          .toBeGreaterThan(0);
      } finally {
        probe.close();
      }
      worker.kill('SIGSTOP');
      await page.locator('[data-job-status="running"]').waitFor({ timeout: 60_000 });
      worker.kill('SIGCONT');
      await page.locator('[data-job-status="completed"]').waitFor({ timeout: 300_000 });
      const seen = await page.evaluate<{ status: string | null; scanned: string }[]>('window.seen');
      const scanned = (text: string): number => Number(text.replace(/\D/g, ''));
      const active = seen.filter((s) => s.status === 'running');
      // Live: the page showed the job active and then completed with no reload, its counters moving meanwhile.
      expect(active.length, JSON.stringify(seen.slice(0, 5))).toBeGreaterThan(0);
      expect(scanned(seen.at(-1)?.scanned ?? '')).toBeGreaterThan(Math.min(...active.map((s) => scanned(s.scanned))));
      await expectAccessible(page, 'remote-job-completed');
      await screenshot(page, '24-remote-job-watched-completed');

      // Past the console: the registry itself refuses a start with an mpi.operations token.
      const operator = remoteWith(await idp.serviceToken('svc-admin', 'mpi.operations'));
      const refusal = await operator
        .call('maintenance/reindex', { reason: 'not allowed', batchSize: 5 }, { tenantId: TENANT, actor: 'x' })
        .then(
          () => null,
          (error: unknown) => error as Error & { kind: string },
        );
      await operator.close();
      expect(refusal?.kind).toBe('forbidden');
    },
  );

  it(
    'signs out, then connects with a pasted admin token and starts a job that completes, watched live',
    { timeout: 400_000 },
    async () => {
      await page.getByRole('link', { name: /Sandboxes/ }).click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      const card = page.getByRole('region', { name: 'Remote registry' });
      // Signed out, after a reload: the registry and how it was reached are remembered (never the token).
      await page.reload();
      await card.getByLabel('Registry URL').waitFor();
      expect(await card.getByLabel('Registry URL').inputValue()).toBe(registryUrl);
      expect(await card.getByTestId('recent-registries').getByRole('button').allTextContents()).toEqual([registryUrl]);
      expect(await card.getByLabel('Identity provider').inputValue()).not.toBe('');
      await expectAccessible(page, 'registry-signed-out-remembered');
      await screenshot(page, '29b-registry-signed-out-remembered');
      await card.getByText('Paste a token').click();
      await card.getByLabel('Registry URL').fill(registryUrl);
      const token = await idp.serviceToken('svc-admin', 'mpi.admin mpi.operations');
      await card.getByLabel('Access token').fill(token);
      await card.getByRole('button', { name: 'Connect' }).click();
      const signedIn = page.getByTestId('registry-signed-in');
      await signedIn.waitFor();
      expect(await signedIn.textContent()).toContain('svc-admin (pasted token)');
      expect(await signedIn.textContent()).toContain('mpi.admin');
      expect(await page.content()).not.toContain(token);
      await expectAccessible(page, 'remote-token-connected');
      await screenshot(page, '25-remote-pasted-token');

      await page.getByRole('button', { name: 'Go to Maintenance' }).click();
      await page.getByRole('button', { name: 'Start a job' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Reason').fill('Reconcile after the registry profile change');
      await dialog.getByLabel('Batch size').fill('25');
      await dialog.getByRole('button', { name: 'Review and start' }).click();
      await dialog.getByRole('button', { name: 'Start reconciliation' }).click();
      await page.getByTestId('job-detail').waitFor();
      await page.locator('[data-job-status="completed"]').waitFor({ timeout: 240_000 });
      expect(await page.getByText('api:svc-admin').count()).toBeGreaterThan(0);
      await expectAccessible(page, 'remote-started-job-completed');
      await screenshot(page, '26-remote-started-job-completed');
    },
  );

  it('says what to do when the registry cannot be reached or refuses the token', { timeout: 240_000 }, async () => {
    await page.getByRole('link', { name: /Sandboxes/ }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    const card = page.getByRole('region', { name: 'Remote registry' });
    await card.getByText('Paste a token').click();
    const closedPort = new URL(host.origin).port === '1' ? '2' : '1';
    await card.getByLabel('Registry URL').fill(`http://127.0.0.1:${closedPort}`);
    await card.getByLabel('Access token').fill(await idp.serviceToken('svc-admin', 'mpi.operations'));
    await card.getByRole('button', { name: 'Connect' }).click();
    await expect
      .poll(() => page.getByTestId('registry-error').textContent())
      .toContain(`nothing is listening at http://127.0.0.1:${closedPort}`);

    await card.getByLabel('Registry URL').fill(registryUrl);
    // Signed by the provider's issuer name but not its key: the registry refuses it.
    const [head = '', payload = ''] = (await idp.serviceToken('svc-admin', 'mpi.operations')).split('.');
    await card.getByLabel('Access token').fill(`${head}.${payload}.AAAA`);
    await card.getByRole('button', { name: 'Connect' }).click();
    await expect
      .poll(() => page.getByTestId('registry-error').textContent())
      .toMatch(/the registry refused the access token: .*Paste a new token/);
    await card.getByLabel('Registry URL').fill('http://registry.example.org');
    await card.getByRole('button', { name: 'Connect' }).click();
    await card.getByText(/give an https URL/).waitFor();
    // The alert points at the field and says what to do, rather than a general "refused".
    expect(await page.getByTestId('registry-error').textContent()).toContain(
      'Correct the field marked above (Registry URL), then connect again.',
    );
    await expectAccessible(page, 'remote-errors');
    await screenshot(page, '27-remote-errors');
  });
});
