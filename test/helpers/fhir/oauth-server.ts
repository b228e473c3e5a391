/**
 * A real OAuth 2.0 authorization server on loopback: oidc-provider 9 over node:https (the test CA), with the
 * client credentials grant and resource indicators, so its access tokens are JWTs (ES256) for the FHIR
 * server's audience with the granted scope. The FHIR server checks them with `verifier()`: signature,
 * issuer, audience, expiry and scope. It counts the tokens it issued.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';
import Provider from 'oidc-provider';
import type { TestTls } from './test-ca.ts';

export const FHIR_SCOPE = 'system/Patient.read';

export interface OAuthServer {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  readonly audience: string;
  /** Access tokens issued so far. */
  tokensIssued(): number;
  /** Resolves when the token is valid for the FHIR server (issuer, audience, scope); rejects otherwise. */
  verify(token: string): Promise<void>;
  close(): Promise<void>;
}

export interface OAuthOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly audience: string;
  readonly tokenTtlSeconds?: number;
}

export async function startOAuthServer(tls: TestTls, options: OAuthOptions): Promise<OAuthServer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig', kid: 'test-key' } as JWK;
  const publicJwk = { ...(await exportJWK(publicKey)), alg: 'ES256', use: 'sig', kid: 'test-key' } as JWK;
  const server: Server = createServer({ key: tls.key, cert: tls.cert });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `https://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  let issued = 0;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_post',
        id_token_signed_response_alg: 'ES256',
        scope: FHIR_SCOPE,
      },
    ],
    scopes: [FHIR_SCOPE],
    jwks: { keys: [privateJwk] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: FHIR_SCOPE,
          audience: options.audience,
          accessTokenTTL: options.tokenTtlSeconds ?? 300,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
  });
  provider.on('client_credentials.issued', () => {
    issued++;
  });
  const callback = provider.callback();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    void callback(request, response);
  });
  const jwks = createLocalJWKSet({ keys: [publicJwk] });
  return {
    issuer,
    tokenEndpoint: `${issuer}/token`,
    audience: options.audience,
    tokensIssued: () => issued,
    async verify(token) {
      const { payload } = await jwtVerify(token, jwks, { issuer, audience: options.audience });
      const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
      if (!scopes.includes(FHIR_SCOPE)) throw new Error('scope missing');
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
