// Flat config: correctness rules only (Prettier owns formatting), type-aware promise and switch rules
// for src-*, React hooks rules for the renderer, plus the folder boundaries of ARCHITECTURE §1 and the
// pure engines of §3, enforced with no-restricted-imports per folder.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { layersRule } from './scripts/lint/layers-rule.js';

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

/** Renderer test code: component tests, their fake core and helpers; `*.real.*` also reach the real core. */
const rendererRealFiles = ['src-renderer/**/*.real.{ts,tsx}', 'src-renderer/**/*.real.test.{ts,tsx}'];
const rendererTestFiles = ['src-renderer/**/*.test.{ts,tsx}', 'src-renderer/testing/**', ...rendererRealFiles];

/** What src-renderer may import: never Node or Electron; tests may use testing/; real-core tests, src-main/testing/. */
function rendererImports({ tests, realCore = false }) {
  const browser = `src-renderer runs in the browser. ${nodeMessage}`;
  return {
    names: [
      ...builtinNames(browser),
      { name: 'electron', message: `${electronMessage} The renderer talks to the core through window.leeway.` },
      { name: 'better-sqlite3', message: 'The renderer never touches the database.' },
    ],
    patterns: [
      { regex: nodeBuiltins.regex, message: browser },
      { regex: '^electron/', message: electronMessage },
      realCore
        ? {
            regex: '^(\\.{1,2}/)+(.*/)?src-main(/(?!testing/)|$)',
            message: 'A *.real test reaches the core only through src-main/testing (renderer-core.ts).',
          }
        : {
            regex: importsOf('src-main'),
            message: 'src-renderer must not import src-main; use the contract in src-shared.',
          },
      ...(tests
        ? []
        : [
            {
              regex: importsOf('testing'),
              message: 'Production renderer code must not import test helpers (testing/).',
            },
            { regex: '\\.real(\\.test)?$', message: 'Production renderer code must not import *.real test code.' },
          ]),
    ],
  };
}
const sourceFiles = ['src-main/**/*.{ts,tsx}', 'src-shared/**/*.{ts,tsx}', 'src-renderer/**/*.{ts,tsx}'];
const nodeMessage = 'Node built-ins belong in src-main.';
const electronMessage = "Only src-main/shell may import 'electron'.";

const mainImports = {
  names: [{ name: 'electron', message: `${electronMessage} Everything else must run in plain Node.` }],
  patterns: [
    { regex: '^electron/', message: electronMessage },
    { regex: importsOf('src-renderer'), message: 'src-main must not import src-renderer.' },
  ],
};

/** Pure engine folders (ARCHITECTURE §3): plain data in, decisions out; the proxy and repos do the I/O. */
const engineFolders = [
  'src-main/resilience/{breaker,classify,cooldown,lockout,window-gate}',
  'src-main/resilience/cooldown-wait',
  'src-main/resilience/egress/engine',
  'src-main/resilience/queue/engine',
  'src-main/resilience/watchdog',
  'src-main/routing/{affinity,leases,routes,strategies}',
  'src-main/providers/claude-oauth/{lane,reset}',
  'src-main/quota/engine',
];
const engineMessage = 'Engines are pure (ARCHITECTURE §3): no I/O imports; inject it from the caller.';

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
    // Type-aware rules (ARCHITECTURE §8: exhaustive switches; no promise dropped by accident). The
    // project service finds each file's tsconfig (node, preload or web) through tsconfig.json.
    files: sourceFiles,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        {
          // A union switch without `default` must name every member; a deliberate `default` (e.g. on
          // a `string | null` code) counts as handling the rest.
          considerDefaultExhaustiveForUnions: true,
          // A `default` after all members (an assertNever-style guard) is allowed.
          allowDefaultCaseForExhaustiveSwitch: true,
          // A switch over a plain string or number needs no `default`.
          requireDefaultForNonUnion: false,
        },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
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
    // Production renderer code: the browser, the contract, and nothing made for tests.
    files: ['src-renderer/**/*.{ts,tsx}'],
    ignores: rendererTestFiles,
    rules: { 'no-restricted-imports': restrict(rendererImports({ tests: false })) },
  },
  {
    // Component tests and their fake core (src-renderer/testing/): still browser code, never the core.
    files: rendererTestFiles,
    ignores: rendererRealFiles,
    rules: { 'no-restricted-imports': restrict(rendererImports({ tests: true })) },
  },
  {
    // `*.real.*`: the behaviour-heavy flows against the core's real handlers, built by
    // src-main/testing/renderer-core.ts. They alone cross into src-main, and only into its testing/.
    files: rendererRealFiles,
    rules: { 'no-restricted-imports': restrict(rendererImports({ tests: true, realCore: true })) },
  },
  {
    files: ['src-main/**/*.{ts,tsx}'],
    ignores: ['src-main/shell/**', ...engineFolders.map((folder) => `${folder}/**`)],
    rules: { 'no-restricted-imports': restrict(mainImports) },
  },
  {
    // The src-main rules plus no I/O. A helper that does I/O by design lives beside the folder, not in
    // it (providers/claude-oauth/undici-fetch-json.ts is the FetchJson that reset/ gets injected).
    files: engineFolders.map((folder) => `${folder}/**/*.{ts,tsx}`),
    rules: {
      'no-restricted-imports': restrict({
        names: [
          ...mainImports.names,
          ...builtinNames(engineMessage),
          { name: 'undici', message: engineMessage },
          { name: 'better-sqlite3', message: engineMessage },
        ],
        patterns: [
          ...mainImports.patterns,
          { regex: nodeBuiltins.regex, message: engineMessage },
          { regex: '^undici/', message: engineMessage },
          { regex: importsOf('db'), message: `${engineMessage} SQLite stays behind the repositories in src-main/db.` },
        ],
      }),
    },
  },
  {
    // Issue 22: the folders' order, bottom up, from src-main/layers.json (test code is exempt).
    files: ['src-main/**/*.{ts,tsx}'],
    plugins: { leeway: { rules: { layers: layersRule } } },
    rules: { 'leeway/layers': 'error' },
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
