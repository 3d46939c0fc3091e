import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layout's import rules (see README "Layout"): imports point one way,
 * cli → app → pipeline/queue/store/sources/metrics/server → client/engine/llm → backend → contract/errors/common,
 * nothing imports cli, the engine never imports the client, and only src/config reads the environment.
 * A wrong import fails `npm test`.
 */
const room = (name) => [`../${name}/*`, `../../${name}/*`, `../../../${name}/*`, `./${name}/*`];
const forbid = (names, message) => ({ group: names.flatMap(room), message });
const NETWORK = ['undici', 'node:http', 'node:https', 'node:net', 'node:dgram', 'node:tls'].map((name) => ({
  name,
  message: 'the engine converts bytes it is given: no network (the json format calls a model through src/llm, injected)',
}));
const boundary = (files, patterns, paths = []) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns, paths }] },
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'out/**', 'coverage/**', 'examples/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly',
        clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly',
        AbortController: 'readonly', AbortSignal: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Nothing below the CLI imports it; only the composition root (app/) and the CLI build pipelines.
  boundary(['src/**/*.ts', 'workers/**/*.ts'], [forbid(['cli'], 'nothing imports the CLI: it is the outermost layer')]),
  boundary(
    ['src/{pipeline,queue,store,sources,metrics,server,client,engine,llm,backend,contract,errors,common,config,logging}/**/*.ts', 'workers/**/*.ts'],
    [forbid(['cli', 'app'], 'only the CLI imports the composition root (src/app)')],
  ),
  boundary(
    ['src/engine/**/*.ts'],
    [forbid(['cli', 'app', 'client', 'pipeline', 'queue', 'store', 'sources', 'server', 'metrics', 'llm', 'config'], 'the engine depends only on backend, contract, errors and common')],
    NETWORK,
  ),
  boundary(
    ['src/client/**/*.ts'],
    [forbid(['cli', 'app', 'engine', 'pipeline', 'queue', 'store', 'sources', 'server', 'metrics', 'llm'], 'the remote client depends only on backend, contract, errors and logging')],
  ),
  boundary(
    ['src/backend/**/*.ts'],
    [forbid(['cli', 'app', 'client', 'engine', 'pipeline', 'queue', 'store', 'sources', 'server', 'metrics', 'llm', 'config'], 'the backend port depends only on contract and errors')],
  ),
  boundary(
    ['src/contract/**/*.ts'],
    [forbid(['cli', 'app', 'client', 'engine', 'backend', 'pipeline', 'queue', 'store', 'sources', 'server', 'metrics', 'llm', 'config', 'logging'], 'the contract depends on nothing else in docmill')],
  ),
  boundary(
    ['src/chunk/**/*.ts'],
    [forbid(['cli', 'app', 'client', 'engine', 'backend', 'pipeline', 'queue', 'store', 'sources', 'server', 'metrics', 'llm', 'config', 'logging'], 'the chunker is pure: it depends only on contract, errors and common')],
    [...NETWORK, 'node:fs', 'node:fs/promises'].map((entry) =>
      typeof entry === 'string' ? { name: entry, message: 'the chunker is pure: no I/O' } : { ...entry, message: 'the chunker is pure: no I/O' },
    ),
  ),
  boundary(
    ['src/sources/**/*.ts'],
    [forbid(['cli', 'app', 'store', 'pipeline', 'queue', 'engine', 'client', 'server'], 'sources list and read files; they know nothing of stores, queues or parsing')],
  ),
  boundary(
    ['src/store/**/*.ts'],
    [forbid(['cli', 'app', 'sources', 'pipeline', 'queue', 'engine', 'client', 'server'], 'stores write outputs; they know nothing of sources, queues or parsing')],
  ),
  // Only src/config reads the environment (the CLI's entry point hands process.env to it).
  {
    files: ['src/**/*.ts', 'workers/**/*.ts'],
    ignores: ['src/config/**', 'src/cli/main.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'read the environment in src/config (readEnvironment) and pass settings down',
        },
      ],
    },
  },
);
