// The part of oidc-provider (which ships no types) that the test identity provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export default class Provider {
    constructor(issuer: string, configuration?: Record<string, unknown>);
    callback(): (request: IncomingMessage, response: ServerResponse) => Promise<void>;
  }
}
