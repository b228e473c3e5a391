/**
 * An undici connection pool made with the first request, for every HTTP client here (a FHIR source's transport, the
 * remote registry client): undici takes about 0.1 s to load, and most processes never send a request.
 */
import type { Agent } from 'undici';

export interface Connections {
  readonly undici: typeof import('undici');
  readonly agent: Agent;
}

export class LazyAgent {
  private pool: Promise<Connections> | undefined;

  constructor(private readonly options: Agent.Options) {}

  /** undici and the pool, loaded and made on the first call. */
  connections(): Promise<Connections> {
    this.pool ??= import('undici').then((undici) => ({ undici, agent: new undici.Agent(this.options) }));
    return this.pool;
  }

  /** Closes the pool; nothing to do when no request was ever sent. */
  async close(): Promise<void> {
    if (this.pool !== undefined) await (await this.pool).agent.close();
  }
}
