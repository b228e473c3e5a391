import { describe, expect, it } from 'vitest';
import { isEngineError, validationError, type EngineError } from '../../../engine/contract/errors.ts';
import { bodyInput, isMalformedBody, parseJsonBody, withPathParameters } from '../../../main/net/json-body.ts';
import { MAX_JSON_DEPTH } from '../../../main/net/json-depth.ts';

function refusal(run: () => unknown): EngineError {
  try {
    run();
  } catch (error) {
    if (isEngineError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

describe('parseJsonBody', () => {
  it('reads JSON, and an empty or blank body as no body', () => {
    expect(parseJsonBody(' {"a": [1, {"b": "c"}]}\n')).toEqual({ a: [1, { b: 'c' }] });
    expect(parseJsonBody('')).toBeUndefined();
    expect(parseJsonBody(' \r\n\t')).toBeUndefined();
  });

  it('refuses text that is not JSON, and a __proto__ or constructor.prototype key, naming the body only', () => {
    for (const text of [
      '{"reason": "x"',
      '{"a": 1} trailing',
      '{"__proto__": {"admin": true}}',
      '{"a": {"constructor": {"prototype": {"admin": true}}}}',
    ]) {
      const error = refusal(() => parseJsonBody(text));
      expect(error.kind).toBe('validation');
      expect(error.message).toBe('the body is not valid JSON');
      expect(error.issues.map((i) => i.path)).toEqual(['(body)']);
      expect(isMalformedBody(error)).toBe(true);
      // Nothing of the body is quoted back.
      expect(JSON.stringify(error.issues)).not.toContain('admin');
    }
    // A key named constructor with no prototype inside is an ordinary key.
    expect(parseJsonBody('{"constructor": 1}')).toEqual({ constructor: 1 });
  });

  it(`refuses a body nested deeper than ${String(MAX_JSON_DEPTH)} levels, and takes one exactly that deep`, () => {
    expect(parseJsonBody(nested(MAX_JSON_DEPTH))).toBeDefined();
    for (const text of [nested(MAX_JSON_DEPTH + 1), nested(100_000)]) {
      const error = refusal(() => parseJsonBody(text));
      expect(error.message).toBe(`the body nests deeper than ${String(MAX_JSON_DEPTH)} levels`);
      expect(isMalformedBody(error)).toBe(true);
    }
  });

  it('tells its own refusals from other validation errors that happen to name the body', () => {
    expect(isMalformedBody(validationError('invalid input', [{ path: '(body)', message: 'too long' }]))).toBe(false);
    expect(
      isMalformedBody(
        validationError('the body is not valid JSON', [{ path: 'reason', message: 'not valid JSON (or it holds' }]),
      ),
    ).toBe(false);
  });
});

describe('withPathParameters and bodyInput', () => {
  it("merges the path's parameters into an object body, and refuses one the body repeats, by name", () => {
    expect(withPathParameters('reviews/decide', { decision: 'unsure' }, { caseId: 'rc-1' })).toEqual({
      decision: 'unsure',
      caseId: 'rc-1',
    });
    const clash = refusal(() => withPathParameters('reviews/decide', { caseId: 'rc-2' }, { caseId: 'rc-1' }));
    expect(clash.message).toBe('invalid input for reviews/decide');
    expect(clash.issues).toEqual([{ path: 'caseId', message: 'given in the path; do not repeat it' }]);
    // Not an object: left for the operation's schema to refuse; no parameters: the body as it is.
    expect(withPathParameters('reviews/decide', [1], { caseId: 'rc-1' })).toEqual([1]);
    expect(withPathParameters('matching/explain', { a: 1 }, {})).toEqual({ a: 1 });
  });

  it("parses the text, takes a run start's own input when asked, and refuses what parseJsonBody refuses", () => {
    const text = JSON.stringify({ operation: 'matching/evaluate', input: { datasetId: 'd', pairs: [] } });
    expect(bodyInput('runs/start', { bytes: Buffer.from(text), params: {} })).toEqual(JSON.parse(text));
    expect(bodyInput('runs/start', { bytes: Buffer.from(text), params: {}, pick: 'input' })).toEqual({
      datasetId: 'd',
      pairs: [],
    });
    expect(
      bodyInput('reviews/decide', { bytes: Buffer.from('{"decision": "unsure"}'), params: { caseId: 'rc-1' } }),
    ).toEqual({
      decision: 'unsure',
      caseId: 'rc-1',
    });
    expect(
      isMalformedBody(refusal(() => bodyInput('runs/start', { bytes: Buffer.from('{'), params: {}, pick: 'input' }))),
    ).toBe(true);
  });
});
