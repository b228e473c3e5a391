/**
 * A request's JSON body, read where it costs the thread that answers requests nothing. Parsing a 10,000-pair evaluation
 * (1.4 MiB, up to 6.7 MiB with long references) and copying the parsed value to an engine thread held the registry
 * API's serving thread for 50 to 250 ms, while every other caller's request waited. A body larger than
 * INLINE_BODY_BYTES now travels to the engine thread as its bytes, undecoded, and is decoded, parsed, checked and
 * merged with the path's parameters there, by the same function that parses a small body in place. Bytes, not text:
 * handing a 6.7 MiB string to a thread cost the sender 20 to 40 ms here, the same bytes 0.5 ms.
 *
 * One definition of a bad body for both places: not JSON, a `__proto__` or `constructor.prototype` key (refused, as
 * fastify's own parser refuses them), or nested deeper than MAX_JSON_DEPTH. Both are a validation error naming the
 * body, whose detail the API answers as a 400 malformed-json problem (isMalformedBody).
 */
import secureJson from 'secure-json-parse';
import { EngineError, validationError, type ErrorIssue } from '../../engine/contract/errors.ts';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.ts';

/** Bodies up to this many bytes are parsed in place: about a millisecond, less than a hand-over to a thread. */
export const INLINE_BODY_BYTES = 64 * 1024;

const NOT_JSON = 'the body is not valid JSON';
const TOO_DEEP = `the body nests deeper than ${String(MAX_JSON_DEPTH)} levels`;
const BODY_ISSUES: Readonly<Record<string, ErrorIssue>> = {
  [NOT_JSON]: { path: '(body)', message: 'not valid JSON (or it holds a __proto__ or constructor.prototype key)' },
  [TOO_DEEP]: { path: '(body)', message: `arrays and objects nested at most ${String(MAX_JSON_DEPTH)} levels deep` },
};

function malformed(detail: string): EngineError {
  return validationError(detail, [BODY_ISSUES[detail] as ErrorIssue]);
}

/** Whether an error is parseJsonBody's refusal (the API answers it 400 malformed-json, not 422). */
export function isMalformedBody(error: EngineError): boolean {
  const issue = BODY_ISSUES[error.message];
  return (
    error.kind === 'validation' &&
    issue !== undefined &&
    error.issues.length === 1 &&
    error.issues[0]?.path === issue.path &&
    error.issues[0].message === issue.message
  );
}

/** The body's value; undefined for an empty body (a cancel sent with the JSON media type, as the spec allows). */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw malformed(NOT_JSON);
  }
  if (nestedDeeperThan(value)) throw malformed(TOO_DEEP);
  return value;
}

/** A body too large to parse on the serving thread: its bytes, for an engine thread to parse (bodyInput). */
export class DeferredBody {
  constructor(readonly bytes: Uint8Array) {}
}

/** The text of a body's bytes (UTF-8). */
export function bodyText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** What an engine thread is given instead of an input: the body's bytes and the path's parameters. */
export interface BodyBytes {
  readonly bytes: Uint8Array;
  readonly params: Readonly<Record<string, string>>;
  /** Take this key of the body (runs/start: the run's own input is the body's `input`). */
  readonly pick?: 'input';
}

/**
 * An operation's input from its JSON body and its path's parameters: a parameter given in the path must not be
 * repeated in the body. A body that is not an object is returned as it is, for the operation's schema to refuse.
 */
export function withPathParameters(
  operation: string,
  body: unknown,
  params: Readonly<Record<string, string>>,
): unknown {
  const names = Object.keys(params);
  if (names.length === 0 || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const both = names.filter((p) => Object.hasOwn(body, p));
  if (both.length > 0)
    throw validationError(
      `invalid input for ${operation}`,
      both.map((p) => ({ path: p, message: 'given in the path; do not repeat it' })),
    );
  return { ...body, ...params };
}

/** The input an engine thread calls with, from a body sent as its bytes. */
export function bodyInput(operation: string, body: BodyBytes): unknown {
  const value = parseJsonBody(bodyText(body.bytes));
  const picked =
    body.pick === 'input' && typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>).input
      : value;
  return withPathParameters(operation, picked, body.params);
}
