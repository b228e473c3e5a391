// Lint with layering rules (VS Code style): each folder may import only from the layers below it.
//
//   renderer/        React UI: imports only engine/contract (types and browser-safe schemas) and console-protocol/
//   console-protocol/ the console's own operations and events (backend <-> pages): zod and engine/contract only
//   main/electron/   the only place that may import `electron`
//   main/            the Node side: CLI, registry API server, remote client, console backend, browser host;
//                    it reaches the engine through engine/index.ts (its front door), engine/host-side.ts (what a
//                    request thread uses without loading the engine), engine/benchmark/index.ts (the CLI's FEBRL
//                    loader), engine/threads/start-thread.ts (a thread started before the engine loads) and
//                    engine/contract only
//   engine/          plain TypeScript library: no Electron, UI or HTTP server shells
//     index.ts, operations/, local-engine.ts, benchmark/   the engine's top layer (what shells call)
//     everything else                            may not import the top layer
//     contract/                                  browser-safe: zod and itself only
//     contract/statistics/                       the metrics the console draws with: zod and each other only
//   better-sqlite3   only engine/store/db.ts (one owner for SQLite)
//   pg               only engine/store/pg/connection.ts and its io-thread.js (one owner for PostgreSQL)
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const electron = { name: 'electron', message: 'Only main/electron/ may import electron (layering rule).' };
const sqlite = {
  name: 'better-sqlite3',
  message: 'Only engine/store/db.ts opens SQLite (one owner for the connection).',
};
const postgres = {
  name: 'pg',
  message: 'Only engine/store/pg/connection.ts and its io-thread.js open PostgreSQL (one owner for the connection).',
};
const shellPackages = [
  'fastify',
  'fastify/*',
  '@fastify/*',
  'react',
  'react-dom',
  'react/*',
  'react-dom/*',
  '@mantine/*',
  'pino',
  'electron/*',
];
const engineNoShells = {
  group: ['**/main/**', '**/renderer/**', '**/console-protocol/**', ...shellPackages],
  message:
    'engine/ may not import main/, renderer/, console-protocol/ or a UI/HTTP-server/Electron package (layering rule).',
};
const engineNoTop = {
  group: [
    '**/operations/*',
    '**/local-engine.ts',
    '**/benchmark/*',
    '../operations/*',
    '../local-engine.ts',
    '../index.ts',
    '**/engine/index.ts',
  ],
  message:
    'Lower engine layers may not import engine/index.ts, engine/operations, engine/local-engine.ts or engine/benchmark (the top layer).',
};
// A regex, not a group: gitignore-style groups cannot re-include engine/index.ts and engine/contract once engine/ is excluded.
const mainThroughFrontDoor = {
  regex:
    '(^|/)engine/(?!index\\.ts$)(?!host-side\\.ts$)(?!benchmark/index\\.ts$)(?!threads/start-thread\\.ts$)(?!contract/)',
  message:
    'main/ reaches the engine through engine/index.ts (its front door), engine/host-side.ts (what a request thread uses without loading the engine), engine/benchmark/index.ts (the FEBRL loader), engine/threads/start-thread.ts (how a thread starts, before the engine loads) or engine/contract/ only: no import of engine internals.',
};

/** One no-restricted-imports rule per file group (a later config for the same files replaces the rule). */
const restrict = (paths, patterns) => ({ 'no-restricted-imports': ['error', { paths, patterns }] });

// The engine's floors, lowest first: a folder may import its own floor and those below, never one above (the top
// layer, operations/ and benchmark/, and the contract have their own rules). test/lint/layering.test.ts proves it.
const ENGINE_FLOORS = [
  ['text', 'stats', 'files', 'runs', 'net', 'telemetry', 'synthetic', 'threads'],
  ['fhir'],
  ['normalise'],
  ['comparators'],
  ['scoring'],
  ['blocking'],
  ['store'],
  ['config'],
  ['profile', 'fhir-source'],
  ['ingest'],
  ['jobs'],
  ['assurance'],
];
const floorOf = (folder) => ENGINE_FLOORS.findIndex((floor) => floor.includes(folder));
const engineFloor = (folder) => {
  const above = ENGINE_FLOORS.slice(floorOf(folder) + 1).flat();
  return {
    regex: `^(\\.\\./)+(${above.join('|')})/`,
    message: `engine/${folder}/ may not import a floor above it (${above.join(', ')}): the engine's floors run ${ENGINE_FLOORS.map((f) => f.join(' ')).join(' < ')}.`,
  };
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**', 'renderer/dist/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            '*.js',
            'main/cli/*.js',
            'main/browser-host/*.js',
            'engine/store/pg/*.js',
            'engine/threads/*.js',
            'main/electron/*.js',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // engine: the top layer (operations, local engine, benchmark loaders)
  {
    files: ['engine/**/*.ts', 'engine/**/*.js'],
    rules: restrict([electron, sqlite, postgres], [engineNoShells]),
  },
  // engine: every lower layer
  {
    files: ['engine/**/*.ts'],
    ignores: [
      'engine/index.ts',
      'engine/operations/**',
      'engine/local-engine.ts',
      'engine/benchmark/**',
      'engine/store/db.ts',
      'engine/store/migrate.ts',
      'engine/store/pg/connection.ts',
      'engine/store/pg/io-thread.js',
    ],
    rules: restrict([electron, sqlite, postgres], [engineNoShells, engineNoTop]),
  },
  // engine: each floor imports only its own floor and those below
  ...ENGINE_FLOORS.flat().map((folder) => ({
    files: [`engine/${folder}/**/*.ts`],
    ignores: [
      'engine/store/db.ts',
      'engine/store/migrate.ts',
      'engine/store/pg/connection.ts',
      'engine/store/pg/io-thread.js',
    ],
    rules: restrict([electron, sqlite, postgres], [engineNoShells, engineNoTop, engineFloor(folder)]),
  })),
  // the store's connection modules own their drivers
  {
    files: ['engine/store/db.ts', 'engine/store/migrate.ts'],
    rules: restrict([electron, postgres], [engineNoShells, engineNoTop, engineFloor('store')]),
  },
  {
    files: ['engine/store/pg/connection.ts', 'engine/store/pg/io-thread.js'],
    rules: restrict([electron, sqlite], [engineNoShells, engineNoTop, engineFloor('store')]),
  },
  // the contract is shared with the renderer: zod and itself only
  {
    files: ['engine/contract/**/*.ts'],
    rules: restrict(
      [electron, sqlite, postgres],
      [
        engineNoShells,
        {
          group: ['node:*', '../*', '!../contract/*'],
          message: 'engine/contract/ is browser-safe: it may import only zod and other contract modules.',
        },
      ],
    ),
  },
  // the statistics the contract's reports and the console's curves share: nothing above them
  {
    files: ['engine/contract/statistics/**/*.ts'],
    rules: restrict(
      [electron, sqlite, postgres],
      [
        engineNoShells,
        {
          group: ['node:*', '../*'],
          message:
            'engine/contract/statistics/ may import only zod and other statistics modules (the reports build on it, not the reverse).',
        },
      ],
    ),
  },
  // the console's protocol is shared with the renderer: zod and the contract only
  {
    files: ['console-protocol/**/*.ts'],
    rules: restrict(
      [electron, sqlite, postgres],
      [
        {
          group: ['node:*', '**/main/**', '**/renderer/**', ...shellPackages],
          message: 'console-protocol/ is browser-safe: it may import only zod and engine/contract.',
        },
        { regex: '(^|/)engine/(?!contract/)', message: 'console-protocol/ may import only zod and engine/contract.' },
      ],
    ),
  },
  // main: everything but the Electron adapter is plain Node
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: restrict(
      [electron, sqlite, postgres],
      [
        { group: ['**/renderer/**'], message: 'main/ may not import renderer/ (it serves the built files).' },
        mainThroughFrontDoor,
      ],
    ),
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: restrict(
      [sqlite, postgres],
      [
        { group: ['**/renderer/**'], message: 'main/ may not import renderer/ (it serves the built files).' },
        mainThroughFrontDoor,
      ],
    ),
  },
  // renderer: the contract only, never Node, main/ or the rest of the engine
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: restrict(
      [electron, sqlite, postgres],
      [
        {
          group: ['node:*', '**/main/**'],
          message: 'renderer/ runs in the browser: no Node modules and no main/ (layering rule).',
        },
        // A regex, not a group: gitignore-style groups cannot re-include engine/contract once engine/ is excluded.
        {
          regex: '(^|/)engine/(?!contract/)',
          message: 'renderer/ may import only engine/contract and console-protocol/ (layering rule).',
        },
      ],
    ),
  },
  // tests may reach everything but Electron (which cannot run here) and the SQLite driver (one owner)
  {
    files: ['test/**/*.ts'],
    rules: restrict(
      [
        { ...electron, message: 'Tests never import electron: the binary cannot run here.' },
        sqlite,
        postgres,
        ...['node:fs', 'fs'].map((name) => ({
          name,
          importNames: ['mkdtempSync', 'mkdtemp'],
          message: 'Make temporary folders with test/helpers/temp.ts (tempDir, suiteDir or scratchDir): one helper.',
        })),
      ],
      [],
    ),
  },
  {
    files: ['test/helpers/temp.ts'],
    rules: restrict([{ ...electron, message: 'Tests never import electron: the binary cannot run here.' }], []),
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
