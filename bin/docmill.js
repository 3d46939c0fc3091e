#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, run by `prepare` on npm ci).
import { existsSync } from 'node:fs';
import nodeModule from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('docmill: dist/ is missing; run `npm run build` (npm ci does it for you).\n');
  process.exit(2);
}

// The allocator's and the young generation's settings (src/cli/launcher-settings.ts) must be in place when the
// process starts: when the user set neither, the launcher becomes a node started with what is missing (execve keeps
// the pid, the descriptors and the arguments; Node 22.15 and later have it).
const { launcherSettings } = await import(new URL('../dist/src/cli/launcher-settings.js', import.meta.url).href);
const restart = launcherSettings(process.env, process.execArgv);
if (restart) process.execve(process.execPath, [process.execPath, ...restart.options, ...process.argv.slice(1)], restart.env);

// V8's compiled code of the modules kept on disk from one run to the next (Node 22.8 and later): `run` of 10 small pages
// 0.80 → 0.75 s, CPU 1.34 → 1.24 s (Node 24, medians of 9; BENCHMARKS.md §15). In the user's cache folder, not the shared
// temporary one, where another user could put entries of their own. NODE_COMPILE_CACHE or NODE_DISABLE_COMPILE_CACHE,
// when set, decide instead; a folder that cannot be made leaves it off, silently.
if (typeof nodeModule.enableCompileCache === 'function' && process.env.NODE_COMPILE_CACHE === undefined) {
  const cacheHome = process.env.XDG_CACHE_HOME || join(process.env.HOME || homedir(), '.cache');
  const { directory } = nodeModule.enableCompileCache(join(cacheHome, 'docmill', 'compile-cache'));
  // The engine threads read it from the variables they start with.
  if (directory) process.env.NODE_COMPILE_CACHE = directory;
}

// When V8 optimises the CLI's code (src/cli/v8-tiering.ts), set before the CLI's modules load.
const { tieringOption } = await import(new URL('../dist/src/cli/v8-tiering.js', import.meta.url).href);
const tiering = tieringOption();
if (tiering) setFlagsFromString(tiering);
const { main } = await import(entry.href);
const code = await main(process.argv);
// Exit once stdout has drained: idle keep-alive sockets and library timers must not hold a finished command open.
process.stdout.write('', () => process.exit(code));
