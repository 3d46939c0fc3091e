/**
 * LiteParse runs its native work on a tokio runtime, which reads `TOKIO_WORKER_THREADS` from the process's
 * environment when it starts and aborts the whole process (a Rust panic, no JavaScript error) when the variable is
 * set to anything but a positive whole number: an empty value left by a container's `ENV`, `0`, `auto`. Such a value
 * is dropped from the environment before the engine's threads start (the native runtime reads the process's
 * environment, which every thread shares); a valid one is left to do what the user asked.
 */

const VARIABLE = 'TOKIO_WORKER_THREADS';

/** What tokio accepts as its worker count: a whole number from 1 to 99999, no sign or space. */
const WORKER_COUNT = /^[1-9][0-9]{0,4}$/;

/** An invalid setting dropped from the environment: its name and the value it had. */
export interface DroppedSetting {
  name: string;
  value: string;
}

/** Removes an invalid `TOKIO_WORKER_THREADS` from `env`, and says what it removed; a valid one stays. */
export function dropInvalidRuntimeSettings(env: NodeJS.ProcessEnv): DroppedSetting | undefined {
  const value = env[VARIABLE];
  if (value === undefined || WORKER_COUNT.test(value)) return undefined;
  delete env[VARIABLE];
  return { name: VARIABLE, value };
}
