/**
 * One set of tesseract workers for all the threads of an engine pool. Each tesseract worker holds its language
 * model and a WebAssembly memory that never shrinks (100-150 MB together); with a set per engine thread, a batch
 * of mixed documents on two threads held two of them from its first scans to its end (BENCHMARKS.md, "Soak"). An
 * engine thread instead sends the page images it would read to its pool (`relayOcrTo`), which reads them with its
 * shared workers (`SharedOcr`) and answers with the lines. Pages of two threads in the same language set wait for
 * each other at its worker, which holds 100-150 MB; with the pool's `ocrWorkers`, more workers start while the
 * set's pages keep coming (a batch of scans), up to that many (tesseract.ts).
 */
import type { MessagePort, Worker } from 'node:worker_threads';
import { relayPagesTo } from './relayed-recogniser.js';
import type { OcrLine, TesseractWorkers } from './tesseract.js';

/** A thread asks its pool to read a page. */
export interface OcrRequest {
  ocrRequest: number;
  image: Uint8Array;
  languages: string;
  invert: boolean;
}

/** The pool's answer: the lines, or why they could not be read. */
export type OcrAnswer = { ocrAnswer: number; lines: OcrLine[] } | { ocrAnswer: number; error: string };

/**
 * How long the shared workers stay after their last page: long enough to carry a batch from one scan to the next,
 * short enough that a batch whose scans are done gives their memory back.
 */
const SHARED_IDLE_MS = 60_000;

function isObject(message: unknown): message is Record<string, unknown> {
  return typeof message === 'object' && message !== null;
}

export function isOcrRequest(message: unknown): message is OcrRequest {
  return isObject(message) && typeof message.ocrRequest === 'number';
}

function isOcrAnswer(message: unknown): message is OcrAnswer {
  return isObject(message) && typeof message.ocrAnswer === 'number';
}

/**
 * An engine thread's side: from now on its pages are read by the pool at the other end of `port`. The thread's one
 * listener on the port hands each message to the function returned, which takes the pool's answers (true) and
 * leaves the rest (false).
 */
export function relayOcrTo(port: MessagePort): (message: unknown) => boolean {
  const waiting = new Map<number, { resolve: (lines: OcrLine[]) => void; reject: (error: Error) => void }>();
  let next = 1;
  const takeAnswer = (message: unknown): boolean => {
    if (!isOcrAnswer(message)) return false;
    const pending = waiting.get(message.ocrAnswer);
    waiting.delete(message.ocrAnswer);
    if (pending && 'lines' in message) pending.resolve(message.lines);
    else if (pending && 'error' in message) pending.reject(new Error(message.error));
    return true;
  };
  relayPagesTo(
    (image, languages, invert) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        // A page image made for this request owns its buffer and is handed over; a view on a larger buffer is copied
        // into one of its own: a Buffer under half Node's pool size (a region's PNG made by Buffer.concat; the pool is
        // 64 KB in Node 24.21, 8 KB in Node 20) shares the pool, which Node 24 refuses to transfer, and Buffer's own
        // slice() is a view, not a copy.
        const whole = image.byteOffset === 0 && image.byteLength === image.buffer.byteLength && image.buffer instanceof ArrayBuffer;
        const sent = whole ? image : new Uint8Array(image);
        port.postMessage({ ocrRequest: id, image: sent, languages, invert } satisfies OcrRequest, [sent.buffer as ArrayBuffer]);
      }),
  );
  return takeAnswer;
}

/**
 * The pool's side: the workers its threads' pages are read with, started on the first page (tesseract.ts), up to
 * `perSet` for a language set while its pages keep coming (a batch of scans).
 */
export class SharedOcr {
  #workers: Promise<TesseractWorkers> | undefined;
  readonly #perSet: number;

  /** `perSet`: the most workers a language set has at once (at most the pool's threads: each sends a page at a time). */
  constructor(perSet = 1) {
    this.#perSet = perSet;
  }

  /** Pages being read (or waiting) for each thread: a thread reads one page at a time, so 0 or 1. */
  readonly #pages = new Map<Worker, number>();

  /** Answers the pages `thread` sends; an answer to a thread that has ended meanwhile is dropped. */
  serve(thread: Worker): void {
    thread.on('message', (message: unknown) => {
      if (!isOcrRequest(message)) return;
      const answer = (reply: OcrAnswer) => {
        try {
          thread.postMessage(reply);
        } catch {
          // the thread ended (recycled, timed out) while its page was read
        }
      };
      this.#pages.set(thread, (this.#pages.get(thread) ?? 0) + 1);
      this.#read(message.image, message.languages, message.invert)
        .then(
          (lines) => answer({ ocrAnswer: message.ocrRequest, lines }),
          (error: unknown) => answer({ ocrAnswer: message.ocrRequest, error: error instanceof Error ? error.message : String(error) }),
        )
        .finally(() => {
          const left = (this.#pages.get(thread) ?? 1) - 1;
          if (left > 0) this.#pages.set(thread, left);
          else this.#pages.delete(thread);
        });
    });
  }

  /**
   * `thread` was ended. `stopped`: in the middle of a document (it overran its time, or it died), maybe between two of
   * its pages: a page of its still being read is read for no one, and when no other thread waits for one, the workers
   * are ended at once, as they ended with the thread when each thread had its own (the next page starts them again).
   * Nothing to do for a thread recycled between documents.
   */
  abandon(thread: Worker, stopped: boolean): void {
    const reading = this.#pages.delete(thread);
    if ((reading || stopped) && this.#pages.size === 0) void this.close();
  }

  async close(): Promise<void> {
    const workers = this.#workers;
    this.#workers = undefined;
    await (await workers)?.close();
  }

  async #read(image: Uint8Array, languages: string, invert: boolean): Promise<OcrLine[]> {
    // tesseract.js loads in the pool's thread only once a page is to be read.
    this.#workers ??= import('./tesseract.js').then(({ TesseractWorkers }) => new TesseractWorkers({ idleMs: SHARED_IDLE_MS, perSet: this.#perSet }));
    return (await this.#workers).recognise(image, languages, invert);
  }
}
