/**
 * One synchronous PostgreSQL connection: the engine's threads wait for PostgreSQL as they wait for SQLite's disk, so
 * the store keeps one synchronous interface on both (store.ts). The connection's I/O runs in a thread of its own
 * (io-thread.js, a node-postgres client): a call posts its request there and sleeps on a shared flag
 * (Atomics.wait) until the answer is posted back, then takes it with receiveMessageOnPort. Values go to the server
 * as text ($1, $2, …; a Buffer as bytea's hex form) and come back as the engine's SQLite store gives them: numbers
 * for integers and counts, ISO-8601 strings for times, Buffers for bytea, 1/0 for booleans. Every call has a
 * deadline: the connect timeout, the server's statement_timeout and lock_timeout, and the wait for an answer,
 * past which the I/O thread is stopped and the connection is lost.
 */
import { createRequire } from 'node:module';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type pg from 'pg';

export interface ConnectionOptions {
  /** Longest a statement may run, in milliseconds. */
  readonly statementTimeoutMs: number;
  /** Longest a statement waits for a lock (another writer of the same tenant), in milliseconds. */
  readonly lockTimeoutMs: number;
  /** Longest connecting may take, in seconds. */
  readonly connectTimeoutSeconds: number;
}

/** A failure PostgreSQL reported: its SQLSTATE and primary message (never the DETAIL, which can quote values). */
export class PgError extends Error {
  override readonly name = 'PgError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Whether a SQLSTATE says the session is gone: a connection failure (class 08) or the server ending it (57P:
 * administrator command, shutdown, restart). The connection is then lost and the next statement needs a new one.
 */
export function sessionEnded(code: string): boolean {
  return code.startsWith('08') || code.startsWith('57P');
}

type Parser = (text: string) => unknown;

function toNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value)) throw new PgError('22003', 'a number from the database is out of range');
  return value;
}

const INT8 = 20;
const NUMERIC = 1700;
const BOOL = 16;
const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;

/**
 * node-postgres's parsers of the built-in types' text forms, looked up by type OID. node-postgres loads with the
 * first value read (about 0.05 s), so a process on a SQLite registry never loads it.
 */
const loadCommonJs = createRequire(import.meta.url);
let typeParsers: ((oid: number, format: 'text') => Parser) | undefined;
function builtinParser(oid: number, format: 'text'): Parser {
  typeParsers ??= (loadCommonJs('pg') as typeof pg).types.getTypeParser as (oid: number, format: 'text') => Parser;
  return typeParsers(oid, format);
}

const parsers = new Map<number, Parser>();
function parserOf(oid: number): Parser {
  let parser = parsers.get(oid);
  if (parser !== undefined) return parser;
  if (oid === INT8 || oid === NUMERIC) parser = toNumber;
  else if (oid === BOOL) parser = (text) => (text === 't' ? 1 : 0);
  else if (oid === TIMESTAMPTZ || oid === TIMESTAMP) {
    const parse = builtinParser(oid, 'text') as (text: string) => Date;
    parser = (text) => parse(text).toISOString();
  } else parser = builtinParser(oid, 'text');
  parsers.set(oid, parser);
  return parser;
}

function textOf(value: unknown, index: number): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`parameter ${String(index + 1)} is not a finite number`);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  throw new TypeError(`parameter ${String(index + 1)} has a type the store does not bind (${typeof value})`);
}

export type RowMode = 'object' | 'pluck' | 'raw';

export interface Result {
  readonly rows: unknown[];
  readonly changes: number;
}

interface Reply {
  readonly rows?: unknown[][];
  readonly names?: string[];
  readonly types?: number[];
  readonly changes?: number;
  readonly error?: { readonly code: string; readonly message: string };
}

/** The answer's wait beyond the statement's own deadline (the server cancels at statement_timeout). */
const ANSWER_MARGIN_MS = 15_000;

export class Connection {
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly port: MessagePort;
  private readonly thread: Worker;
  private readonly answerMs: number;
  private sequence = 0;
  private lost = false;

  constructor(url: string, options: ConnectionOptions) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.answerMs = Math.max(options.statementTimeoutMs, options.lockTimeoutMs) + ANSWER_MARGIN_MS;
    this.thread = new Worker(new URL('./io-thread.js', import.meta.url), {
      workerData: {
        url,
        flag: this.flag.buffer,
        port: port2,
        statementTimeoutMs: Math.trunc(options.statementTimeoutMs),
        lockTimeoutMs: Math.trunc(options.lockTimeoutMs),
        connectTimeoutMs: options.connectTimeoutSeconds * 1000,
      },
      transferList: [port2],
      execArgv: [],
    });
    // The engine's thread ends when its work does; its connection must not keep it alive.
    this.thread.unref();
    try {
      this.request({ op: 'exec', text: 'SELECT 1' });
    } catch (error) {
      this.close();
      const reason = error instanceof PgError ? error.message : '';
      throw new PgError(
        '08001',
        `cannot connect to the PostgreSQL registry${reason === '' ? '' : ` (${scrub(reason)})`}`,
      );
    }
  }

  /** Whether the connection was lost (the next statement needs a new one). */
  get isLost(): boolean {
    return this.lost;
  }

  /** Trusted, parameterless SQL (several statements allowed). */
  exec(sql: string): void {
    this.request({ op: 'exec', text: sql });
  }

  /** A named statement: the connection prepares it on its first use and reuses the plan after. */
  execute(name: string, sql: string, params: readonly unknown[], mode: RowMode): Result {
    return this.result(this.request({ op: 'query', name, text: sql, values: params.map(textOf) }), mode);
  }

  query(sql: string, params: readonly unknown[], mode: RowMode = 'object'): Result {
    return this.result(this.request({ op: 'query', text: sql, values: params.map(textOf) }), mode);
  }

  close(): void {
    if (!this.lost) {
      try {
        this.request({ op: 'close' }, 5_000);
      } catch {
        // Stopped below either way.
      }
    }
    this.lost = true;
    this.port.close();
    void this.thread.terminate();
  }

  private request(message: Record<string, unknown>, waitMs = this.answerMs): Reply {
    if (this.lost) throw new PgError('08003', 'the connection to the PostgreSQL registry was lost');
    // Each request has its own number, which the I/O thread stores in the flag once the answer is posted: a wake-up
    // left over from an earlier answer (its notify can land after this request began) is waited through.
    this.sequence = this.sequence >= 0x7fffffff ? 1 : this.sequence + 1;
    const sequence = this.sequence;
    this.port.postMessage({ ...message, sequence });
    const deadline = performance.now() + waitMs;
    let answered = false;
    for (;;) {
      const seen = Atomics.load(this.flag, 0);
      if (seen === sequence) {
        answered = true;
        break;
      }
      const left = deadline - performance.now();
      if (left <= 0) break;
      Atomics.wait(this.flag, 0, seen, left);
    }
    const reply = answered ? (receiveMessageOnPort(this.port)?.message as Reply | undefined) : undefined;
    if (!answered || reply === undefined) {
      this.lost = true;
      void this.thread.terminate();
      throw new PgError('08006', 'the PostgreSQL registry did not answer in time');
    }
    if (reply.error !== undefined) {
      if (sessionEnded(reply.error.code)) this.lost = true;
      throw new PgError(reply.error.code, reply.error.message);
    }
    return reply;
  }

  private result(reply: Reply, mode: RowMode): Result {
    const raw = reply.rows ?? [];
    const names = reply.names ?? [];
    const parse = (reply.types ?? []).map(parserOf);
    const columns = parse.length;
    const value = (text: unknown, c: number): unknown => (text === null ? null : (parse[c] as Parser)(text as string));
    const rows: unknown[] = new Array<unknown>(raw.length);
    for (let r = 0; r < raw.length; r += 1) {
      const cells = raw[r] as unknown[];
      if (mode === 'pluck') rows[r] = columns > 0 ? value(cells[0], 0) : undefined;
      else if (mode === 'raw') {
        const row: unknown[] = new Array<unknown>(columns);
        for (let c = 0; c < columns; c += 1) row[c] = value(cells[c], c);
        rows[r] = row;
      } else {
        const row: Record<string, unknown> = {};
        for (let c = 0; c < columns; c += 1) row[names[c] as string] = value(cells[c], c);
        rows[r] = row;
      }
    }
    return { rows, changes: reply.changes ?? 0 };
  }
}

/** A connection error can echo the URL; nothing of a password is kept. */
function scrub(reason: string): string {
  return reason.replace(/\/\/[^@\s]*@/g, '//…@').replace(/password\S*/gi, 'password …');
}

/** The URL as it may be shown: without its password. */
export function redactedUrl(conninfo: string): string {
  try {
    const url = new URL(conninfo);
    if (url.password !== '') url.password = '…';
    return url.toString();
  } catch {
    return 'the PostgreSQL registry';
  }
}
