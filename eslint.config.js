// Flat config: correctness rules only (Prettier owns formatting) plus the folder boundaries of
// ARCHITECTURE §1, enforced with no-restricted-imports per runtime folder.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const nodeBuiltins = {
  paths: builtinModules.filter((name) => !name.startsWith('_')),
  regex: '^node:',
};

const importsOf = (folder) => `^(\\.{1,2}/)+(.*/)?${folder}(/|$)`;

/** One no-restricted-imports rule from exact module names and regex patterns. */
function restrict({ names = [], patterns = [] }) {
  return [
    'error',
    {
      paths: names.map(({ name, message }) => ({ name, message })),
      patterns: patterns.map(({ regex, message }) => ({ regex, message })),
    },
  ];
}

const builtinNames = (message) => nodeBuiltins.paths.map((name) => ({ name, message }));
const nodeMessage = 'Node built-ins belong in src-main.';
const electronMessage = "Only src-main/shell may import 'electron'.";

const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'queueMicrotask',
    'structuredClone',
    'fetch',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
  ].map((name) => [name, 'readonly']),
);

export default defineConfig(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'e2e/artifacts/**',
      'test-results/**',
      '.bench/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: nodeGlobals },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    files: ['src-shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict({
        patterns: [
          {
            regex: '^(?![./])(?!zod(/|$))',
            message:
              'src-shared is pure TypeScript: it may import only zod and other src-shared files (no Node, electron, react).',
          },
          { regex: importsOf('src-main'), message: 'src-shared must not import src-main.' },
          { regex: importsOf('src-renderer'), message: 'src-shared must not import src-renderer.' },
        ],
      }),
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict({
        names: [
          ...builtinNames(`src-renderer runs in the browser. ${nodeMessage}`),
          { name: 'electron', message: `${electronMessage} The renderer talks to the core through window.headroom.` },
          { name: 'better-sqlite3', message: 'The renderer never touches the database.' },
        ],
        patterns: [
          { regex: nodeBuiltins.regex, message: `src-renderer runs in the browser. ${nodeMessage}` },
          { regex: '^electron/', message: electronMessage },
          {
            regex: importsOf('src-main'),
            message: 'src-renderer must not import src-main; use the contract in src-shared.',
          },
        ],
      }),
    },
  },
  {
    files: ['src-main/**/*.{ts,tsx}'],
    ignores: ['src-main/shell/**'],
    rules: {
      'no-restricted-imports': restrict({
        names: [{ name: 'electron', message: `${electronMessage} Everything else must run in plain Node.` }],
        patterns: [
          { regex: '^electron/', message: electronMessage },
          { regex: importsOf('src-renderer'), message: 'src-main must not import src-renderer.' },
        ],
      }),
    },
  },
  {
    files: ['src-main/shell/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict({
        patterns: [{ regex: importsOf('src-renderer'), message: 'src-main must not import src-renderer.' }],
      }),
    },
  },
);
