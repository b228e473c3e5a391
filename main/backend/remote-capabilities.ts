/**
 * What a remote connection offers: an operation is offered when the registry has a route for it, the
 * registry lists it (spec endpoints always; extensions when its OpenAPI document lists them) and the token
 * was granted the route's scope. The route table is the registry's own rule, so the console offers exactly
 * what the registry would accept: `mpi.operations` alone reads jobs and profiles, nothing else.
 */
import { HTTP_ROUTES, type HttpRoute } from '../../engine/contract/http.ts';
import type { Capabilities } from '../../engine/contract/console.ts';
import type { OperationName } from '../../engine/contract/operations.ts';

export function remoteCapabilities(grantedScopes: Iterable<string>, offered: ReadonlySet<OperationName>, routes: readonly HttpRoute[] = HTTP_ROUTES): Capabilities {
  const scopes = [...new Set(grantedScopes)].sort();
  const operations = routes.filter((route) => offered.has(route.operation) && scopes.includes(route.scope)).map((route) => route.operation);
  return { operations, scopes };
}
