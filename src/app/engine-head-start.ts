/**
 * A head start for the local engine: a command that will parse with it (no API URL in its flags or the
 * environment) starts the engine's threads before it loads the rest of its work, and its pool takes them
 * (engine/early-threads.ts). Called by the CLI's `run`, `worker` and `watch` before they load their action.
 */
import { availableParallelism } from 'node:os';
import { resolveApiConfig, type ApiFlags } from '../config/api-config.js';
import { readEnvironment } from '../config/environment.js';
import { endEarlyThreads, startThreadsEarly } from '../engine/early-threads.js';
import { converterNamedBy } from '../engine/route.js';

/**
 * Runs `work` (a command's action) with the threads of the pool `buildBackend` will make (as many as the cores)
 * started first, when it will make one; threads no pool took are ended when `work` ends. For one document (`file`,
 * what `parse` gives): one thread, which loads the converter the file's name asks for meanwhile.
 */
export async function withEngineHeadStart<T>(api: ApiFlags, env: NodeJS.ProcessEnv, work: () => Promise<T>, file?: string): Promise<T> {
  if (parsesLocally(api, env)) {
    const converter = file === undefined ? undefined : converterNamedBy(file);
    startThreadsEarly(file === undefined ? availableParallelism() : 1, undefined, converter ? [converter] : []);
  }
  try {
    return await work();
  } finally {
    await endEarlyThreads();
  }
}

function parsesLocally(api: ApiFlags, env: NodeJS.ProcessEnv): boolean {
  return resolveApiConfig(api, readEnvironment(env)).apiUrl === undefined;
}
