// Lint with a layering rule: engine/ is a plain Node library and may not reach into the desktop shell.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const engineForbidden = {
  paths: [{ name: 'electron', message: 'engine/ must not depend on Electron (layering rule).' }],
  patterns: [
    { group: ['**/main/**', '**/renderer/**', 'electron/*'], message: 'engine/ may not import main/ or renderer/ (layering rule).' },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'engine/cli/*.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['engine/**/*.ts', 'engine/**/*.js'],
    rules: { 'no-restricted-imports': ['error', engineForbidden] },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // One owner for SQLite: only the store's connection module may import the driver.
    files: ['engine/**/*.ts', 'test/**/*.ts'],
    ignores: ['engine/store/db.ts', 'engine/store/migrate.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...engineForbidden,
          paths: [...engineForbidden.paths, { name: 'better-sqlite3', message: 'Only engine/store/db.ts opens SQLite (one owner for the connection).' }],
        },
      ],
    },
  },
);
