#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, run by `prepare` on npm ci).
import { existsSync } from 'node:fs';
import nodeModule from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// glibc gives each thread of native code (PDFium's, LiteParse's, zlib's) malloc arenas of its own, which keep what a
// long batch frees, so the resident set creeps up run after run; two arenas keep it flat (soak benchmark, 3,000
// mixed documents: quarters 610 / 725 / 723 / 718 MB, where the default's rose 659 → 967). No fixed mmap threshold:
// one of 32 KiB lowered that peak by 50–125 MB more, but took every larger buffer from the system and handed it back,
// page faults and all: 9–28 % more CPU a document, and some 40 % fewer pages a second over text PDFs (BENCHMARKS.md
// §11, §17). glibc reads it once, at the start of a process; musl ignores it.
const ALLOCATOR_SETTINGS = { MALLOC_ARENA_MAX: '2' };
// V8's young generation in the main thread (and in tesseract.js's worker, which sets no limit of its own): Node 24
// lets it grow to 128 MB, Node 20 to 32 MB, where a few MB serve docmill's main thread as well (docs/deployment.md).
const YOUNG_GENERATION_OPTION = '--max-semi-space-size=2';
// Both must be in place when the process starts: when the user set neither the allocator's nor the young
// generation's, the launcher becomes a node started with what is missing (execve keeps the pid, the descriptors and
// the arguments; Node 22.15 and later have it).
if (process.platform === 'linux' && typeof process.execve === 'function') {
  // Any malloc setting of the user's (a variable or a glibc tunable) leaves the allocator as they set it.
  const allocator = !Object.keys(process.env).some((name) => name.startsWith('MALLOC_')) && !/glibc\.malloc\./.test(process.env.GLIBC_TUNABLES ?? '');
  const youngGeneration = ![...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((option) => option.startsWith('--max-semi-space-size'));
  if (allocator || youngGeneration) {
    const options = youngGeneration ? [YOUNG_GENERATION_OPTION, ...process.execArgv] : process.execArgv;
    process.execve(process.execPath, [process.execPath, ...options, ...process.argv.slice(1)], allocator ? { ...process.env, ...ALLOCATOR_SETTINGS } : process.env);
  }
}

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

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('docmill: dist/ is missing; run `npm run build` (npm ci does it for you).\n');
  process.exit(2);
}
// When V8 optimises the CLI's code (src/cli/v8-tiering.ts), set before the CLI's modules load.
const { tieringOption } = await import(new URL('../dist/src/cli/v8-tiering.js', import.meta.url).href);
const tiering = tieringOption();
if (tiering) setFlagsFromString(tiering);
const { main } = await import(entry.href);
const code = await main(process.argv);
// Exit once stdout has drained: idle keep-alive sockets and library timers must not hold a finished command open.
process.stdout.write('', () => process.exit(code));
