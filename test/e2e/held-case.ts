/**
 * The set-up the held-case browser tests share: one sandbox made through the engine before the console starts, the
 * console opened on its data folder for the whole file (beforeAll) and closed after it (afterAll), one review case
 * opened from the Review cases list, and the case page's Score row and note under the records read as a person
 * sees them.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  closeConsole,
  type ConsoleSession,
  type HostProcess,
  openConsole,
  openReviewCase,
  prepareSandbox,
} from './helpers.ts';
import type { LocalEngine } from '../../engine/local-engine.ts';
import type { CallContext } from '../../engine/contract/operations.ts';
import type { ScoreLimit } from '../../engine/contract/matching.ts';

type Sandbox = Parameters<typeof prepareSandbox>[0];

/** A console on a prepared sandbox, ready once the file's beforeAll has run. */
export interface SandboxConsole<T> {
  /** What the sandbox's `fill` returned (case IDs). */
  readonly prepared: T;
  readonly host: HostProcess;
  readonly page: Page;
  /** Script errors and CSP refusals the page met. */
  readonly pageErrors: string[];
  /** Opens the sandbox's tenant, then one review case by its ID, and waits until the records are shown. */
  openCase(caseId: string): Promise<void>;
}

/**
 * Registers the file's beforeAll (the sandbox, `fill`, then the console) and afterAll (the console closed, the folder
 * removed); the returned console is ready inside the tests.
 */
export function consoleOnSandbox<T>(
  sandbox: Sandbox,
  fill: (engine: LocalEngine, ctx: CallContext) => Promise<T>,
): SandboxConsole<T> {
  let ready: { dir: string; prepared: T; session: ConsoleSession } | undefined;
  const pageErrors: string[] = [];
  const get = (): NonNullable<typeof ready> => {
    if (ready === undefined) throw new Error('the console is opened in beforeAll: use it inside a test');
    return ready;
  };
  beforeAll(async () => {
    const { dir, filled } = await prepareSandbox(sandbox, fill);
    const session = await openConsole(join(dir, 'data'), pageErrors);
    ready = { dir, prepared: filled as T, session };
  });
  afterAll(async () => {
    if (ready === undefined) return;
    const { session, dir } = ready;
    await closeConsole(session.context, session.browser, session.host, dir);
  });
  return {
    get prepared() {
      return get().prepared;
    },
    get host() {
      return get().session.host;
    },
    get page() {
      return get().session.page;
    },
    pageErrors,
    async openCase(caseId: string) {
      const { dir, session } = get();
      await openReviewCase(session.page, session.host.launchUrl, join(dir, sandbox.file), sandbox.tenantId, caseId);
      await session.page.getByTestId('pair-records').waitFor();
    },
  };
}

/**
 * consoleOnSandbox where St Mary's Hospital then sends `ndjson`: nothing may be linked automatically; `prepared` is the
 * ID of the review case held by `limitedBy` (empty when none was opened). `before` sets the tenant up first (a profile
 * change, a first ingestion).
 */
export function heldCaseConsole(
  sandbox: Sandbox,
  ndjson: string,
  limitedBy: ScoreLimit,
  before?: (engine: LocalEngine, ctx: CallContext) => Promise<void>,
): SandboxConsole<string> {
  return consoleOnSandbox(sandbox, async (engine, ctx) => {
    await before?.(engine, ctx);
    const report = await engine.call('records/ingest', { sourceSystem: 'st-marys-hospital', ndjson }, ctx);
    expect(report.autoLinked).toBe(0);
    const cases = await engine.call('reviews/list', { sourceSystem: 'st-marys-hospital' }, ctx);
    return cases.rows.find((row) => row.limitedBy === limitedBy)?.caseId ?? '';
  });
}

/** The case page's Score row, as its text runs ("Score0.5000 (probable …)Held at …"). */
export async function scoreRow(page: Page): Promise<string> {
  const row = page.getByRole('table', { name: 'Case details' }).getByRole('row', { name: /^Score/ });
  return (await row.textContent()) ?? '';
}

/**
 * The note under the records says they are scored now as the case was when opened: the score the Score row gives
 * for its fields when held (`score`, scoreRow's text).
 */
export async function expectScoredAsWhenOpened(page: Page, score: string): Promise<void> {
  const heldFrom = /its fields scored (\d\.\d{4})/.exec(score)?.[1] ?? 'none';
  expect(await page.getByTestId('pair-records-note').textContent()).toBe(
    `The records as they are now, scored by the active profile: ${heldFrom}, as in the case when it was opened.`,
  );
}
