/**
 * LiteParse runs its native work on a tokio runtime, which reads `TOKIO_WORKER_THREADS` from the process's
 * environment when it starts and aborts the whole process (a Rust panic, no JavaScript error) when the variable is
 * set to anything but a positive whole number: an empty value left by a container's `ENV`, `0`, `auto`. Such a value
 * is dropped from the environment before the engine's threads start (the native runtime reads the process's
 * environment, which every thread shares); a valid one is left to do what the user asked.
 *
 * Unset, the CLI sets it to 1. tokio otherwise starts a worker per core in each copy of LiteParse's native module
 * (an engine thread beyond the first loads its own copy), where an engine thread converts one document at a time and
 * PDFium's work is serialised within a copy: the second worker of each runtime only added its stack and its
 * allocator arena (990 PDF pages in mode fast: peak resident set 289–296 → 267–273 MB, pages a second within noise;
 * a 600-page PDF whole and in ranges as fast).
 */

const VARIABLE = 'TOKIO_WORKER_THREADS';

/** What tokio accepts as its worker count: a whole number from 1 to 99999, no sign or space. */
const WORKER_COUNT = /^[1-9][0-9]{0,4}$/;

/** An invalid setting dropped from the environment: its name and the value it had. */
export interface DroppedSetting {
  name: string;
  value: string;
}

/** What the CLI gives tokio when the user sets nothing: one worker for each copy's one caller. */
const DEFAULT_WORKERS = '1';

/** Sets `TOKIO_WORKER_THREADS` to one worker when `env` has none (after an invalid one was dropped). */
export function defaultRuntimeSettings(env: NodeJS.ProcessEnv): void {
  env[VARIABLE] ??= DEFAULT_WORKERS;
}

/** Removes an invalid `TOKIO_WORKER_THREADS` from `env`, and says what it removed; a valid one stays. */
export function dropInvalidRuntimeSettings(env: NodeJS.ProcessEnv): DroppedSetting | undefined {
  const value = env[VARIABLE];
  if (value === undefined || WORKER_COUNT.test(value)) return undefined;
  delete env[VARIABLE];
  return { name: VARIABLE, value };
}
