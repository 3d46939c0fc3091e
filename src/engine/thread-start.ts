/**
 * Starting one engine thread: its Worker with the heap limits, the boards it shares with its pool (the stage its
 * conversion is in, its native calls out), and when it has loaded the engine. The pool starts its threads through
 * here, and so do early-threads.ts's threads started before their pool exists.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { defaultCopyRoots } from './pdf/liteparse/native-copies.js';
import { newNativeBoard } from './native-calls.js';
import { newStageBoard } from './stage-board.js';
import type { ConverterName } from './route.js';
import type { ThreadMessage } from './thread-messages.js';

/** What a thread is started with (`workerData`). */
export interface ThreadStart {
  /** The TypeScript entry, when the thread starts from the sources. */
  entry?: string;
  liteParseModule?: string | undefined;
  /** The copy of LiteParse's native module the thread loads (pdf/liteparse/native-copies.ts; 0: the package's own). */
  nativeCopy: number;
  /** Where such copies may be made, in order. */
  nativeCopyRoots: string[];
  /** Where the thread writes the stage its conversion is in (stage-board.ts). */
  stageBoard: SharedArrayBuffer;
  /** Where the thread counts its native calls out (native-calls.ts). */
  nativeBoard: SharedArrayBuffer;
  /** Converters to load once the engine is, before any document asks for one (route.ts ConverterName). */
  converters?: readonly ConverterName[] | undefined;
}

/** A thread's heap limit unless its pool says otherwise (ThreadPoolOptions.maxHeapMb). */
export const DEFAULT_MAX_HEAP_MB = 1024;

/** What makes two threads interchangeable: a thread started with one configuration serves only a pool of the same. */
export interface ThreadConfig {
  /** Heap limit of the thread. */
  maxHeapMb: number;
  /** The module it loads in place of LiteParse (tests). */
  liteParseModule?: string | undefined;
  /** The cache folder below which copies of LiteParse's native module are kept. @default ~/.cache */
  cacheDir?: string | undefined;
  /** The file the thread runs in place of the engine's thread (tests: one that fails to load). */
  threadModule?: string | undefined;
}

/** The same configuration: a thread started with one serves a pool made with the other. */
export function sameThreadConfig(a: ThreadConfig, b: ThreadConfig): boolean {
  return a.maxHeapMb === b.maxHeapMb && a.liteParseModule === b.liteParseModule && a.cacheDir === b.cacheDir && a.threadModule === b.threadModule;
}

/**
 * The copies of LiteParse's native module that the process's live threads load, by number: a thread takes the
 * lowest one free, so no two threads alive at once share a module (and its PDFium lock), and a thread that replaces
 * an ended one takes its copy again, made already.
 */
const copiesInUse = new Set<number>();

function takeNativeCopy(): number {
  let index = 0;
  while (copiesInUse.has(index)) index++;
  copiesInUse.add(index);
  return index;
}

export interface StartedThread {
  worker: Worker;
  stageBoard: SharedArrayBuffer;
  nativeBoard: SharedArrayBuffer;
  config: ThreadConfig;
  /** Settles when the thread has loaded the engine and takes documents: fulfilled, or rejected if it died first. */
  ready: Promise<void>;
}

/**
 * The young generation of each thread's heap (V8's default is about 3 × 16 MB on 64 bits). A thread converts one
 * document at a time and keeps little between documents, so a nursery under the default holds as well, for less
 * memory (PDF benchmark, 99 pages, two threads: a resident set of 330–345 MB after each pass at 8 MB, 390–410 MB at
 * the default). 16 MB rather than 8: a PDF page's items and lines are live while it is laid out, and a smaller
 * nursery copies them again at each of its more frequent collections (16 MB: CPU a page about 6 % less, peak
 * resident set 5–10 MB more; BENCHMARKS.md §11). A `--max-semi-space-size` node was started with (the launcher's 2 MB
 * on Node 22.15 and later, or one in NODE_OPTIONS) is V8's for every isolate and wins over this limit: the threads'
 * semi-spaces are then that size (Node 24, `docmill run --mode fast` over 990 PDF pages: 3.5 × the scavenges; this
 * limit instead, 5 % less CPU for a peak 27 MB higher, so the launcher's is left to hold).
 */
const YOUNG_GENERATION_MB = 16;

/** The thread's entry: the compiled one, or from the sources through a bootstrap that loads TypeScript (tests, tsx). */
function threadEntry(): { file: string; workerData?: { entry: string } } {
  if (!import.meta.url.endsWith('.ts')) return { file: fileURLToPath(new URL('../../workers/engine-thread.js', import.meta.url)) };
  return {
    file: fileURLToPath(new URL('../../workers/dev-thread-bootstrap.mjs', import.meta.url)),
    workerData: { entry: new URL('../../workers/engine-thread.ts', import.meta.url).href },
  };
}

/** Starts a thread, loading `converters` while it waits for its first document; it does not keep the process alive. */
export function startThread(config: ThreadConfig, converters?: readonly ConverterName[]): StartedThread {
  const entry = config.threadModule ? { file: config.threadModule } : threadEntry();
  const stageBoard = newStageBoard();
  const nativeBoard = newNativeBoard();
  const nativeCopy = takeNativeCopy();
  const start: ThreadStart = {
    ...entry.workerData,
    ...(config.liteParseModule ? { liteParseModule: config.liteParseModule } : {}),
    nativeCopy,
    nativeCopyRoots: defaultCopyRoots(config.cacheDir ?? join(homedir(), '.cache')),
    stageBoard,
    nativeBoard,
    ...(converters && converters.length > 0 ? { converters } : {}),
  };
  let worker: Worker;
  try {
    worker = new Worker(entry.file, {
      workerData: start,
      resourceLimits: { maxOldGenerationSizeMb: config.maxHeapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
  } catch (error) {
    copiesInUse.delete(nativeCopy);
    throw error;
  }
  worker.unref();
  worker.once('exit', () => copiesInUse.delete(nativeCopy));
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: ThreadMessage) => {
      if (!('ready' in message)) return;
      settle();
      resolve();
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const onExit = (code: number) => {
      settle();
      reject(new Error(`it exited (code ${code})`));
    };
    const settle = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
  // Only a document run alone waits for it; a thread that dies first fails the document it was given instead.
  ready.catch(() => undefined);
  return { worker, stageBoard, nativeBoard, config, ready };
}
