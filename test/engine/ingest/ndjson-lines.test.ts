import { describe, expect, it } from 'vitest';
import {
  MAX_LINE_BYTES,
  NdjsonLineReader,
  ndjsonLines,
  textLines,
  type NdjsonLine,
} from '../../../engine/ingest/ndjson-lines.ts';

async function collect(lines: AsyncIterable<NdjsonLine> | Iterable<NdjsonLine>): Promise<NdjsonLine[]> {
  const out: NdjsonLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

/** Feeds bytes in chunks of the given size, so every split point of a line is exercised. */
function* chunked(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const texts = (lines: readonly NdjsonLine[]): (string | null)[] => lines.map((l) => ('text' in l ? l.text : null));

describe('NDJSON line reader (bytes and text, one set of rules)', () => {
  it('splits only on LF: a bare CR between JSON tokens stays in its line and later line numbers do not shift', async () => {
    const input = '{"a":1,\r"b":2}\n{"c":3}\r\n\r\n{"d":\r4}';
    for (const size of [1, 2, 3, 7, 1024]) {
      const lines = await collect(new NdjsonLineReader(chunked(enc(input), size)));
      expect(lines.map((l) => l.line)).toEqual([1, 2, 3, 4]);
      expect(texts(lines)).toEqual(['{"a":1,\r"b":2}', '{"c":3}', '', '{"d":\r4}']);
      for (const l of lines)
        if ('text' in l && l.text !== '') expect(() => JSON.parse(l.text) as unknown).not.toThrow();
    }
    expect(texts([...textLines(input)])).toEqual(['{"a":1,\r"b":2}', '{"c":3}', '', '{"d":\r4}']);
  });

  it('counts a final line terminator as the end of the last line, not the start of another', async () => {
    expect((await collect(ndjsonLines('a\nb\n'))).map((l) => l.line)).toEqual([1, 2]);
    expect((await collect(ndjsonLines([enc('a\nb')]))).map((l) => l.line)).toEqual([1, 2]);
    expect(await collect(ndjsonLines(''))).toEqual([]);
  });

  it('accepts a UTF-8 byte-order mark at the start of the file only', async () => {
    const bom = '\uFEFF';
    for (const source of [
      ndjsonLines(`${bom}{"x":1}\n${bom}{"y":2}\n`),
      ndjsonLines(chunked(enc(`${bom}{"x":1}\n${bom}{"y":2}\n`), 1)),
    ]) {
      const [first, second] = await collect(source);
      expect(first).toEqual({ line: 1, text: '{"x":1}' });
      expect(second).toMatchObject({
        line: 2,
        rejected: { path: 'line', message: expect.stringContaining('byte-order mark') as unknown },
      });
    }
  });

  it('strips one byte-order mark from the file start only, for bytes and text alike', async () => {
    const twice = '\uFEFF\uFEFF{}';
    expect(await collect(new NdjsonLineReader([enc(twice)]))).toEqual([{ line: 1, text: '\uFEFF{}' }]);
    expect([...textLines(twice)]).toEqual([{ line: 1, text: '\uFEFF{}' }]);
  });

  it('rejects invalid UTF-8 by line and goes on (fatal decoding, never silent replacement)', async () => {
    const bad = [
      Uint8Array.of(0xc3, 0x28),
      Uint8Array.of(0xed, 0xa0, 0x80),
      Uint8Array.of(0xff),
      Uint8Array.of(0xe2, 0x82),
    ];
    for (const bytes of bad) {
      const input = Buffer.concat([enc('{"ok":1}\n{"name":"'), bytes, enc('"}\n{"ok":2}\n')]);
      for (const size of [1, 5, 4096]) {
        const lines = await collect(new NdjsonLineReader(chunked(input, size)));
        expect(lines).toEqual([
          { line: 1, text: '{"ok":1}' },
          { line: 2, rejected: { path: 'line', message: 'not valid UTF-8: the file must be UTF-8 encoded' } },
          { line: 3, text: '{"ok":2}' },
        ]);
      }
    }
    // A character split across chunks is still decoded whole.
    const lines = await collect(new NdjsonLineReader(chunked(enc('{"n":"Zoë 😀"}\n'), 1)));
    expect(lines).toEqual([{ line: 1, text: '{"n":"Zoë 😀"}' }]);
  });

  it('reports an over-long line, skips to the next LF and never buffers past the limit', async () => {
    const limit = 1000;
    const long = 'x'.repeat(50_000);
    const input = enc(
      `{"a":1}\n${long}\n{"b":2}\n${'y'.repeat(limit)}\n${'z'.repeat(limit)}\r\n${'w'.repeat(limit + 1)}`,
    );
    const reader = new NdjsonLineReader(chunked(input, 97), { maxLineBytes: limit });
    const lines = await collect(reader);
    expect(
      lines.map((l) => ('text' in l ? `${String(l.line)}:${String(l.text.length)}` : `${String(l.line)}:rejected`)),
    ).toEqual(['1:7', '2:rejected', '3:7', `4:${String(limit)}`, `5:${String(limit)}`, '6:rejected']);
    expect(lines[1]).toEqual({
      line: 2,
      rejected: { path: 'line', message: `the line exceeds ${String(limit)} bytes` },
    });
    // What the reader held at any time: at most the limit (plus room for a CR and a byte-order mark).
    expect(reader.peakBufferedBytes).toBeLessThanOrEqual(limit + 4);
    expect(MAX_LINE_BYTES).toBe(1024 * 1024);
  });

  it('applies the same length rule to text input (the records/ingest operation)', async () => {
    const lines = await collect(
      ndjsonLines(`{"a":1}\n${'é'.repeat(MAX_LINE_BYTES / 2)}\n${'é'.repeat(MAX_LINE_BYTES / 2 + 1)}\n`),
    );
    expect(lines.map((l) => ('text' in l ? 'text' : l.rejected.message))).toEqual([
      'text',
      'text',
      `the line exceeds ${String(MAX_LINE_BYTES)} bytes`,
    ]);
  });
});
