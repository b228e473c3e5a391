/**
 * A real OAuth 2.0 authorization server in-process (oidc-provider): client credentials, RS256 JWT access
 * tokens (RFC 9068) for one resource (the registry API's audience), each client's tenant in `mpi_tenant`.
 * Its signing key is exported so tests can forge tokens the way an attacker would, with every claim under
 * their control but the key.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

export const API_AUDIENCE = 'https://registry.test/api';

export interface TestClient {
  readonly clientId: string;
  readonly secret: string;
  /** The tenant claim of this client's tokens; none when undefined. */
  readonly tenant?: string;
}

export interface IdentityProvider {
  readonly issuer: string;
  /** The current signing key (private, with kid and alg). */
  readonly signingKey: JWK;
  /** Requests the provider has answered for its JWKS. */
  readonly jwksFetches: number;
  token(clientId: string, scope: string): Promise<string>;
  /** Replaces the signing key by a new one (new kid); tokens from now on are signed with it. */
  rotate(): Promise<void>;
  close(): Promise<void>;
}

async function newKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    ...(await exportJWK(privateKey)),
    kid: `k-${Math.random().toString(36).slice(2, 10)}`,
    alg: 'RS256',
    use: 'sig',
  };
}

export async function startIdentityProvider(clients: readonly TestClient[]): Promise<IdentityProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  const tenants = new Map(clients.map((c) => [c.clientId, c.tenant]));
  let key = await newKey();
  let jwksFetches = 0;
  const make = (keys: JWK[]): Provider =>
    new Provider(issuer, {
      clients: clients.map((c) => ({
        client_id: c.clientId,
        client_secret: c.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      })),
      jwks: { keys: keys as never[] },
      features: {
        clientCredentials: { enabled: true },
        devInteractions: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => API_AUDIENCE,
          getResourceServerInfo: () => ({
            scope: 'mpi.admin mpi.operations',
            audience: API_AUDIENCE,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
      ttl: { ClientCredentials: 600 },
      extraTokenClaims: (_ctx: unknown, token: { clientId?: string }) => {
        const tenant = tenants.get(token.clientId ?? '');
        return tenant === undefined ? undefined : { mpi_tenant: tenant };
      },
    });
  let provider = make([key]);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.url === '/jwks') jwksFetches++;
    void provider.callback()(request, response);
  });
  return {
    issuer,
    get signingKey() {
      return key;
    },
    get jwksFetches() {
      return jwksFetches;
    },
    async token(clientId, scope) {
      const client = clients.find((c) => c.clientId === clientId);
      if (client === undefined) throw new Error(`no client ${clientId}`);
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${client.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
      });
      const body = (await response.json()) as { access_token?: string };
      if (response.status !== 200 || body.access_token === undefined)
        throw new Error(`token request failed: ${String(response.status)}`);
      return body.access_token;
    },
    async rotate() {
      const next = await newKey();
      provider = make([next, key]);
      key = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
