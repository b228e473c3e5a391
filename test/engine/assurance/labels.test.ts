import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../engine/contract/errors.ts';
import { parseLabelsTsv } from '../../../engine/assurance/labels.ts';
import { hasControlCharacter } from '../../../engine/text/control-characters.ts';

/** Runs the parser expecting a validation error, and returns the error. */
function parseError(text: string): EngineError {
  try {
    parseLabelsTsv(text);
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error('expected parseLabelsTsv to throw');
}

const row = (...cells: string[]): string => cells.join('\t');

describe('parseLabelsTsv', () => {
  it('parses rows without a header', () => {
    const text = [row('EHR', 'A1', 'LAB', 'B2', 'match'), row('EHR', 'A3', 'LAB', 'B4', 'non-match')].join('\n');
    expect(parseLabelsTsv(text)).toEqual({
      pairs: [
        { left: { sourceSystem: 'EHR', localId: 'A1' }, right: { sourceSystem: 'LAB', localId: 'B2' }, isMatch: true },
        { left: { sourceSystem: 'EHR', localId: 'A3' }, right: { sourceSystem: 'LAB', localId: 'B4' }, isMatch: false },
      ],
      lineNumbers: [1, 2],
    });
  });

  it('skips a header row, detected case-insensitively, and numbers lines from the file', () => {
    const text = [
      row('LEFTSOURCE', 'leftLocalId', 'rightSource', 'rightLocalId', 'ismatch'),
      row('EHR', 'A1', 'LAB', 'B2', '1'),
    ].join('\n');
    const { pairs, lineNumbers } = parseLabelsTsv(text);
    expect(pairs).toHaveLength(1);
    expect(lineNumbers).toEqual([2]);
  });

  it('detects the header on the first non-blank line only', () => {
    const header = row('leftSource', 'leftLocalId', 'rightSource', 'rightLocalId', 'isMatch');
    expect(parseLabelsTsv(`\n\n${header}\n${row('EHR', 'A1', 'LAB', 'B2', '0')}`).lineNumbers).toEqual([4]);
    // A header-like row after data is a data row with a bad outcome.
    const error = parseError(`${row('EHR', 'A1', 'LAB', 'B2', '0')}\n${header}`);
    expect(error.issues).toEqual([
      { path: 'line 2', message: 'column isMatch: expected match/non-match, true/false or 1/0' },
    ]);
  });

  it('accepts every outcome spelling, case-insensitive and trimmed', () => {
    const outcomes = ['match', 'NON-MATCH', 'True', 'false', ' 1 ', '0', 'Match', 'FALSE'];
    const text = outcomes.map((outcome, i) => row('EHR', `A${i}`, 'LAB', `B${i}`, outcome)).join('\n');
    expect(parseLabelsTsv(text).pairs.map((pair) => pair.isMatch)).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
  });

  it('accepts CRLF line ends, strips a UTF-8 BOM and skips blank lines', () => {
    const text = `\uFEFF${row('leftSource', 'leftLocalId', 'rightSource', 'rightLocalId', 'isMatch')}\r\n\r\n${row(
      'EHR',
      'A1',
      'LAB',
      'B2',
      'true',
    )}\r\n   \r\n${row('EHR', 'A3', 'LAB', 'B4', 'false')}\r\n`;
    const { pairs, lineNumbers } = parseLabelsTsv(text);
    expect(lineNumbers).toEqual([3, 5]);
    expect(pairs[0]).toEqual({
      left: { sourceSystem: 'EHR', localId: 'A1' },
      right: { sourceSystem: 'LAB', localId: 'B2' },
      isMatch: true,
    });
    expect(pairs[1]?.isMatch).toBe(false);
  });

  it('trims white space around cells', () => {
    expect(parseLabelsTsv(row(' EHR ', 'A1 ', ' LAB', 'B2', 'match')).pairs[0]).toEqual({
      left: { sourceSystem: 'EHR', localId: 'A1' },
      right: { sourceSystem: 'LAB', localId: 'B2' },
      isMatch: true,
    });
  });

  it('returns no pairs for an empty file', () => {
    expect(parseLabelsTsv('')).toEqual({ pairs: [], lineNumbers: [] });
    expect(parseLabelsTsv('\uFEFF\r\n\n')).toEqual({ pairs: [], lineNumbers: [] });
  });

  it('rejects a wrong column count', () => {
    const error = parseError(
      [row('EHR', 'A1', 'LAB', 'B2'), row('EHR', 'A1', 'LAB', 'B2', 'match', 'extra')].join('\n'),
    );
    expect(error.kind).toBe('validation');
    expect(error.issues).toEqual([
      { path: 'line 1', message: 'expected 5 tab-separated columns, found 4' },
      { path: 'line 2', message: 'expected 5 tab-separated columns, found 6' },
    ]);
  });

  it('rejects empty cells, naming the column', () => {
    const error = parseError(row('EHR', '', 'LAB', '  ', 'match'));
    expect(error.issues).toEqual([
      { path: 'line 1', message: 'column leftLocalId: empty' },
      { path: 'line 1', message: 'column rightLocalId: empty' },
    ]);
  });

  it('rejects an empty outcome cell', () => {
    expect(parseError(row('EHR', 'A1', 'LAB', 'B2', '')).issues).toEqual([
      { path: 'line 1', message: 'column isMatch: empty' },
    ]);
  });

  it('rejects unknown outcome spellings', () => {
    for (const outcome of ['yes', 'nonmatch', '2', 'non match', 'matched']) {
      expect(parseError(row('EHR', 'A1', 'LAB', 'B2', outcome)).issues).toEqual([
        { path: 'line 1', message: 'column isMatch: expected match/non-match, true/false or 1/0' },
      ]);
    }
  });

  it('rejects control characters in any cell', () => {
    const error = parseError(
      [
        row('EH\u0000R', 'A1', 'LAB', 'B2', 'match'),
        row('EHR', 'A\u001b1', 'LAB', 'B2', 'match'),
        row('EHR', 'A1', 'LAB\u007f', 'B2', 'match'),
        row('EHR', 'A1', 'LAB', 'B2\u0085', 'match'),
        row('EHR', 'A1', 'LAB', 'B2', 'ma\rtch'), // a lone CR is not a line end
        row('EHR', 'A1', 'LAB', 'B2\u000b', 'match'),
      ].join('\n'),
    );
    expect(error.issues).toEqual([
      { path: 'line 1', message: 'column leftSource: contains a control character' },
      { path: 'line 2', message: 'column leftLocalId: contains a control character' },
      { path: 'line 3', message: 'column rightSource: contains a control character' },
      { path: 'line 4', message: 'column rightLocalId: contains a control character' },
      { path: 'line 5', message: 'column isMatch: contains a control character' },
      { path: 'line 6', message: 'column rightLocalId: contains a control character' },
    ]);
  });

  it('lists every offending row in one validation error, without cell contents', () => {
    const secrets = ['MRN-0042-SECRET', 'NHS9434765919', 'Smith^John', 'maybe-SECRET'];
    const text = [
      row('leftSource', 'leftLocalId', 'rightSource', 'rightLocalId', 'isMatch'),
      row('EHR', secrets[0] ?? '', 'LAB', 'B2', 'match'),
      row('EHR', secrets[1] ?? '', 'LAB', 'B2', secrets[3] ?? ''),
      '',
      row('EHR', secrets[2] ?? '', 'LAB'),
      row('EHR', 'A5', 'LAB', `${secrets[0] ?? ''}\u0007`, 'match'),
      row('EHR', 'A6', 'LAB', 'B6', 'false'),
      row('', secrets[1] ?? '', 'LAB', 'B7', 'yes'),
    ].join('\n');
    const error = parseError(text);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.kind).toBe('validation');
    expect(error.issues).toEqual([
      { path: 'line 3', message: 'column isMatch: expected match/non-match, true/false or 1/0' },
      { path: 'line 5', message: 'expected 5 tab-separated columns, found 3' },
      { path: 'line 6', message: 'column rightLocalId: contains a control character' },
      { path: 'line 8', message: 'column leftSource: empty' },
      { path: 'line 8', message: 'column isMatch: expected match/non-match, true/false or 1/0' },
    ]);
    expect(error.message).toBe('label file has 4 invalid rows');
    const serialised = JSON.stringify(error.toData());
    for (const secret of secrets) expect(serialised).not.toContain(secret);
    for (const fragment of ['MRN', 'NHS', 'Smith', 'maybe', 'yes']) expect(serialised).not.toContain(fragment);
  });
});

describe('hasControlCharacter', () => {
  it('finds C0, DEL and C1 controls and nothing else', () => {
    expect(hasControlCharacter('abc')).toBe(false);
    expect(hasControlCharacter('Ünïcödé ñame – 名前')).toBe(false);
    expect(hasControlCharacter('a\tb')).toBe(true);
    expect(hasControlCharacter('a\nb')).toBe(true);
    expect(hasControlCharacter('\u0000')).toBe(true);
    expect(hasControlCharacter('\u007f')).toBe(true);
    expect(hasControlCharacter('\u009f')).toBe(true);
    expect(hasControlCharacter('\u00a0')).toBe(false);
  });
});
