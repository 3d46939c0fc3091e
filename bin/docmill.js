#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, run by `prepare` on npm ci).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// glibc keeps the native memory a long batch frees (PDFium's, LiteParse's, zlib's) in an arena per thread, and raises
// its mmap threshold as large blocks come and go, so the resident set creeps up run after run. These settings (the
// container image's too) hand large blocks back to the system: from 32 KiB, where the engine's many middle-sized buffers
// (a PDF's streams, a page's text, a zip's entries) otherwise left the arenas fragmented (soak benchmark: a peak some
// 40 MB lower than at 128 KiB, for about 3 % more CPU). glibc reads them once, at the start of a process. musl ignores
// them.
const ALLOCATOR_SETTINGS = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '32768' };
// V8's young generation in the main thread (and in tesseract.js's worker, which sets no limit of its own): Node 24
// lets it grow to 128 MB, Node 20 to 32 MB, where a few MB serve docmill's main thread as well (docs/deployment.md).
const YOUNG_GENERATION_OPTION = '--max-semi-space-size=2';
// Both must be in place when the process starts: when the user set neither the allocator's nor the young
// generation's, the launcher becomes a node started with what is missing (execve keeps the pid, the descriptors and
// the arguments; Node 22.15 and later have it).
if (process.platform === 'linux' && typeof process.execve === 'function') {
  const allocator = Object.keys(ALLOCATOR_SETTINGS).every((name) => process.env[name] === undefined);
  const youngGeneration = ![...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((option) => option.startsWith('--max-semi-space-size'));
  if (allocator || youngGeneration) {
    const options = youngGeneration ? [YOUNG_GENERATION_OPTION, ...process.execArgv] : process.execArgv;
    process.execve(process.execPath, [process.execPath, ...options, ...process.argv.slice(1)], allocator ? { ...process.env, ...ALLOCATOR_SETTINGS } : process.env);
  }
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
