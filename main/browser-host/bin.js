#!/usr/bin/env node
// `npm start`: the console in the browser. The host runs from the JavaScript build of the sources
// (dist/js, main/build/javascript.ts), so it starts fast. When the built renderer and host are current (checked by
// the last build's copy of main/build), nothing else loads; otherwise the build code is loaded from source through
// tsx, rebuilds what is stale, and the fresh host starts.
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const latest = new URL('../../dist/js/latest', import.meta.url);
const digest = existsSync(latest) ? readFileSync(latest, 'utf8').trim() : '';
const builtPrepare = new URL(`../../dist/js/${digest}/main/build/prepare.js`, import.meta.url);
let built = null;
if (/^[0-9a-f]{64}$/.test(digest) && existsSync(builtPrepare)) {
  const { currentConsole } = await import(builtPrepare.href);
  built = currentConsole();
}
if (built === null) {
  const { tsImport } = await import('tsx/esm/api');
  const { prepareConsole } = await tsImport('../build/prepare.ts', import.meta.url);
  built = await prepareConsole((line) => process.stderr.write(`${line}\n`));
}
const { main } = await import(pathToFileURL(built.hostEntry).href);
process.exitCode = await main(process.argv.slice(2), { staticDir: built.staticDir });
