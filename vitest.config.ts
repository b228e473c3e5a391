import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    // Test files share their worker's modules rather than each loading the engine again (235 s of module loading in
    // a full run came down to 37 s, the run from 1,165 to 945 s). Every file opens its own registries, servers and
    // folders and closes them, so no state is meant to pass between files; a run in shuffled order checks it.
    isolate: false,
    // Limits catch a hang, never measure speed (npm run bench does): a machine three times slower than the one a
    // test was written on must still pass it. Tests that need longer say so; none sets a shorter limit.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    projects: [
      // A throwaway PostgreSQL cluster for the tests of the PostgreSQL store (test/helpers/postgres/cluster.ts).
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          globalSetup: ['test/helpers/postgres/global-setup.ts', 'test/helpers/javascript-build.ts'],
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
