/**
 * The pool's side of its intake thread (intake-thread.ts), started at the first large run start and kept: checks
 * answer in the order asked. A thread that stops fails the checks it held (an internal error that says so) and the
 * next check starts a new one.
 */
import type { Worker } from 'node:worker_threads';
import { EngineError } from '../../engine/contract/errors.ts';
import { isRunOperation, type RunOperation } from '../../engine/contract/runs.ts';
import { fromErrorData } from './errors.ts';
import type { IntakeAnswer, IntakeRequest } from './messages.ts';
import { startThread } from './threads.ts';

interface Pending {
  readonly resolve: (operation: RunOperation) => void;
  readonly reject: (error: unknown) => void;
}

export class Intake {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /** The run's operation, once the body is JSON, nests no deeper than allowed and fits runs/start's schemas. */
  check(bytes: Uint8Array): Promise<RunOperation> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<RunOperation>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: IntakeRequest = { id, bytes };
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.fail(new EngineError('conflict', 'the engine stopped before this run started'));
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = startThread('intake-thread', {});
    this.worker = worker;
    worker.on('message', (answer: IntakeAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (waiting === undefined) return;
      this.pending.delete(answer.id);
      if ('error' in answer) waiting.reject(fromErrorData(answer.error));
      else if (isRunOperation(answer.operation)) waiting.resolve(answer.operation);
      else waiting.reject(new EngineError('internal', 'the intake thread named no run operation'));
    });
    const stopped = (why: string): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.fail(new EngineError('internal', `the thread reading the request stopped (${why}); try again`));
    };
    worker.on('error', (error: Error & { code?: string }) => {
      stopped(error.code ?? error.name);
    });
    worker.on('exit', (code) => {
      stopped(`exit code ${String(code)}`);
    });
    // The host's life is its server's: an idle intake thread does not keep it running.
    worker.unref();
    return worker;
  }

  private fail(error: EngineError): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
