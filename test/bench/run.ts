/**
 * npm run bench [-- --json] [-- --only core,assurance,jobs,reviews,api,assurance-page,postgres]: the speed figures of the project, each beside
 * the ceiling measured in the same run. Speed lives here, never in tests.
 * npm run bench -- --scale [--sizes 10000,100000,1000000]: how cost grows to a million records (long; scale.bench.ts).
 */
import { parseArgs } from 'node:util';
import type { BenchRow } from './rows.ts';
import { benchComparators, benchIngestion } from './core.bench.ts';

type Suite = () => Promise<BenchRow[]> | BenchRow[];

async function optional(module: string, exportName: string): Promise<Suite | undefined> {
  try {
    const loaded = (await import(module)) as Record<string, Suite | undefined>;
    return loaded[exportName];
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

const { values } = parseArgs({
  options: {
    json: { type: 'boolean' },
    only: { type: 'string' },
    scale: { type: 'boolean' },
    sizes: { type: 'string' },
  },
});
const only =
  values.scale === true ? new Set(['scale']) : values.only === undefined ? undefined : new Set(values.only.split(','));
const sizes = values.sizes === undefined ? undefined : values.sizes.split(',').map(Number);
const suites: [string, Suite | undefined][] = [
  [
    'scale',
    values.scale === true
      ? async () => (await import('./scale.bench.ts')).benchScale(sizes, (line) => process.stderr.write(`${line}\n`))
      : undefined,
  ],
  ['core', () => [...benchComparators(), ...benchIngestion()]],
  ['assurance', await optional('./assurance.bench.ts', 'benchAssurance')],
  ['jobs', await optional('./jobs.bench.ts', 'benchJobs')],
  ['console', await optional('./console.bench.ts', 'benchConsole')],
  ['reviews', await optional('./reviews.bench.ts', 'benchReviews')],
  ['import', await optional('./import.bench.ts', 'benchImport')],
  ['api', await optional('./api.bench.ts', 'benchApi')],
  ['api-estimate', await optional('./api.bench.ts', 'benchApiDuringEstimate')],
  ['api-bodies', await optional('./api-bodies.bench.ts', 'benchApiDuringLargeBodies')],
  ['assurance-page', await optional('./assurance-page.bench.ts', 'benchAssurancePage')],
  ['postgres', await optional('./postgres.bench.ts', 'benchPostgres')],
];

const rows: (BenchRow & { suite: string })[] = [];
for (const [name, suite] of suites) {
  if (suite === undefined || (only !== undefined && !only.has(name))) continue;
  if (values.json !== true) process.stderr.write(`running ${name}…\n`);
  for (const row of await suite()) rows.push({ suite: name, ...row });
}

const number = (n: number): string => (n >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(4));
if (values.json === true) {
  process.stdout.write(
    JSON.stringify(
      { machine: { cpus: (await import('node:os')).cpus().length, node: process.version }, rows },
      null,
      2,
    ) + '\n',
  );
} else {
  const table = rows.map((r) => [
    r.suite,
    r.name,
    `${number(r.value)} ${r.unit}`,
    r.ceiling === undefined ? '' : `${number(r.ceiling)} ${r.unit}`,
    r.ceiling === undefined ? '' : `${((100 * r.value) / r.ceiling).toFixed(0)}%`,
    r.ceilingName ?? '',
    r.note ?? '',
  ]);
  const headers = ['suite', 'measure', 'value', 'ceiling', 'ratio', 'ceiling is', 'note'];
  const widths = headers.map((h, i) => Math.max(h.length, ...table.map((t) => (t[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  process.stdout.write([line(headers), line(widths.map((w) => '-'.repeat(w))), ...table.map(line)].join('\n') + '\n');
}
