/**
 * What the launcher (bin/docmill.js) starts node with on Linux, where it can (`process.execve`, Node 22.15 and
 * later): the allocator's and the young generation's settings the user has not set. Kept here so that a benchmark
 * starts a process to compare with the same way (bench/small-docs.ts).
 */

/**
 * glibc gives each thread of native code (PDFium's, LiteParse's, zlib's) malloc arenas of its own, which keep what a
 * long batch frees, so the resident set creeps up run after run; two arenas keep it flat (soak benchmark, 3,000
 * mixed documents: quarters 610 / 725 / 723 / 718 MB, where the default's rose 659 → 967). No fixed mmap threshold:
 * one of 32 KiB lowered that peak by 50–125 MB more, but took every larger buffer from the system and handed it back,
 * page faults and all: 9–28 % more CPU a document, and some 40 % fewer pages a second over text PDFs (BENCHMARKS.md
 * §11, §17). glibc reads it once, at the start of a process; musl ignores it.
 */
const ALLOCATOR_SETTINGS = { MALLOC_ARENA_MAX: '2' };
/**
 * V8's young generation in the main thread (and in tesseract.js's worker, which sets no limit of its own): Node 24
 * lets it grow to 128 MB, Node 20 to 32 MB, where a few MB serve docmill's main thread as well (docs/deployment.md).
 */
const YOUNG_GENERATION_OPTION = '--max-semi-space-size=2';

export interface LauncherSettings {
  /** The whole environment to start node with. */
  env: NodeJS.ProcessEnv;
  /** node's options, before the script. */
  options: string[];
}

/**
 * The settings to start node with, or undefined when the user set both (any malloc variable or glibc tunable of
 * theirs leaves the allocator as they set it; a `--max-semi-space-size` of theirs, the young generation) or when
 * node cannot replace itself (`process.execve`: Linux, Node 22.15 and later).
 */
export function launcherSettings(env: NodeJS.ProcessEnv, execArgv: readonly string[]): LauncherSettings | undefined {
  if (process.platform !== 'linux' || typeof (process as { execve?: unknown }).execve !== 'function') return undefined;
  const allocator = !Object.keys(env).some((name) => name.startsWith('MALLOC_')) && !/glibc\.malloc\./.test(env.GLIBC_TUNABLES ?? '');
  const youngGeneration = ![...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].some((option) => option.startsWith('--max-semi-space-size'));
  if (!allocator && !youngGeneration) return undefined;
  return {
    env: allocator ? { ...env, ...ALLOCATOR_SETTINGS } : env,
    options: youngGeneration ? [YOUNG_GENERATION_OPTION, ...execArgv] : [...execArgv],
  };
}
