/**
 * Engine threads started before the pool that will run them exists. A thread takes some 0.6 s of CPU to load the
 * engine, and a command that parses with the local engine spends about as long loading the queue, the store and
 * their clients before it makes its pool: started first, the threads load meanwhile (on another core) and the first
 * documents do not wait for them. The first pool made with the same thread configuration takes them; any it does
 * not take are ended then, or by `endEarlyThreads` when no pool came (the command failed before it made one).
 */
import type { ConverterName } from './route.js';
import { DEFAULT_MAX_HEAP_MB, sameThreadConfig, startThread, type StartedThread, type ThreadConfig } from './thread-start.js';

let waiting: StartedThread[] = [];

/**
 * Starts `count` threads for a pool to come, unless some are already waiting; returns those it started. Each loads
 * `converters` too while it waits: the documents' formats, when the command knows them.
 */
export function startThreadsEarly(count: number, config: ThreadConfig = defaultConfig(), converters?: readonly ConverterName[]): readonly StartedThread[] {
  if (waiting.length > 0) return [];
  for (let index = 0; index < count; index++) waiting.push(startThread(config, converters));
  return [...waiting];
}

/** The pool's default configuration, which the commands' pools use; `cacheDir` as their environment says. */
export function defaultConfig(cacheDir?: string): ThreadConfig {
  return { maxHeapMb: DEFAULT_MAX_HEAP_MB, cacheDir };
}

/** Up to `count` of the threads waiting, when they were started with `config`; every other one is ended. */
export function takeEarlyThreads(count: number, config: ThreadConfig): StartedThread[] {
  const threads = waiting;
  waiting = [];
  const taken = threads.filter((thread) => sameThreadConfig(thread.config, config)).slice(0, count);
  for (const thread of threads) if (!taken.includes(thread)) void thread.worker.terminate();
  return taken;
}

/** Ends the threads no pool took. */
export async function endEarlyThreads(): Promise<void> {
  const threads = waiting;
  waiting = [];
  await Promise.all(threads.map((thread) => thread.worker.terminate()));
}
