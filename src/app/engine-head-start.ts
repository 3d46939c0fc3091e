/**
 * A head start for the local engine: a command that will parse with it (no API URL in its flags or the
 * environment) starts the engine's threads before it loads the rest of its work, and its pool takes them
 * (engine/early-threads.ts). Called by the CLI's `parse`, `run`, `worker` and `watch` before they load their action.
 */
import { availableParallelism } from 'node:os';
import { resolveApiConfig, type ApiFlags } from '../config/api-config.js';
import { readEnvironment } from '../config/environment.js';
import { defaultConfig, endEarlyThreads, startThreadsEarly } from '../engine/early-threads.js';
import { lookAhead } from './look-ahead.js';

/** What the command will parse, when it knows before it loads its work. */
export interface DocumentsAhead {
  /** `parse`'s one file (a pool of one thread), or the source of `run` or `watch` (a pool of one thread a core). */
  file?: string;
  source?: string;
  /**
   * The command converts what `source` holds now, then ends (`run`): no more threads start than the files there. On 2
   * cores, `docmill run` of one small web page so took 1.03 s, 1.53 s of CPU and 127 MB, against 1.30 s, 2.11 s and
   * 158 MB with a thread a core (medians of 10 pairs): the idle thread's start only slowed the command's own. The pool
   * still starts more threads if more documents come than the look saw.
   */
  onlyNow?: boolean;
}

/**
 * Runs `work` (a command's action) with the threads of the pool `buildBackend` will make started first, when it will
 * make one; threads no pool took are ended when `work` ends. With `ahead`, the threads load the converters its first
 * documents ask for meanwhile (look-ahead.ts).
 */
export async function withEngineHeadStart<T>(api: ApiFlags, env: NodeJS.ProcessEnv, work: () => Promise<T>, ahead: DocumentsAhead = {}): Promise<T> {
  const environment = readEnvironment(env);
  if (resolveApiConfig(api, environment).apiUrl === undefined) {
    const place = ahead.file ?? ahead.source;
    const seen = place === undefined ? undefined : lookAhead(place);
    const files = ahead.file !== undefined ? 1 : ahead.onlyNow ? seen?.files : undefined;
    // The configuration the pool will have (backends.ts): its threads are these.
    startThreadsEarly(Math.min(availableParallelism(), files ?? Infinity), defaultConfig(environment.cacheDir), seen?.converters ?? []);
  }
  try {
    return await work();
  } finally {
    await endEarlyThreads();
  }
}
