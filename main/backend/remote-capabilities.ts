/**
 * What a remote connection offers: an operation is offered when the registry has a route for it, the
 * registry lists it (spec endpoints always; extensions when its OpenAPI document lists them) and the token
 * was granted the route's scope. The route table is the registry's own rule, so the console offers exactly
 * what the registry would accept: `mpi.operations` alone reads jobs and profiles, nothing else. Where the registry
 * offers runs, every run operation is offered through them (the remote client sends it as a run).
 */
import { HTTP_ROUTES, type HttpRoute } from '../net/api-routes.ts';
import type { Capabilities } from '../../console-protocol/protocol.ts';
import type { OperationName } from '../../engine/contract/operations.ts';
import { RUN_OPERATIONS } from '../../engine/contract/runs.ts';

export function remoteCapabilities(
  grantedScopes: Iterable<string>,
  offered: ReadonlySet<OperationName>,
  routes: readonly HttpRoute[] = HTTP_ROUTES,
): Capabilities {
  const scopes = [...new Set(grantedScopes)].sort();
  const operations = routes
    .filter((route) => offered.has(route.operation) && scopes.includes(route.scope))
    .map((route) => route.operation);
  // A run operation without a route of its own (the workbench's candidate draw) goes as a run where runs are offered.
  const runs = routes.find((route) => route.operation === 'runs/start');
  if (runs !== undefined && operations.includes('runs/start')) {
    for (const operation of RUN_OPERATIONS) if (!operations.includes(operation)) operations.push(operation);
  }
  return { operations, scopes };
}
