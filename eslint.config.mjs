// ESLint: typescript-eslint's recommended rules, no import cycles, the layout's one-way arrows
// (docs/architecture.md), and lines of at most 120 characters. Prettier does the formatting.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const FS = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'];

export default tseslint.config(
  { ignores: ['dist/', 'out/', '.cache/', 'node_modules/', '**/*.cjs', 'docs/grammar.html', 'test/screenshots/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['**/*.ts', '**/*.mjs'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server/src/engine',
              from: './server/src',
              except: ['./engine'],
              message: 'the engine is pure: it imports only engine/',
            },
            {
              target: './client',
              from: './server/src',
              except: ['./protocol'],
              message: 'the client imports only the server protocol',
            },
            {
              target: './webview',
              from: './server/src',
              except: ['./protocol'],
              message: 'the webview imports only the server protocol',
            },
            { target: './server/src', from: './client' },
            { target: './server/src', from: './webview' },
          ],
        },
      ],
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.mjs', 'bench/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Confinement: only workspace/ (and the CLI) touch the file system.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/workspace/**', 'server/src/cli/**', 'server/src/cli.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: FS.map((name) => ({
            name,
            message: 'read files through server/src/workspace (confinement lives there)',
          })),
        },
      ],
    },
  },
);
