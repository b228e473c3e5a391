/**
 * A real OpenID provider in-process (oidc-provider) for the console's sign-in: a public native client
 * (`mpi-console`, no secret, PKCE required, loopback redirect on any port as RFC 8252 allows), a login page
 * of its own (a user name form; each user has a tenant and the registry scopes their grant gives), RS256 JWT
 * access tokens for the registry API's audience with the tenant in `mpi_tenant`, and client credentials for
 * service tokens (the paste-token mode). signIn() drives the login with plain HTTP (a cookie jar and
 * redirects by hand) for tests without a browser.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair } from 'jose';

export const LOGIN_AUDIENCE = 'https://registry.test/api';
export const CONSOLE_CLIENT_ID = 'mpi-console';

export interface LoginUser {
  readonly tenant: string;
  readonly scopes: readonly string[];
}

export interface ServiceClient {
  readonly clientId: string;
  readonly secret: string;
  readonly tenant: string;
}

export interface LoginProvider {
  readonly issuer: string;
  /** A client-credentials token (what a service would paste). */
  serviceToken(clientId: string, scope: string): Promise<string>;
  /** Completes a sign-in at an authorization URL as this user, without a browser; resolves with the redirect it ends at. */
  signIn(authorizationUrl: string, user: string): Promise<string>;
  close(): Promise<void>;
}

interface ProviderApi {
  callback(): (request: IncomingMessage, response: ServerResponse) => Promise<void>;
  interactionDetails(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<{ uid: string; prompt: { name: string }; params: Record<string, unknown> }>;
  interactionFinished(
    request: IncomingMessage,
    response: ServerResponse,
    result: unknown,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  Grant: new (properties: { accountId: string; clientId: string }) => {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  };
}

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0))};`);

function loginPage(uid: string, message = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in - Test identity provider</title></head><body>
<main><h1>Test identity provider</h1>${message === '' ? '' : `<p role="alert">${escape(message)}</p>`}
<form method="post" action="/interaction/${escape(uid)}/login">
<label for="username">User name</label> <input id="username" name="username" autocomplete="username" required>
<button type="submit">Sign in</button></form></main></body></html>`;
}

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export interface LoginProviderOptions {
  /** Give the console refresh tokens with its sign-ins (rotated on each use), as many providers do. */
  readonly refreshTokens?: boolean;
  /** Access token lifetime in seconds (default 600). */
  readonly accessTokenTtl?: number;
}

export async function startLoginProvider(
  users: Readonly<Record<string, LoginUser>>,
  services: readonly ServiceClient[] = [],
  options: LoginProviderOptions = {},
): Promise<LoginProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const key = { ...(await exportJWK(privateKey)), kid: 'login-key', alg: 'RS256', use: 'sig' };
  const serviceTenants = new Map(services.map((s) => [s.clientId, s.tenant]));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: options.refreshTokens === true ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
        response_types: ['code'],
        redirect_uris: ['http://127.0.0.1/callback'],
      },
      ...services.map((s) => ({
        client_id: s.clientId,
        client_secret: s.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      })),
    ],
    jwks: { keys: [key] },
    cookies: { keys: ['test-cookie-key'] },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) =>
      Object.hasOwn(users, sub) ? { accountId: sub, claims: () => ({ sub }) } : undefined,
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => LOGIN_AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'mpi.admin mpi.operations',
          audience: LOGIN_AUDIENCE,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    // A refresh token only for a client allowed the grant (enabled by the option), offline_access asked or not.
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    ttl: {
      ClientCredentials: 600,
      AccessToken: options.accessTokenTtl ?? 600,
      RefreshToken: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    extraTokenClaims: (_ctx: unknown, token: { clientId?: string; accountId?: string }) => {
      const tenant =
        token.accountId !== undefined ? users[token.accountId]?.tenant : serviceTenants.get(token.clientId ?? '');
      return tenant === undefined ? undefined : { mpi_tenant: tenant };
    },
  }) as unknown as ProviderApi;
  const callback = provider.callback();

  const interaction = async (request: IncomingMessage, response: ServerResponse, path: string): Promise<void> => {
    const details = await provider.interactionDetails(request, response);
    if (request.method === 'POST' && path.endsWith('/login')) {
      const username = (await formBody(request)).get('username') ?? '';
      const user = Object.hasOwn(users, username) ? users[username] : undefined;
      if (user === undefined) {
        response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(loginPage(details.uid, 'Unknown user name.'));
        return;
      }
      const grant = new provider.Grant({ accountId: username, clientId: String(details.params.client_id) });
      // offline_access is granted when asked (the console asks for it when the discovery document lists it).
      const asked = typeof details.params.scope === 'string' ? details.params.scope.split(' ') : [];
      grant.addOIDCScope(asked.includes('offline_access') ? 'openid offline_access' : 'openid');
      grant.addResourceScope(LOGIN_AUDIENCE, user.scopes.join(' '));
      // The scopes this user may not have are refused (not asked again): the token carries only the others.
      const refused = ['mpi.admin', 'mpi.operations'].filter((scope) => !user.scopes.includes(scope));
      if (refused.length > 0) grant.rejectResourceScope(LOGIN_AUDIENCE, refused.join(' '));
      const grantId = await grant.save();
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: username }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(details.uid));
  };

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', issuer).pathname;
    if (path.startsWith('/interaction/')) {
      interaction(request, response, path).catch(() => {
        if (!response.headersSent) response.writeHead(500).end('interaction failed');
      });
      return;
    }
    void callback(request, response);
  });

  return {
    issuer,
    async serviceToken(clientId, scope) {
      const client = services.find((s) => s.clientId === clientId);
      if (client === undefined) throw new Error(`no client ${clientId}`);
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${client.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource: LOGIN_AUDIENCE }).toString(),
      });
      const body = (await response.json()) as { access_token?: string };
      if (response.status !== 200 || body.access_token === undefined)
        throw new Error(`token request failed: ${String(response.status)}`);
      return body.access_token;
    },
    async signIn(authorizationUrl, user) {
      const jar = new Map<string, string>();
      const cookieHeader = (): string => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const remember = (response: Response): void => {
        for (const line of response.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const at = pair.indexOf('=');
          jar.set(pair.slice(0, at), pair.slice(at + 1));
        }
      };
      let url = authorizationUrl;
      let init: RequestInit = {};
      for (let hop = 0; hop < 20; hop++) {
        // The redirect back to the console's loopback listener is where this browser-less login stops.
        if (!url.startsWith(issuer)) return url;
        const response = await fetch(url, {
          ...init,
          redirect: 'manual',
          headers: { ...(init.headers as Record<string, string> | undefined), cookie: cookieHeader() },
        });
        remember(response);
        const location = response.headers.get('location');
        if (location !== null) {
          url = new URL(location, url).href;
          init = {};
          continue;
        }
        const html = await response.text();
        const action = /action="([^"]+)"/.exec(html)?.[1];
        if (action === undefined) throw new Error(`the login ended at ${url} with ${String(response.status)}`);
        url = new URL(action, url).href;
        init = {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: user }).toString(),
        };
      }
      throw new Error('too many redirects in the login');
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
