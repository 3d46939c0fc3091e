/**
 * A head start for the local engine: a command that will parse with it (no API URL in its flags or the
 * environment) starts the engine's threads before it loads the rest of its work, and its pool takes them
 * (engine/early-threads.ts). Called by the CLI's `run`, `worker` and `watch` before they load their action.
 */
import { availableParallelism } from 'node:os';
import { resolveApiConfig, type ApiFlags } from '../config/api-config.js';
import { readEnvironment } from '../config/environment.js';
import { defaultConfig, endEarlyThreads, startThreadsEarly } from '../engine/early-threads.js';
import { formatsAhead } from './formats-ahead.js';

/** What the command will parse, when it knows before it loads its work. */
export interface DocumentsAhead {
  /** `parse`'s one file (a pool of one thread), or `run`'s source (a pool of one thread a core). */
  file?: string;
  source?: string;
}

/**
 * Runs `work` (a command's action) with the threads of the pool `buildBackend` will make started first, when it will
 * make one; threads no pool took are ended when `work` ends. With `ahead`, the threads load the converters its first
 * documents ask for meanwhile (formats-ahead.ts).
 */
export async function withEngineHeadStart<T>(api: ApiFlags, env: NodeJS.ProcessEnv, work: () => Promise<T>, ahead: DocumentsAhead = {}): Promise<T> {
  const environment = readEnvironment(env);
  if (resolveApiConfig(api, environment).apiUrl === undefined) {
    const place = ahead.file ?? ahead.source;
    // The configuration the pool will have (backends.ts): its threads are these.
    startThreadsEarly(ahead.file === undefined ? availableParallelism() : 1, defaultConfig(environment.cacheDir), place === undefined ? [] : formatsAhead(place));
  }
  try {
    return await work();
  } finally {
    await endEarlyThreads();
  }
}
