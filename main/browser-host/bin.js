#!/usr/bin/env node
// `npm start`: the console in the browser. The host runs as JavaScript built from the TypeScript sources
// (dist/host), so it starts fast. When the built renderer and host are current (checked by the built copy of
// main/build), nothing else loads; otherwise the build code is loaded from source through tsx, rebuilds what
// is stale, and the fresh host starts.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const builtPrepare = new URL('../../dist/host/main/build/prepare.js', import.meta.url);
let built = null;
if (existsSync(builtPrepare)) {
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
