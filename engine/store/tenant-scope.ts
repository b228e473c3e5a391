/**
 * The tenant an engine call acts for, carried across its awaits (AsyncLocalStorage). The PostgreSQL store gives it
 * to the database before each statement, and the database's row-level security checks every row against it; a
 * statement made outside any tenant's call is refused there. SQLite ignores it: its queries filter by tenant
 * themselves, as they do on both stores.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/** Runs fn (and everything it awaits) on behalf of tenantId. */
export function withTenant<T>(tenantId: string, fn: () => T): T {
  return scope.run(tenantId, fn);
}

/** The tenant of the call in progress, or undefined outside any. */
export function currentTenant(): string | undefined {
  return scope.getStore();
}

/**
 * An engine entry point that shells call directly (not through LocalEngine.call), run on behalf of the tenant of
 * its call context, its second argument.
 */
export function inCallTenant<E, C extends { readonly tenantId: string }, A extends unknown[], R>(
  fn: (env: E, ctx: C, ...rest: A) => R,
): (env: E, ctx: C, ...rest: A) => R {
  return (env, ctx, ...rest) => scope.run(ctx.tenantId, () => fn(env, ctx, ...rest));
}
