/**
 * Creates a sandbox file with synthetic people in a worker thread, forwarding its progress. The file must not
 * exist yet; if creation fails, is cancelled (the user asked: a million people take many minutes) or is abandoned
 * (the console closes), the database, its WAL files and its configuration file are removed, so nothing partial is
 * left behind.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { conflict, validationError } from '../../engine/contract/errors.ts';
import { settingsPathFor } from '../../engine/host-side.ts';
import type { CreateSandboxInputSchema, SandboxProgress } from '../../console-protocol/protocol.ts';
import type { z } from 'zod';
import { fromErrorData } from '../engine-host/errors.ts';
import { startThread } from '../engine-host/threads.ts';
import type { SandboxThreadMessage } from '../engine-host/messages.ts';

export type CreateSandboxInput = z.output<typeof CreateSandboxInputSchema>;

export const SANDBOX_CANCELLED =
  'the sandbox creation was cancelled: its partial file was removed, so nothing was kept';

/** The files a sandbox is: any of them already there means the name is taken. */
function sandboxFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`, settingsPathFor(path)];
}

/** What a creation that did not finish removes: its files, and the configuration's lock and change files with them. */
function creationFiles(path: string): string[] {
  const settings = settingsPathFor(path);
  return [...sandboxFiles(path), `${settings}.lock`, `${settings}.pending`, `${settings}.previous`];
}

export class SandboxCreation {
  readonly path: string;
  private thread: Worker | undefined;
  private abandoned = false;
  private cancelled = false;

  constructor(
    private readonly input: CreateSandboxInput,
    private readonly actor: string,
    private readonly onProgress: (progress: SandboxProgress) => void,
  ) {
    this.path = join(input.folder, input.fileName);
  }

  /** Resolves when the file is complete and closed; rejects (with the files removed) otherwise. */
  async run(): Promise<void> {
    const existing = sandboxFiles(this.path).find((file) => existsSync(file));
    if (existing !== undefined) {
      throw conflict(`${existing} already exists; open that sandbox, or choose another folder or file name`);
    }
    try {
      mkdirSync(this.input.folder, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw validationError(
        `the folder ${this.input.folder} cannot be created (${(error as NodeJS.ErrnoException).code ?? 'error'}); choose a folder you can write to`,
        [{ path: 'folder', message: 'cannot be created' }],
      );
    }
    this.report('preparing', 0, 0, null);
    try {
      await this.runThread();
      if (this.abandoned) throw conflict('the sandbox creation was abandoned because the console closed');
      // A cancel that arrived as the thread finished still means: keep nothing.
      if (this.cancelled) throw conflict(SANDBOX_CANCELLED);
    } catch (error) {
      this.removeFiles();
      if (this.cancelled && !this.abandoned) {
        this.report('cancelled', 0, 0, SANDBOX_CANCELLED);
        throw conflict(SANDBOX_CANCELLED);
      }
      const message = error instanceof Error ? error.message : 'the sandbox could not be created';
      this.report('failed', 0, 0, message);
      throw error;
    }
  }

  private report(stage: SandboxProgress['stage'], done: number, total: number, message: string | null): void {
    this.onProgress({ path: this.path, stage, done, total, message });
  }

  private runThread(): Promise<void> {
    if (this.cancelled) return Promise.reject(conflict(SANDBOX_CANCELLED));
    const thread = startThread('sandbox-thread', {
      dbPath: this.path,
      tenantId: this.input.tenantId,
      actor: this.actor,
      syntheticPeople: this.input.syntheticPeople,
      seed: this.input.seed,
    });
    this.thread = thread;
    let outcome: { ok: true } | { ok: false; error: Error } | undefined;
    return new Promise((resolve, reject) => {
      thread.on('message', (message: SandboxThreadMessage) => {
        if (message.type === 'progress') this.report(message.stage, message.done, message.total, null);
        else if (message.type === 'done') {
          outcome = { ok: true };
          this.report('finishing', 0, 0, null);
        } else outcome = { ok: false, error: fromErrorData(message.error) };
      });
      thread.on('error', (error) => {
        outcome ??= { ok: false, error: new Error(`the sandbox could not be created (${error.name})`) };
      });
      // The thread has closed the database when it exits: only then may the files be opened or removed.
      thread.once('exit', () => {
        this.thread = undefined;
        if (outcome?.ok === true) resolve();
        else reject(outcome?.error ?? conflict('the sandbox creation was stopped before it finished'));
      });
    });
  }

  private removeFiles(): void {
    for (const file of creationFiles(this.path)) rmSync(file, { force: true });
  }

  /** Stops a creation in progress at the user's request; run() then rejects and removes the files. */
  async cancel(): Promise<void> {
    this.cancelled = true;
    await this.thread?.terminate();
  }

  /** Stops a creation in progress (the console is closing); run() then rejects and removes the files. */
  async abandon(): Promise<void> {
    this.abandoned = true;
    await this.thread?.terminate();
  }
}
