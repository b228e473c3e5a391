/**
 * A remote registry connection: the contract over the registry API (RemoteEngine), the call context from the
 * token (its tenant claim and actor; the registry takes both from the token anyway), capabilities from the
 * granted scopes and what the registry offers, and the console's memory of the jobs started or watched
 * here (a registry without the job-list extension has no other list to show).
 *
 * Connecting checks, before anything is shown as connected: the URL (https, loopback http for development),
 * that the registry answers (its OpenAPI document; TLS problems and refusals named), that the token has not
 * expired, and, where the registry offers the job list and the scopes allow it, that it accepts the token.
 */
import { EngineError } from '../../engine/contract/errors.ts';
import type { Capabilities, Connection } from '../../console-protocol/protocol.ts';
import type {
  CallContext,
  EngineClient,
  OperationInput,
  OperationName,
  OperationOutput,
} from '../../engine/contract/operations.ts';
import { RemoteEngine } from '../remote/remote-engine.ts';
import type { ConsoleConnection, TaskOptions } from './connection.ts';
import type { RunOperation } from '../../engine/contract/runs.ts';
import { remoteCapabilities } from './remote-capabilities.ts';
import { SessionTokens, signInAgain, withSignInAdvice } from './session-tokens.ts';
import type { StoredSession, TokenStore } from './token-store.ts';

const MAX_REMEMBERED = 200;

export interface RemoteConnectOptions {
  readonly session: StoredSession;
  readonly store: TokenStore;
  /** Extra trusted CA certificate(s) (PEM) for a registry with a private CA. */
  readonly ca?: string | Buffer;
  /** Per request (default 30 s). */
  readonly timeoutMs?: number;
}

export class RemoteRegistryConnection implements ConsoleConnection {
  private readonly remembered: string[] = [];
  /** The registry client, with "sign in again" (or "paste a new token") added to a refusal of the token. */
  readonly client: EngineClient;

  private constructor(
    private readonly remote: RemoteEngine,
    private readonly tokens: SessionTokens,
    readonly capabilities: Capabilities,
    private readonly storage: TokenStore['kind'] | 'memory',
  ) {
    this.client = {
      call: async <K extends OperationName>(
        name: K,
        input: OperationInput<K>,
        context: CallContext,
      ): Promise<OperationOutput<K>> => {
        try {
          return await remote.call(name, input, context);
        } catch (error) {
          throw withSignInAdvice(error, tokens.session.method);
        }
      },
    };
  }

  get context(): CallContext {
    return { tenantId: this.tokens.claims.tenantId, actor: this.tokens.claims.actor };
  }

  static async connect(options: RemoteConnectOptions): Promise<RemoteRegistryConnection> {
    const { session, store } = options;
    let stored = false;
    const tokens = new SessionTokens(session, (next) => {
      stored = store.save(next);
    });
    const client = new RemoteEngine({
      baseUrl: session.baseUrl,
      tokens,
      timeoutMs: options.timeoutMs ?? 30_000,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    });
    try {
      if (
        tokens.claims.expiresAt !== undefined &&
        tokens.claims.expiresAt <= Date.now() / 1000 &&
        session.refreshToken === undefined
      )
        throw signInAgain(session.method);
      const offered = await client.offeredOperations();
      const capabilities = remoteCapabilities(tokens.claims.scopes, offered);
      if (capabilities.operations.length === 0) {
        throw new EngineError(
          'forbidden',
          `the token grants none of the registry's scopes (it has: ${tokens.claims.scopes.join(', ') || 'none'}); ask for mpi.operations or mpi.admin`,
        );
      }
      if (capabilities.operations.includes('jobs/list')) {
        // The registry checks the signature, issuer, audience and tenant: a refusal here is clearer than later.
        await client.call('jobs/list', { limit: 1 }, { tenantId: tokens.claims.tenantId, actor: tokens.claims.actor });
      }
      stored = store.save(tokens.session);
      return new RemoteRegistryConnection(client, tokens, capabilities, stored ? store.kind : 'memory');
    } catch (error) {
      await client.close();
      throw withSignInAdvice(error, session.method);
    }
  }

  async runTask(operation: RunOperation, input: unknown, options: TaskOptions): Promise<unknown> {
    try {
      return await this.remote.callWith(operation, input as never, this.context, options);
    } catch (error) {
      throw withSignInAdvice(error, this.tokens.session.method);
    }
  }

  describe(): Connection {
    const { claims, session } = this.tokens;
    return {
      kind: 'remote-registry',
      baseUrl: this.remote.url,
      method: session.method,
      tenantId: claims.tenantId,
      actor: claims.actor,
      identity: session.identity,
      expiresAt: claims.expiresAt === undefined ? null : new Date(claims.expiresAt * 1000).toISOString(),
      capabilities: this.capabilities,
      rememberedJobs: [...this.remembered],
      storage: this.storage,
    };
  }

  /** The registry and tenant (saved assurance runs are kept per registry and tenant, never per token). */
  storageKey(): string {
    return `remote-registry\u0000${this.remote.url}\u0000${this.tokens.claims.tenantId}`;
  }

  jobQueued(jobId: string): void {
    this.remember(jobId);
  }

  jobWatched(jobId: string): void {
    this.remember(jobId);
  }

  private remember(jobId: string): void {
    const at = this.remembered.indexOf(jobId);
    if (at >= 0) this.remembered.splice(at, 1);
    this.remembered.unshift(jobId);
    this.remembered.length = Math.min(this.remembered.length, MAX_REMEMBERED);
  }

  async close(): Promise<void> {
    await this.remote.close();
  }
}
