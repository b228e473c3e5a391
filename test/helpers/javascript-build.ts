/**
 * Once per test run, for the tests that spawn the CLI: the JavaScript build it runs from (main/build/javascript.ts),
 * made here if the sources changed, so the first test files to spawn it do not all build it at once.
 */
import { buildJavaScript } from '../../main/build/javascript.ts';

export default async function setup(): Promise<void> {
  await buildJavaScript();
}
