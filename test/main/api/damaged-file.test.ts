/**
 * A registry whose database file is damaged, served: the client reads the engine's words (not "failed unexpectedly"),
 * and the operator, who alone can restore the file, finds the same words in the server's log.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { registryWithOneCase } from '../../helpers/registry.ts';
import { devTokenFor, serveApi, type ServedApi } from '../../helpers/api.ts';
import { damageTable } from '../../helpers/damage.ts';
import { scratchDir } from '../../helpers/temp.ts';

const DAMAGED =
  "the registry's database file is damaged (SQLITE_CORRUPT); trying again will not mend it: stop using it and restore it from a backup (a sandbox can be created again)";

describe('a damaged registry file, served', () => {
  const { dir, cleanup } = scratchDir('mpi-api-damaged-');
  let engine: LocalEngine;
  let api: ServedApi;
  let token = '';

  beforeAll(async () => {
    (await registryWithOneCase(dir)).engine.close();
    damageTable(join(dir, 'registry.db'), 'review_case');
    engine = LocalEngine.open({ dbPath: join(dir, 'registry.db') });
    api = await serveApi(engine);
    token = await devTokenFor(engine, ['mpi.admin']);
  });
  afterAll(async () => {
    await api.stop();
    engine.close();
    cleanup();
  });

  it('answers 500 with what to do, and logs the same words with the request', async () => {
    const answer = await request(`${api.url}/api/v1/review-cases`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.statusCode).toBe(500);
    const problem = (await answer.body.json()) as { detail?: string; kind?: string };
    expect(problem).toMatchObject({ kind: 'internal', detail: DAMAGED });
    const logged = api.logs.lines
      .map((l) => JSON.parse(l) as { msg?: string; error?: { detail?: string } })
      .filter((l) => l.msg === 'internal failure');
    expect(logged.map((l) => l.error?.detail)).toEqual([DAMAGED]);
    expect(api.logs.text).not.toContain(dir);
  });
});
