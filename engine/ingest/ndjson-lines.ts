/**
 * The one NDJSON line reader: every NDJSON entry (the CLI's `ingest` reading a file, the records/ingest
 * operation's text payload, FHIR import) splits its input here, under one set of rules.
 *
 * - A line ends at LF only. One CR right before the LF is dropped (CRLF files); a CR anywhere else stays in
 *   its line: between JSON tokens it is whitespace, inside a string the validator reports it as a control
 *   character. So line numbers never shift.
 * - A final line terminator ends the last line; it does not start another.
 * - A line is at most MAX_LINE_BYTES bytes of UTF-8, its terminator (and a first line's BOM) excluded. A
 *   longer line is reported and skipped up to the next LF without being held: the byte reader never buffers
 *   more than the limit (plus 4 bytes), whatever the line's length.
 * - Bytes must be UTF-8: a line with an invalid sequence (an encoded surrogate included) is rejected, never
 *   repaired with U+FFFD. Text input is already decoded; an unpaired surrogate in it is reported by the
 *   Patient validator on the string that holds it (engine/fhir/patient.ts), like one written as a JSON escape.
 * - A UTF-8 byte-order mark is accepted at the start of the input only; elsewhere it is reported.
 *
 * Blank lines are yielded too (they count in line numbers); the caller skips them.
 */
import { isUtf8 } from 'node:buffer';
import type { ErrorIssue } from '../contract/errors.ts';
import { MAX_RESOURCE_BYTES } from '../fhir/patient.ts';

export const MAX_LINE_BYTES = MAX_RESOURCE_BYTES;

export type NdjsonLine =
  { readonly line: number; readonly text: string } | { readonly line: number; readonly rejected: ErrorIssue };

/** What NDJSON arrives as: decoded text, or a stream of bytes (a file, a request body). */
export type NdjsonSource = string | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export interface LineOptions {
  readonly maxLineBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = '\uFEFF';

const tooLong = (line: number, max: number): NdjsonLine => ({
  line,
  rejected: { path: 'line', message: `the line exceeds ${String(max)} bytes` },
});
const misplacedBom = (line: number): NdjsonLine => ({
  line,
  rejected: { path: 'line', message: 'starts with a byte-order mark, which is accepted only at the start of the file' },
});
const notUtf8 = (line: number): NdjsonLine => ({
  line,
  rejected: { path: 'line', message: 'not valid UTF-8: the file must be UTF-8 encoded' },
});

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** Splits a byte stream into lines; see the module comment for the rules. */
export class NdjsonLineReader implements AsyncIterable<NdjsonLine> {
  /** The most bytes of one line held at any time (the bound the tests check). */
  peakBufferedBytes = 0;
  private readonly maxLineBytes: number;

  constructor(
    private readonly source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    options: LineOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<NdjsonLine> {
    // Room for a CR before the LF and a byte-order mark, which do not count towards the limit.
    const hold = this.maxLineBytes + 4;
    let parts: Buffer[] = [];
    let size = 0;
    let overflow = false;
    let line = 0;
    for await (const raw of this.source) {
      const chunk = asBuffer(raw);
      let start = 0;
      for (;;) {
        const lf = chunk.indexOf(LF, start);
        const end = lf === -1 ? chunk.length : lf;
        if (!overflow && end > start) {
          if (size + end - start > hold) {
            overflow = true;
            parts = [];
            size = 0;
          } else {
            parts.push(chunk.subarray(start, end));
            size += end - start;
            if (size > this.peakBufferedBytes) this.peakBufferedBytes = size;
          }
        }
        if (lf === -1) break;
        line++;
        yield overflow ? tooLong(line, this.maxLineBytes) : this.finish(line, parts, size);
        parts = [];
        size = 0;
        overflow = false;
        start = lf + 1;
      }
    }
    if (size > 0 || overflow) {
      line++;
      yield overflow ? tooLong(line, this.maxLineBytes) : this.finish(line, parts, size);
    }
  }

  /** In the same order as textLines: CR, a first line's BOM, length, a misplaced BOM, then UTF-8. */
  private finish(line: number, parts: readonly Buffer[], size: number): NdjsonLine {
    let bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size);
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    if (bom && line === 1) bytes = bytes.subarray(3);
    if (bytes.length > this.maxLineBytes) return tooLong(line, this.maxLineBytes);
    if (bom && line !== 1) return misplacedBom(line);
    if (!isUtf8(bytes)) return notUtf8(line);
    return { line, text: bytes.toString('utf8') };
  }
}

/** Splits decoded text into lines under the same rules. */
export function* textLines(text: string, options: LineOptions = {}): Generator<NdjsonLine> {
  const max = options.maxLineBytes ?? MAX_LINE_BYTES;
  let start = 0;
  let line = 0;
  while (start < text.length) {
    const lf = text.indexOf('\n', start);
    const end = lf === -1 ? text.length : lf;
    line++;
    let content = text.slice(start, end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end);
    const bom = content.startsWith(BOM);
    if (bom && line === 1) content = content.slice(1);
    // A UTF-16 unit is at least one byte of UTF-8, so the exact count is needed only near the limit.
    if (content.length > max || Buffer.byteLength(content, 'utf8') > max) yield tooLong(line, max);
    else if (bom && line !== 1) yield misplacedBom(line);
    else yield { line, text: content };
    if (lf === -1) break;
    start = lf + 1;
  }
}

export function ndjsonLines(
  source: NdjsonSource,
  options: LineOptions = {},
): AsyncIterable<NdjsonLine> | Iterable<NdjsonLine> {
  return typeof source === 'string' ? textLines(source, options) : new NdjsonLineReader(source, options);
}

/** JSON whitespace only (LF cannot occur inside a line). */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== CR) return false;
  }
  return true;
}
