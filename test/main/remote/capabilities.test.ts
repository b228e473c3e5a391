/** Granted scopes → what the console offers, from the registry's own route table; and the claims the console reads. */
import { describe, expect, it } from 'vitest';
import { SignJWT, generateKeyPair } from 'jose';
import { HTTP_ROUTES, SPEC_OPERATIONS } from '../../../main/net/api-routes.ts';
import type { OperationName } from '../../../engine/contract/operations.ts';
import { remoteCapabilities } from '../../../main/backend/remote-capabilities.ts';
import { isExpired, tokenClaims } from '../../../main/backend/token-claims.ts';

const ALL_OFFERED = new Set<OperationName>(HTTP_ROUTES.map((route) => route.operation));

describe('scopes → capabilities', () => {
  it('mpi.operations alone: watch jobs, read profiles and health figures (counts), nothing that starts, cancels or reads evidence', () => {
    const { operations, scopes } = remoteCapabilities(['mpi.operations'], ALL_OFFERED);
    expect(scopes).toEqual(['mpi.operations']);
    expect(operations.sort()).toEqual(['health/series', 'jobs/get', 'jobs/list', 'profile/get', 'profile/summary']);
  });

  it('mpi.admin and mpi.operations: every route of the registry, and every run operation through runs', () => {
    expect(remoteCapabilities(['mpi.operations', 'mpi.admin', 'openid'], ALL_OFFERED).operations.sort()).toEqual(
      [...ALL_OFFERED, 'labels/candidates'].sort(),
    );
    // Without runs, an operation without a route of its own is not offered.
    const withoutRuns = new Set([...ALL_OFFERED].filter((name) => !name.startsWith('runs/')));
    expect(remoteCapabilities(['mpi.operations', 'mpi.admin'], withoutRuns).operations).not.toContain(
      'labels/candidates',
    );
  });

  it('mpi.admin alone: the state changes but not the reads that need mpi.operations', () => {
    const { operations } = remoteCapabilities(['mpi.admin'], ALL_OFFERED);
    expect(operations).toContain('maintenance/reindex');
    expect(operations).toContain('jobs/cancel');
    expect(operations).not.toContain('jobs/get');
  });

  it('a registry with only the spec endpoints: no job list even with mpi.operations (jobs are then remembered by the console)', () => {
    expect(remoteCapabilities(['mpi.operations'], SPEC_OPERATIONS).operations).toEqual(['jobs/get']);
  });

  it('no registry scope: nothing; local-only operations are never offered remotely', () => {
    expect(remoteCapabilities(['openid', 'profile'], ALL_OFFERED).operations).toEqual([]);
    expect(remoteCapabilities(['mpi.admin', 'mpi.operations'], ALL_OFFERED).operations).not.toContain('sandbox/create');
  });
});

describe('token claims', () => {
  const sign = async (claims: Record<string, unknown>, exp: number): Promise<string> => {
    const { privateKey } = await generateKeyPair('ES256');
    return new SignJWT(claims).setProtectedHeader({ alg: 'ES256' }).setExpirationTime(exp).sign(privateKey);
  };

  it('reads tenant, actor (client_id, else azp, else sub), scopes (scope or scp) and expiry', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    expect(
      tokenClaims(
        await sign({ mpi_tenant: 't1', sub: 'alice', azp: 'mpi-console', scope: 'mpi.operations openid' }, exp),
      ),
    ).toEqual({
      tenantId: 't1',
      actor: 'mpi-console',
      scopes: ['mpi.operations', 'openid'],
      expiresAt: exp,
    });
    expect(tokenClaims(await sign({ mpi_tenant: 't2', sub: 'svc', scp: ['mpi.admin'] }, exp))).toMatchObject({
      actor: 'svc',
      scopes: ['mpi.admin'],
    });
  });

  it('refuses a token without a tenant claim, and one that is not a JWT, naming what is missing', async () => {
    expect(() => tokenClaims('opaque-token-value')).toThrow(/not a JWT/);
    expect(() => tokenClaims('x.y.z')).toThrow(/not a JWT/);
    await expect(sign({ sub: 'a' }, 1e10).then(tokenClaims)).rejects.toThrow(/no tenant claim \(mpi_tenant\)/);
  });

  it('knows an expired token', async () => {
    const token = await sign({ mpi_tenant: 't1', sub: 'a' }, 1000);
    expect(isExpired(tokenClaims(token))).toBe(true);
    expect(isExpired(tokenClaims(token), 999)).toBe(false);
  });
});
