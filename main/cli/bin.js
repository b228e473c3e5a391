#!/usr/bin/env node
// The mpi-console command. It runs from the JavaScript build of the sources (dist/js, main/build/javascript.ts),
// made here first when they changed: loading them through tsx costs most of a second at every start. When no build
// can be made (a read-only folder, say), it says so and runs from the sources through tsx.
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// A closed pipe (`mpi-console identities | head`) ends the output quietly rather than with a stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const build = await builtCode();
if (build === null) {
  const { register } = await import('tsx/esm/api');
  register();
}
const root = build ?? new URL('../../', import.meta.url);
const extension = build === null ? 'ts' : 'js';
const { main } = await import(new URL(`main/cli/main.${extension}`, root).href);
// OpenTelemetry metrics of what this process does in-process (an ingest's health figures, a worker's jobs), when the
// OTLP environment names a collector; flushed before the process ends.
const { startMetricsExport } = await import(new URL(`main/engine-host/telemetry.${extension}`, root).href);
const stopMetrics = await startMetricsExport('cli');
process.exitCode = await main(process.argv.slice(2));
await stopMetrics?.();

/** The folder of the sources' build, made first when they changed; null when none can be made. */
async function builtCode() {
  try {
    const latest = new URL('../../dist/js/latest', import.meta.url);
    const digest = existsSync(latest) ? readFileSync(latest, 'utf8').trim() : '';
    const copy = new URL(`../../dist/js/${digest}/main/build/javascript.js`, import.meta.url);
    let builder = null;
    if (/^[0-9a-f]{64}$/.test(digest) && existsSync(copy)) {
      const built = await import(copy.href);
      const dir = built.currentBuild();
      if (dir !== null) return pathToFileURL(`${dir}/`);
      if (built.builderIsCurrent()) builder = built;
    }
    if (builder === null) {
      const { tsImport } = await import('tsx/esm/api');
      builder = await tsImport('../build/javascript.ts', import.meta.url);
    }
    const { dir } = await builder.buildJavaScript();
    return pathToFileURL(`${dir}/`);
  } catch (error) {
    process.stderr.write(
      `mpi-console: the JavaScript build in dist/js could not be made (${String(error)}); running from the TypeScript sources, slower to start.\n`,
    );
    return null;
  }
}
