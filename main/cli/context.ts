import { LocalEngine } from '../../engine/local-engine.ts';
import type { CallContext, EngineClient } from '../../engine/contract/operations.ts';
import type { RemoteEngine } from '../remote/remote-engine.ts';
import { remoteClient } from './remote-client.ts';
import { EngineError } from '../../engine/contract/errors.ts';

export type OptionValues = Record<string, string | boolean | undefined>;

/** What a command gets: its options, its positional words, and a lazily opened engine. */
export class CliContext {
  private engineInstance: LocalEngine | undefined;
  private remoteInstance: RemoteEngine | undefined;

  constructor(
    readonly values: OptionValues,
    readonly positionals: readonly string[],
    readonly write: (text: string) => void,
  ) {}

  get json(): boolean {
    return this.values.json === true;
  }

  get dbPath(): string {
    return this.string('db') ?? process.env.MPI_DB ?? 'mpi-sandbox.db';
  }

  get call(): CallContext {
    return { tenantId: this.string('tenant') ?? process.env.MPI_TENANT ?? 'demo', actor: 'cli' };
  }

  /** Where the command's operations go: the registry API with --remote URL, else the local database. */
  get client(): EngineClient {
    const url = this.string('remote');
    if (url === undefined) return this.engine;
    if (this.remoteInstance === undefined) {
      const remote = remoteClient(this.values, url);
      if ('usage' in remote) throw usage(remote.usage);
      this.remoteInstance = remote;
    }
    return this.remoteInstance;
  }

  get engine(): LocalEngine {
    if (this.string('remote') !== undefined) throw usage('this command works on a local database only; the registry API does not offer it (--remote)');
    this.engineInstance ??= LocalEngine.open({ dbPath: this.dbPath, ...(this.string('config') === undefined ? {} : { settingsPath: this.string('config') as string }) });
    return this.engineInstance;
  }

  string(name: string): string | undefined {
    const value = this.values[name];
    return typeof value === 'string' ? value : undefined;
  }

  required(name: string): string {
    const value = this.string(name);
    if (value === undefined || value === '') throw usage(`--${name} is required`);
    return value;
  }

  integer(name: string, fallback?: number): number {
    const raw = this.string(name);
    if (raw === undefined) {
      if (fallback === undefined) throw usage(`--${name} is required`);
      return fallback;
    }
    if (!/^-?\d+$/.test(raw)) throw usage(`--${name} must be a whole number`);
    return Number(raw);
  }

  close(): void {
    void this.remoteInstance?.close();
    this.engineInstance?.close();
  }
}

export class UsageError extends Error {}

export function usage(message: string): UsageError {
  return new UsageError(message);
}

export function asEngineError(error: unknown): EngineError | undefined {
  return error instanceof EngineError ? error : undefined;
}
