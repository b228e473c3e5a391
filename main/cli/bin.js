#!/usr/bin/env node
// The mpi-console command: loads the TypeScript CLI through tsx (no build step, no stale output).
import { register } from 'tsx/esm/api';

// A closed pipe (`mpi-console identities | head`) ends the output quietly rather than with a stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

register();
const { main } = await import('./main.ts');
// OpenTelemetry metrics of what this process does in-process (an ingest's health figures, a worker's jobs), when the
// OTLP environment names a collector; flushed before the process ends.
const { startMetricsExport } = await import('../engine-host/telemetry.ts');
const stopMetrics = await startMetricsExport('cli');
process.exitCode = await main(process.argv.slice(2));
await stopMetrics?.();
