/**
 * Prepares a chunk of NDJSON lines (record-preparer.ts), in this thread or ahead in a thread of its own.
 *
 * A large file's chunks are prepared one ahead: while the writer matches and writes chunk N under the write lock,
 * the preparation thread parses, validates and normalises chunk N + 1 and computes its blocking tags, which is
 * about a quarter of a record's cost. The results are the same either way: the thread runs the same code on the
 * same rules and keys. Until the thread has started, and for good if it fails (it could not start, it crashed, it
 * ran out of memory), the chunk is prepared here instead, so a line is never lost and the ingestion never fails
 * because of the thread. `prepare` never rejects.
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
  /** Stops the thread, if any. */
  close(): void;
}

function prepareHere(preparer: RecordPreparer, lines: readonly NdjsonLine[]): PreparedResource[] {
  return lines.map((item) =>
    'rejected' in item ? { kind: 'rejected', issues: [item.rejected] } : preparer.prepareLine(item.text),
  );
}

export function preparerHere(preparer: RecordPreparer): ChunkPreparer {
  return {
    prepare: (lines) => Promise.resolve(prepareHere(preparer, lines)),
    close: () => undefined,
  };
}

function revive(reply: PrepareReply, lines: readonly NdjsonLine[]): PreparedResource[] {
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

/** Prepares ahead in a thread (see above); `local` prepares here while the thread starts, or after it failed. */
export class ThreadPreparer implements ChunkPreparer {
  /** Chunks the thread prepared (the others were prepared here). */
  chunksInThread = 0;
  /** Settles when the thread is ready (true) or failed before it was (false). */
  readonly started: Promise<boolean>;
  private worker: Worker | null = null;
  private ready = false;
  private sequence = 0;
  private readonly waiting = new Map<number, Waiting>();
  private settleStarted: (ready: boolean) => void = () => undefined;

  constructor(
    private readonly local: RecordPreparer,
    setup: PreparerSetup,
    /** The thread's module: prepare-thread.ts unless a test gives another. */
    entry: URL = threadEntry('prepare-thread', import.meta.url),
  ) {
    this.started = new Promise((resolve) => {
      this.settleStarted = resolve;
    });
    try {
      const worker = startThread(entry, { setup });
      // Ingestion ends when its lines do; the thread must never keep the process alive.
      worker.unref();
      worker.on('message', (message: PrepareReply | { ready: true }) => {
        if ('ready' in message) {
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
      this.worker = worker;
    } catch {
      this.worker = null;
      this.settleStarted(false);
    }
  }

  /** Whether chunks are prepared in the thread now (for tests and figures). */
  get threaded(): boolean {
    return this.worker !== null && this.ready;
  }

  async prepare(lines: readonly NdjsonLine[]): Promise<PreparedResource[]> {
    const worker = this.worker;
    if (worker === null || !this.ready) return prepareHere(this.local, lines);
    const request: PrepareRequest = {
      id: ++this.sequence,
      texts: lines.map((item) => ('text' in item ? item.text : null)),
    };
    try {
      const reply = await new Promise<PrepareReply>((resolve, reject) => {
        this.waiting.set(request.id, { resolve, reject });
        worker.postMessage(request);
      });
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
    const worker = this.worker;
    this.worker = null;
    this.fail();
    if (worker !== null) void worker.terminate();
  }

  private fail(): void {
    this.worker = null;
    this.settleStarted(false);
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(new Error('the preparation thread stopped'));
  }
}
