/**
 * Once per test run, for the tests that need PostgreSQL: a throwaway cluster on a free loopback port (cluster.ts),
 * stopped and removed at the end. Each test file makes its own database in it (database.ts).
 */
import type { TestProject } from 'vitest/node';
import { startCluster } from './cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresAppRole: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startCluster();
  project.provide('postgresUrl', cluster.url);
  project.provide('postgresAppRole', cluster.appRole);
  return () => {
    cluster.stop();
  };
}
