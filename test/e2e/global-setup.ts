/**
 * Once per test run, for the browser and packaging tests: build the renderer and the JavaScript of the host and the CLI if
 * their sources changed (the same staleness checks `npm start` uses) and start one Chromium that every test
 * file connects to.
 */
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { buildRenderer } from '../../main/build/renderer.ts';
import { buildJavaScript } from '../../main/build/javascript.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await buildRenderer();
  await buildJavaScript();
  let server: BrowserServer;
  try {
    server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  } catch (error) {
    throw new Error(
      `Chromium did not start from ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` (.ci/run does). ${error instanceof Error ? error.message : ''}`,
    );
  }
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
