/**
 * A pool of engine worker threads sized to the cores. Each document gets a time limit (its `timeout`) and each
 * thread a heap limit: a document that spins or balloons is killed with its thread, which is replaced, and the
 * other documents carry on.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ParseOptions } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { DocmillError } from '../errors/docmill-error.js';
import { EngineError } from './engine-error.js';
import type { ThreadReply, ThreadTask } from './thread-messages.js';

export class EngineTimeoutError extends DocmillError {
  constructor(readonly timeoutMs: number) {
    super('ENGINE_TIMEOUT', `parsing took longer than the request timeout of ${timeoutMs} ms`);
  }
}

export class EngineCrashError extends DocmillError {
  constructor(message: string) {
    super('ENGINE_CRASH', message);
  }
}

export interface ThreadPoolOptions {
  /** @default availableParallelism() */
  size?: number;
  /** Heap limit per thread. @default 1024 */
  maxHeapMb?: number;
}

interface Slot {
  worker: Worker;
  busy: boolean;
}

interface Pending {
  task: ThreadTask;
  timeoutMs: number;
  resolve: (data: ParseData) => void;
  reject: (error: Error) => void;
}

/** The compiled thread next to the compiled pool; from TypeScript sources (tests), the .ts file through tsx. */
function threadEntry(): { file: string; workerData?: { entry: string } } {
  if (!import.meta.url.endsWith('.ts')) return { file: fileURLToPath(new URL('../../workers/engine-thread.js', import.meta.url)) };
  return {
    file: fileURLToPath(new URL('../../workers/dev-thread-bootstrap.mjs', import.meta.url)),
    workerData: { entry: new URL('../../workers/engine-thread.ts', import.meta.url).href },
  };
}

export class EngineThreadPool {
  readonly size: number;
  readonly #maxHeapMb: number;
  readonly #slots: Slot[] = [];
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: ThreadPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.#maxHeapMb = options.maxHeapMb ?? 1024;
  }

  /** Documents being parsed or waiting for a thread. */
  get load(): number {
    return this.busy + this.queued;
  }

  /** Threads parsing a document now. */
  get busy(): number {
    return this.#slots.filter((slot) => slot.busy).length;
  }

  /** Documents waiting for a thread. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Parses on a thread; `ocrLanguages`: the tesseract languages OCR reads in (absent: the document's own). */
  run(bytes: Uint8Array, fileName: string, options: ParseOptions, ocrLanguages?: readonly string[]): Promise<ParseData> {
    if (this.#closed) return Promise.reject(new EngineCrashError('the engine is shut down'));
    return new Promise((resolve, reject) => {
      const task: ThreadTask = { id: this.#nextId++, bytes, fileName, options, ...(ocrLanguages ? { ocrLanguages: [...ocrLanguages] } : {}) };
      this.#queue.push({ task, timeoutMs: options.timeout, resolve, reject });
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const pending of this.#queue.splice(0)) pending.reject(new EngineCrashError('the engine is shut down'));
    await Promise.all(this.#slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((candidate) => !candidate.busy);
      if (!slot && this.#slots.length < this.size) slot = this.#spawn();
      if (!slot) return;
      const pending = this.#queue.shift() as Pending;
      this.#execute(slot, pending);
    }
  }

  #spawn(): Slot {
    const entry = threadEntry();
    const worker = new Worker(entry.file, {
      ...(entry.workerData ? { workerData: entry.workerData } : {}),
      resourceLimits: { maxOldGenerationSizeMb: this.#maxHeapMb },
    });
    worker.unref();
    const slot: Slot = { worker, busy: false };
    this.#slots.push(slot);
    return slot;
  }

  #replace(slot: Slot): void {
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
    void slot.worker.terminate();
  }

  #execute(slot: Slot, pending: Pending): void {
    slot.busy = true;
    const { worker } = slot;
    let settled = false;
    const finish = (outcome: () => void, healthy: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (healthy) slot.busy = false;
      else this.#replace(slot);
      outcome();
      this.#dispatch();
    };
    const onMessage = (reply: ThreadReply) => {
      if (reply.id !== pending.task.id) return;
      if (reply.ok) finish(() => pending.resolve(reply.data), true);
      else if (reply.error.kind === 'document') {
        const { apiCode, message } = reply.error;
        finish(() => pending.reject(new EngineError(apiCode, message)), true);
      } else {
        const message = reply.error.message;
        finish(() => pending.reject(new EngineCrashError(message)), true);
      }
    };
    const onError = (error: Error) => {
      const oom = /heap|memory/i.test(error.message) || (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(
        () =>
          pending.reject(
            oom
              ? new EngineError('DOCUMENT_TOO_COMPLEX', `the document needed more than the parser's ${this.#maxHeapMb} MB memory limit`)
              : new EngineCrashError(`the parser thread failed: ${error.message}`),
          ),
        false,
      );
    };
    const onExit = (code: number) => finish(() => pending.reject(new EngineCrashError(`the parser thread exited (code ${code})`)), false);
    // A document that spins is stopped by killing its thread: pdfjs and SheetJS offer no way to interrupt them.
    const timer = setTimeout(() => finish(() => pending.reject(new EngineTimeoutError(pending.timeoutMs)), false), pending.timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(pending.task);
  }
}
