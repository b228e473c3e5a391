import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      // A throwaway PostgreSQL cluster for the tests of the PostgreSQL store (test/helpers/postgres/cluster.ts).
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          globalSetup: ['test/helpers/postgres/global-setup.ts'],
        },
      },
      // Browser and packaging tests: the renderer is built once and one Chromium is shared by every file.
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/e2e/global-setup.ts'] },
      },
    ],
  },
});
