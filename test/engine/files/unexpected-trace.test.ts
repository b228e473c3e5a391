import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../engine/contract/errors.ts';
import { unexpectedTrace } from '../../../engine/host-side.ts';
import { toErrorData, unexpectedAdvice } from '../../../main/engine-host/errors.ts';

// What an unexpected failure's text can carry: a patient's name and birth date, a token.
const SECRET = /Okafor|1971-03-02|s3cr3t/;

function readChart(): never {
  readFileSync('/nonexistent/Okafor-1971-03-02/token=s3cr3t');
  throw new Error('unreachable');
}

function scoreOf(record: { name?: { family: string } }): string {
  return (record.name as { family: string }).family;
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('unexpectedTrace', () => {
  it("gives a real failure's name, code and frames from the program's root, never the text of its message", () => {
    const error = caught(readChart) as Error;
    expect(error.message).toMatch(SECRET);
    const trace = unexpectedTrace(error);
    expect(trace).toMatch(/^Error ENOENT at /);
    expect(trace).toContain('test/engine/files/unexpected-trace.test.ts:');
    expect(trace).not.toMatch(SECRET);
    // At most three frames, each a file:line:column.
    const frames = trace.replace(/^Error ENOENT at /, '').split(' < ');
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.length).toBeLessThanOrEqual(3);
    for (const frame of frames) expect(frame).toMatch(/:\d+:\d+$/);
  });

  it('names the function that failed first: the frame where a TypeError was thrown is in this file', () => {
    const trace = unexpectedTrace(caught(() => scoreOf({})));
    expect(trace).toMatch(/^TypeError at test\/engine\/files\/unexpected-trace\.test\.ts:16:\d+ < /);
  });

  it('reads no frame from a message written to look like one, nor from a stack that no longer starts with it', () => {
    const forged = new Error('bad value\n    at Okafor (file:///1971-03-02.ts:1:1)');
    const trace = unexpectedTrace(forged);
    expect(trace).not.toMatch(SECRET);
    expect(trace).toContain('test/engine/files/unexpected-trace.test.ts:');
    const changed = new Error('first');
    expect(changed.stack).toContain('first');
    changed.message = 'Okafor 1971-03-02';
    expect(unexpectedTrace(changed)).toBe('Error (no stack)');
    const renamed = new Error('x');
    renamed.name = 'Okafor 1971-03-02';
    expect(unexpectedTrace(renamed)).not.toMatch(SECRET);
  });

  it('traces an internal error through its cause, and names a thrown value that is not an Error without quoting it', () => {
    const cause = caught(() => scoreOf({}));
    const internal = new EngineError('internal', 'scoring failed unexpectedly (TypeError)', [], { cause });
    expect(unexpectedTrace(internal)).toBe(unexpectedTrace(cause));
    expect(internal.toData()).not.toHaveProperty('cause');
    expect(unexpectedTrace('Okafor 1971-03-02')).toBe('a thrown string, not an Error');
    expect(unexpectedTrace(null)).toBe('a thrown null, not an Error');
  });
});

describe('toErrorData at the console boundary', () => {
  it('logs where an unexpected failure happened, and tells the person what to do; an EngineError is not logged', () => {
    const lines: string[] = [];
    const data = toErrorData(caught(readChart), (line) => lines.push(line));
    expect(data).toEqual({
      type: 'EngineError',
      kind: 'internal',
      message: `the engine failed unexpectedly (Error): ${unexpectedAdvice(undefined)}`,
      issues: [],
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^unexpected failure: Error ENOENT at test\/engine\/files\/unexpected-trace\.test\.ts:/);
    expect(JSON.stringify(data) + lines.join('')).not.toMatch(SECRET);

    const internal = new EngineError('internal', 'labels/sample failed unexpectedly (TypeError)', [], {
      cause: caught(() => scoreOf({})),
    });
    // Without the console's log file (the registry server's threads), the engine's own words, as its clients read.
    expect(toErrorData(internal, (line) => lines.push(line)).message).toBe(internal.message);
    expect(lines[1]).toMatch(/^unexpected failure: TypeError at /);

    expect(toErrorData(new EngineError('validation', 'labels: required'), (line) => lines.push(line)).kind).toBe(
      'validation',
    );
    expect(lines).toHaveLength(2);
  });
});
