import { LocalEngine } from '../../engine/local-engine.ts';
import type { CallContext } from '../../engine/contract/operations.ts';
import { EngineError } from '../../engine/contract/errors.ts';

export type OptionValues = Record<string, string | boolean | undefined>;

/** What a command gets: its options, its positional words, and a lazily opened engine. */
export class CliContext {
  private engineInstance: LocalEngine | undefined;

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

  get engine(): LocalEngine {
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
