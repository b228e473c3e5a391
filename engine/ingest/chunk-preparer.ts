/**
 * Prepares a chunk of NDJSON lines (record-preparer.ts), in this thread or ahead in the preparation thread.
 *
 * A large file's chunks are prepared one ahead: while the writer matches and writes chunk N under the write lock,
 * the preparation thread parses, validates and normalises chunk N + 1 and computes its blocking tags, which is
 * about a quarter of a record's cost. The results are the same either way: the thread runs the same code on the
 * same rules and keys. Until the thread has started, and for good if it fails (it could not start, it crashed, it
 * ran out of memory), the chunk is prepared here instead, so a line is never lost and the ingestion never fails
 * because of the thread. `prepare` never rejects. One thread serves every ingestion of the thread that started it
 * and stops when none has used it for IDLE_MS.
 */
import type { Worker } from 'node:worker_threads';
import { TAG_BYTES } from '../blocking/tags.ts';
import { startThread, threadEntry } from '../threads/start-thread.ts';
import type { NdjsonLine } from './ndjson-lines.ts';
import type { PrepareReply, PrepareRequest } from './prepare-messages.ts';
import type { PreparedResource, PreparerSetup, RecordPreparer } from './record-preparer.ts';

export interface ChunkPreparer {
  /** The chunk's lines prepared, in order. Never rejects. */
  prepare(lines: readonly NdjsonLine[]): Promise<PreparedResource[]>;
  /** Ends this ingestion's use of the thread, if any. */
  close(): void;
}

/** The lines prepared in this thread (a line the reader rejected stays rejected). */
export function prepareHere(preparer: RecordPreparer, lines: readonly NdjsonLine[]): PreparedResource[] {
  return lines.map((item) =>
    'rejected' in item ? { kind: 'rejected', issues: [item.rejected] } : preparer.prepareLine(item.text),
  );
}

function revive(reply: Extract<PrepareReply, { kind: 'prepared' }>, lines: readonly NdjsonLine[]): PreparedResource[] {
  const bytes = Buffer.from(reply.tagBytes.buffer, reply.tagBytes.byteOffset, reply.tagBytes.byteLength);
  return lines.map((item, index): PreparedResource => {
    if ('rejected' in item) return { kind: 'rejected', issues: [item.rejected] };
    const prepared = reply.prepared[index];
    if (prepared === undefined || prepared === null) throw new Error('the preparation thread skipped a line');
    if (prepared.kind === 'rejected') return prepared;
    return {
      kind: 'ready',
      write: { ...prepared.write, resourceJson: item.text },
      tags: prepared.tags.map((t) => ({
        tag: bytes.subarray(t.at * TAG_BYTES, (t.at + 1) * TAG_BYTES),
        ruleName: t.ruleName,
        ruleSetVersion: t.ruleSetVersion,
        keyVersion: t.keyVersion,
      })),
      warnings: prepared.warnings,
    };
  });
}

interface Waiting {
  readonly resolve: (reply: PrepareReply) => void;
  readonly reject: (error: Error) => void;
}

/** How long the thread outlives the last ingestion that used it, so the next file does not start another. */
const IDLE_MS = 30_000;

/**
 * The preparation thread of this module instance (one per engine thread), shared by the ingestions that run here,
 * each under its own setup. Starting a thread costs a few hundred milliseconds of CPU; one per ingestion made a
 * 10,000-record ingest of four files a third slower.
 */
class PrepareThread {
  ready = false;
  readonly started: Promise<boolean>;
  private worker: Worker | null = null;
  private users = 0;
  private idle: NodeJS.Timeout | undefined;
  private sequence = 0;
  private setups = 0;
  private readonly waiting = new Map<number, Waiting>();
  private settleStarted: (ready: boolean) => void = () => undefined;

  constructor(private readonly entryKey: string) {
    this.started = new Promise((resolve) => {
      this.settleStarted = resolve;
    });
    try {
      const worker = startThread(new URL(entryKey), {});
      worker.on('message', (message: PrepareReply) => {
        if (message.kind === 'ready') {
          this.ready = true;
          this.settleStarted(true);
          return;
        }
        const waiting = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        waiting?.resolve(message);
      });
      worker.on('error', () => {
        this.fail();
      });
      worker.on('exit', () => {
        this.fail();
      });
      // Unref'd while no ingestion uses it (register and release below), so an idle thread never keeps the
      // process alive. Only after the listeners: adding a 'message' listener refs the worker's port again, and a
      // CLI ingest then waited for the idle stop before it could exit.
      worker.unref();
      this.worker = worker;
    } catch {
      this.fail();
    }
  }

  /** Whether the thread could not start, died or was stopped: it is never used again. */
  get failed(): boolean {
    return this.worker === null;
  }

  /** An ingestion starts using the thread; its number names its setup in later requests. */
  register(setup: PreparerSetup): number {
    const setupId = ++this.setups;
    this.users++;
    clearTimeout(this.idle);
    // Ref'd while in use: an ingestion awaiting a chunk from the thread may have nothing else keeping the
    // process alive, and an unref'd thread would let it end there (exit code 13, an unsettled await).
    this.worker?.ref();
    this.post({ kind: 'setup', setupId, setup });
    return setupId;
  }

  release(setupId: number): void {
    this.post({ kind: 'forget', setupId });
    this.users--;
    if (this.users > 0) return;
    this.worker?.unref();
    this.idle = setTimeout(() => {
      this.stop();
    }, IDLE_MS);
    this.idle.unref();
  }

  request(setupId: number, texts: readonly (string | null)[]): Promise<PrepareReply> {
    const worker = this.worker;
    if (worker === null) return Promise.reject(new Error('the preparation thread stopped'));
    const id = ++this.sequence;
    return new Promise<PrepareReply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const request: PrepareRequest = { kind: 'prepare', id, setupId, texts };
      worker.postMessage(request);
    });
  }

  private post(request: PrepareRequest): void {
    this.worker?.postMessage(request);
  }

  private stop(): void {
    const worker = this.worker;
    this.fail();
    if (worker !== null) void worker.terminate();
  }

  private fail(): void {
    this.worker = null;
    this.settleStarted(false);
    if (threads.get(this.entryKey) === this) threads.delete(this.entryKey);
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(new Error('the preparation thread stopped'));
  }
}

/** The live thread per module (a test starts another module than prepare-thread.ts). */
const threads = new Map<string, PrepareThread>();

function threadFor(entry: URL): PrepareThread {
  const running = threads.get(entry.href);
  if (running !== undefined && !running.failed) return running;
  const thread = new PrepareThread(entry.href);
  if (!thread.failed) threads.set(entry.href, thread);
  return thread;
}

/**
 * One ingestion's use of the preparation thread (see above): chunks go to the thread once it is ready; until then,
 * and for good once it failed, `local` prepares them here.
 */
export class ThreadPreparer implements ChunkPreparer {
  /** Chunks the thread prepared (the others were prepared here). */
  chunksInThread = 0;
  /** Settles when the thread is ready (true) or failed before it was (false). */
  readonly started: Promise<boolean>;
  private thread: PrepareThread | null;
  private readonly setupId: number;

  constructor(
    private readonly local: RecordPreparer,
    /** The thread's module: prepare-thread.ts unless a test gives another. */
    entry: URL = threadEntry('prepare-thread', import.meta.url),
  ) {
    const thread = threadFor(entry);
    this.thread = thread;
    this.started = thread.started;
    this.setupId = thread.register(local.setup);
  }

  async prepare(lines: readonly NdjsonLine[]): Promise<PreparedResource[]> {
    const thread = this.thread;
    if (thread === null || thread.failed || !thread.ready) return prepareHere(this.local, lines);
    try {
      const reply = await thread.request(
        this.setupId,
        lines.map((item) => ('text' in item ? item.text : null)),
      );
      if (reply.kind !== 'prepared') throw new Error('the preparation thread did not prepare the chunk');
      const prepared = revive(reply, lines);
      this.chunksInThread++;
      return prepared;
    } catch {
      // The thread failed with this chunk in hand: prepare it here, and every chunk after it.
      this.close();
      return prepareHere(this.local, lines);
    }
  }

  close(): void {
    this.thread?.release(this.setupId);
    this.thread = null;
  }
}
