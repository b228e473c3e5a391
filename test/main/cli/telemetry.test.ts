/**
 * The health figures as OpenTelemetry metrics, as an operator would collect them: a real OTLP/HTTP receiver on
 * loopback, the real `mpi-console` processes with the standard OTLP environment pointing at it. An ingest's records,
 * field completeness, compared pairs by score band and candidates by blocking rule arrive from the CLI process;
 * `serve --worker` sends the worker thread's identities by size. Without the environment nothing is sent.
 * Attributes never carry a tenant or a patient value.
 */
import { createServer, type Server } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN, cli, exited, makeSandbox, waitFor } from '../../engine/jobs/helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

interface DataPoint {
  readonly attributes: Record<string, string>;
  readonly value: number;
}

/** Every data point received, by metric name, with its resource's thread. */
const received = new Map<string, (DataPoint & { thread: string })[]>();
const bodies: string[] = [];

type Attribute = { key: string; value: { stringValue?: string; intValue?: number | string } };
type Point = { attributes?: Attribute[]; asInt?: number | string; asDouble?: number; count?: number | string };
type OtlpMetric = {
  name: string;
  sum?: { dataPoints: Point[] };
  gauge?: { dataPoints: Point[] };
  histogram?: { dataPoints: Point[] };
};
type OtlpBody = {
  resourceMetrics: { resource: { attributes: Attribute[] }; scopeMetrics: { metrics: OtlpMetric[] }[] }[];
};

function attributes(list: readonly Attribute[] | undefined): Record<string, string> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, String(a.value.stringValue ?? a.value.intValue ?? '')]));
}

function collect(body: OtlpBody): void {
  for (const resource of body.resourceMetrics) {
    const thread = attributes(resource.resource.attributes)['thread.name'] ?? '';
    for (const scope of resource.scopeMetrics) {
      for (const metric of scope.metrics) {
        const points = metric.sum?.dataPoints ?? metric.gauge?.dataPoints ?? metric.histogram?.dataPoints ?? [];
        const list = received.get(metric.name) ?? [];
        for (const p of points)
          list.push({
            thread,
            attributes: attributes(p.attributes),
            value: Number(p.asInt ?? p.asDouble ?? p.count ?? 0),
          });
        received.set(metric.name, list);
      }
    }
  }
}

let receiver: Server;
let endpoint: string;
const { dir, cleanup } = scratchDir('mpi-otel-');
let dbPath: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      bodies.push(text);
      if (req.url === '/v1/metrics') collect(JSON.parse(text) as OtlpBody);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  endpoint = `http://127.0.0.1:${String(address.port)}`;
  dbPath = await makeSandbox(dir, 'registry', 300, 4);
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  cleanup();
});

const OTEL = (): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_METRIC_EXPORT_INTERVAL: '300',
  OTEL_SERVICE_NAME: 'mpi-test',
});

describe('health figures as OpenTelemetry metrics', () => {
  it('sends nothing without the OTLP environment', () => {
    const out = join(dir, 'quiet');
    expect(cli(dbPath, ['synthetic', 'generate', '--people', '30', '--seed', '5', '--out', out]).status).toBe(0);
    const file = readdirSync(out).find((f) => f.endsWith('.ndjson')) ?? '';
    const result = cli(dbPath, ['ingest', '--source', file.replace(/\.ndjson$/, ''), '--ndjson', join(out, file)]);
    expect(result.status, result.stderr).toBe(0);
    expect(bodies).toEqual([]);
  });

  it('an ingest through the CLI sends its records, completeness, compared pairs by score band and candidates by rule', async () => {
    const out = join(dir, 'synthetic');
    expect(cli(dbPath, ['synthetic', 'generate', '--people', '120', '--seed', '9', '--out', out]).status).toBe(0);
    const file = readdirSync(out).find((f) => f.endsWith('.ndjson')) ?? '';
    const source = file.replace(/\.ndjson$/, '');
    const child = spawn(
      process.execPath,
      [
        BIN,
        '--db',
        dbPath,
        '--tenant',
        'jobs-test',
        'ingest',
        '--source',
        source,
        '--ndjson',
        join(out, file),
        '--json',
      ],
      {
        env: { ...process.env, ...OTEL() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    expect(await exited(child)).toBe(0);
    const report = JSON.parse(stdout) as {
      created: number;
      autoLinked: number;
      reviewCasesCreated: number;
      reviewHolds: Record<string, number>;
      rejected: unknown[];
    };
    // The CLI flushes its metrics before it exits: they are here already.
    const records = received.get('service.health.records') ?? [];
    const total = (outcome: string): number =>
      records
        .filter((p) => p.attributes['outcome'] === outcome && p.attributes['source'] === source)
        .reduce((a, p) => a + p.value, 0);
    expect(total('created') + total('auto-linked')).toBe(report.created);
    expect(total('auto-linked')).toBe(report.autoLinked);
    expect(records.every((p) => p.thread === 'cli' && p.attributes['origin'] === 'ingest')).toBe(true);
    const present = received.get('service.health.field_present') ?? [];
    expect(
      present.find((p) => p.attributes['field'] === 'familyName' && p.attributes['source'] === source)?.value,
    ).toBe(report.created);
    const pairs = received.get('service.health.compared_pairs') ?? [];
    expect(new Set(pairs.map((p) => p.attributes['score_band']))).toEqual(
      new Set(['0–0.001', '0.001–0.01', '0.01–0.1', '0.1–0.5', '0.5–0.9', '0.9–0.99', '0.99–0.999', '0.999–1']),
    );
    expect(pairs.reduce((a, p) => a + p.value, 0)).toBeGreaterThan(0);
    expect((received.get('service.health.candidates') ?? []).map((p) => p.attributes['rule'])).toContain('phone');
    expect((received.get('service.health.duration') ?? []).length).toBeGreaterThan(0);
    // Review cases by what held them, as the report counts them.
    const cases = (received.get('service.health.review_cases') ?? []).filter((p) => p.attributes['source'] === source);
    expect(cases.reduce((a, p) => a + p.value, 0)).toBe(report.reviewCasesCreated);
    const byHold = Object.fromEntries(
      cases.filter((p) => p.value > 0).map((p) => [String(p.attributes['hold']), p.value]),
    );
    expect(byHold).toEqual(report.reviewHolds);
    // No tenant and no patient value in any attribute.
    for (const points of received.values())
      for (const p of points) expect(Object.keys(p.attributes).sort()).not.toContain('tenant');
    expect(bodies.join('\n')).not.toContain('jobs-test');
  }, 120_000);

  it('serve --worker sends the worker thread’s identities by size', async () => {
    const server = spawn(process.execPath, [BIN, 'serve', '--db', dbPath, '--dev-auth', '--worker', '--port', '0'], {
      env: { ...process.env, ...OTEL() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const sizes = await waitFor(
        'the identities gauge from the job thread',
        () => {
          const points = (received.get('service.health.identities') ?? []).filter((p) => p.thread === 'jobs');
          return points.length >= 6 ? points : undefined;
        },
        60_000,
        50,
      );
      expect(new Set(sizes.map((p) => p.attributes['size']))).toEqual(new Set(['1', '2', '3', '4', '5–9', '10+']));
      expect(sizes.filter((p) => p.attributes['size'] === '1')[0]?.value).toBeGreaterThan(0);
    } finally {
      server.kill('SIGTERM');
      await exited(server);
    }
  }, 90_000);
});
