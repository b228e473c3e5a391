import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';
import { ctx, openRegistry, patient } from '../../helpers/registry.ts';

const SECRET = 'Quillfeather';

/** Each entry point over one NDJSON text: the records/ingest operation and the CLI reading a file. */
type Rejections = { line: number; paths: string[]; messages: string[] }[];

async function viaBoth(bytes: Buffer): Promise<[Rejections, Rejections]> {
  const dir = tempDir();
  const engine = openRegistry(dir, ['t1']);
  const fromCall = await engine.call(
    'records/ingest',
    { sourceSystem: 'hospital', ndjson: bytes.toString('utf8') },
    ctx('t1'),
  );
  engine.close();
  const file = join(dir, 'in.ndjson');
  writeFileSync(file, bytes);
  const cli = await runCli([
    '--db',
    join(dir, 'registry.db'),
    '--tenant',
    't1',
    'ingest',
    '--source',
    'clinic',
    '--ndjson',
    file,
    '--json',
  ]);
  const fromCli = JSON.parse(cli.stdout) as typeof fromCall;
  const summary = (report: typeof fromCall): Rejections =>
    report.rejected.map((r) => ({
      line: r.line,
      paths: r.issues.map((i) => i.path),
      messages: r.issues.map((i) => i.message),
    }));
  return [summary(fromCall), summary(fromCli)];
}

const line = (id: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ ...patient({ id, mrn: id.toUpperCase() }), ...extra });

describe('NDJSON input rules at every entry (records/ingest and the CLI)', () => {
  it('keeps a bare CR between JSON tokens inside its line, so later line numbers do not shift', async () => {
    const text =
      [line('a1'), line('a2').replace('"name":', '\r"name":'), line('a3'), '{"resourceType":"Patient"}'].join('\n') +
      '\n';
    const [call, cli] = await viaBoth(Buffer.from(text));
    for (const rejected of [call, cli]) expect(rejected.map((r) => r.line)).toEqual([4]);
  });

  it('tolerates CRLF line ends and a UTF-8 byte-order mark at the start of the file', async () => {
    const text = '\uFEFF' + [line('b1'), line('b2'), '{"resourceType":"Patient"}'].join('\r\n') + '\r\n';
    const [call, cli] = await viaBoth(Buffer.from(text));
    for (const rejected of [call, cli]) expect(rejected.map((r) => r.line)).toEqual([3]);
  });

  it('rejects an unpaired surrogate (escaped in JSON, or raw in text input) in any string or element name, naming the path', async () => {
    const text = [
      line('c1', { name: [{ family: `${SECRET}\\uD800`, given: ['Ann'] }] }).replace('\\\\uD800', '\\uD800'),
      line('c2'),
      line('c3', { note: 'x' }).replace('"note":"x"', '"note\\uDC00x":"ok"'),
    ].join('\n');
    const [call, cli] = await viaBoth(Buffer.from(text));
    for (const rejected of [call, cli]) {
      expect(rejected.map((r) => r.line)).toEqual([1, 3]);
      expect(rejected[0]?.paths).toEqual(['name[0].family']);
      expect(rejected[0]?.messages[0]).toMatch(/surrogate/);
      expect(rejected[1]?.paths).toEqual(['<unknown element 9>']);
      expect(JSON.stringify(rejected)).not.toContain(SECRET);
    }
    const engine = openRegistry(tempDir(), ['t1']);
    const raw = await engine.call(
      'records/ingest',
      {
        sourceSystem: 'hospital',
        ndjson: `${line('c4', { name: [{ family: `${SECRET}SURROGATE`, given: ['Ann'] }] }).replace('SURROGATE', '\uDBFF')}\n${line('c5')}`,
      },
      ctx('t1'),
    );
    engine.close();
    expect(raw.created).toBe(1);
    expect(raw.rejected.map((r) => [r.line, r.issues.map((i) => i.path)])).toEqual([[1, ['name[0].family']]]);
  });

  it('rejects invalid UTF-8 in a file by line, never replacing it silently', async () => {
    const bytes = Buffer.concat([
      Buffer.from(`${line('d1')}\n${line('d2').slice(0, 40)}`),
      Buffer.of(0xc3, 0x28),
      Buffer.from(`${line('d2').slice(40)}\n${line('d3')}\n`),
    ]);
    const dir = tempDir();
    openRegistry(dir, ['t1']).close();
    const file = join(dir, 'in.ndjson');
    writeFileSync(file, bytes);
    const cli = await runCli([
      '--db',
      join(dir, 'registry.db'),
      '--tenant',
      't1',
      'ingest',
      '--source',
      'clinic',
      '--ndjson',
      file,
      '--json',
    ]);
    const report = JSON.parse(cli.stdout) as {
      created: number;
      rejected: { line: number; issues: { path: string; message: string }[] }[];
    };
    expect(report.created).toBe(2);
    expect(report.rejected).toEqual([
      { line: 2, issues: [{ path: 'line', message: 'not valid UTF-8: the file must be UTF-8 encoded' }] },
    ]);
  });
});
