import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The layout's import rules: imports point one way,
 * cli → app → pipeline/queue/store/sources/metrics/server → client/engine/llm → backend → contract/errors/common,
 * nothing imports cli, the engine never imports the client, only src/config reads the environment, and no module
 * reaches itself through its imports (import-x/no-cycle). A wrong import fails `npm run lint`.
 *
 * Two mechanisms: `no-restricted-imports` patterns on the import text (fast, no resolution), and for the arrows that
 * must hold whatever the path's spelling or depth, dynamic `import()` included, `import-x/no-restricted-paths` zones
 * on the file each import resolves to (the CLI's allowlist, the engine, config).
 */
const REPO = fileURLToPath(new URL('.', import.meta.url));
const room = (name) => [`../${name}/*`, `../../${name}/*`, `../../../${name}/*`, `../../../../${name}/*`, `./${name}/*`];
const forbid = (names, message) => ({ group: names.flatMap(room), message });
const NETWORK = ['undici', 'node:http', 'node:https', 'node:net', 'node:dgram', 'node:tls'].map((name) => ({
  name,
  message: 'the engine converts bytes it is given: no network (the json format calls a model through src/llm, injected)',
}));
const boundary = (files, patterns, paths = []) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns, paths }] },
});
const rooms = (names) => names.map((name) => `./src/${name}`);
/** Path-resolved arrows: files in `target` may not import files in `from` (except those in `except`, below `from`). */
const ZONES = [
  {
    target: './src/cli',
    from: './src',
    except: ['./cli', './app'],
    message: 'the CLI imports only the app layer (src/app): move what it needs behind it',
  },
  { target: './src/cli', from: './workers', message: 'the CLI imports only the app layer (src/app): move what it needs behind it' },
  {
    target: './src/engine',
    from: [...rooms(['cli', 'app', 'client', 'pipeline', 'queue', 'store', 'sources', 'server', 'metrics', 'llm', 'config']), './src/index.ts'],
    message: 'the engine depends only on backend, contract, errors and common',
  },
  {
    target: './src/config',
    from: rooms(['llm', 'engine', 'client', 'pipeline', 'queue', 'store', 'sources', 'server', 'metrics', 'chunk']),
    message: 'config reads and checks settings: it imports no LLM, engine, client or pipeline code',
  },
];

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
  // Nothing below the CLI imports it; only the entry points (the CLI, src/index.ts, workers/) use the composition root.
  boundary(['src/**/*.ts', 'workers/**/*.ts'], [forbid(['cli'], 'nothing imports the CLI: it is the outermost layer')]),
  boundary(
    ['src/{pipeline,queue,store,sources,metrics,server,client,engine,llm,backend,contract,errors,common,config,logging}/**/*.ts'],
    [forbid(['cli', 'app'], 'only the entry points (the CLI, src/index.ts, workers/) import the composition root (src/app)')],
  ),
  // The engine's rooms are a zone (ZONES); the network is a package name.
  boundary(['src/engine/**/*.ts'], [], NETWORK),
  // The CLI's own files, src/app (a zone), node: modules and commander: no other package.
  boundary(
    ['src/cli/**/*.ts'],
    [{ regex: '^(?!node:|commander$|\\.)', message: 'the CLI imports only the app layer (src/app), node: modules and commander' }],
  ),
  {
    files: ['src/**/*.ts', 'workers/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // `./x.js` in the sources is `./x.ts`; import-x reads .ts files with typescript-eslint's parser.
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: REPO, zones: ZONES }],
      // Value imports only: `import type` is erased from the build, so import-x does not follow it.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
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
