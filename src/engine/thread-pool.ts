/**
 * A pool of engine worker threads sized to the cores. Each document gets a time limit (its `timeout`) and each
 * thread a heap limit: a document that spins or balloons is killed with its thread, which is replaced, and the
 * other documents carry on.
 *
 * A document can also be run alone (`{ alone: true }`): it goes ahead of the queue, waits until no thread is busy,
 * and runs on a fresh thread while nothing else does; documents queued meanwhile wait. The engine runs a document
 * that overran its time, or whose thread died, alone once more, so that the load of other documents (or what they
 * left in a thread) is ruled out before the failure is blamed on the document (local-engine.ts).
 *
 * A thread is ended (its document's time ran out, it is recycled, the engine shuts down) only once no native call of
 * it is out: LiteParse answers from threads of its own, and an answer that finds its thread gone can abort the
 * process (native-calls.ts). Until then it is out of the pool and starts nothing more.
 *
 * What each failure becomes: a converter's exception is CONVERSION_FAILED (the thread lives on); a document error
 * is its EngineError; overrunning the time is EngineTimeoutError, and a thread that dies EngineCrashError with
 * `threadDied`, both naming the stage the conversion was in (stage.ts); running out of the heap limit is
 * DOCUMENT_TOO_COMPLEX: a thread converts one document at a time and V8 collects what earlier ones left before it
 * gives up, so the memory was this document's.
 *
 * Threads are recycled between documents, never during one: after `recycleAfterDocuments` PDFs that drew with
 * WebAssembly, when the heap a thread reports with a result passes `recycleHeapMb`, or when the WebAssembly memory it
 * keeps passes `recycleWasmMb`; it is ended and a fresh one started in its place. A thread's resident set grows with the PDFs it
 * reads with WebAssembly (tesseract's OCR and PDFium's renderer, in modes auto and ocr and for kept pictures:
 * memories that never shrink, 0.2–2 MB a document, measured one file type at a time) while its V8 heap stays small,
 * so the count is what keeps a long batch flat (with the renderer let go of after each document as well, a count of
 * 1,000 let a 3,000-document soak climb from 560 to 740 MB, its quarters no longer flat, for 10 % less CPU:
 * BENCHMARKS.md, soak); the heap threshold catches a thread that one document left holding much, and the WebAssembly
 * one a thread that kept such a memory after its document (a thread lets go of its PDF renderer's once each document
 * is done: wasm-memory.ts). The tesseract workers that read those pages are the pool's, one set for all its threads
 * (pdf/ocr/ocr-relay.ts). What else a thread runs leaves nothing behind that its heap does not show: the other
 * formats' converters are plain JavaScript (flat over 60 documents of each kind), and a PDF in mode fast is read by
 * LiteParse's native PDFium and at most pdfjs (a thread's resident set flat over 750 such documents, and level after
 * 200 read by pdfjs alone). Such a document counts as a fiftieth of a PDF: a thread takes about a second of CPU to
 * start, and recycling one every 40 small web pages cost two thirds of the throughput, every 40 PDF pages in mode
 * fast half of it. A PDF in mode fast whose pictures PDFium reads counts a tenth (PICTURES_WEAR).
 */
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import type { EmbeddedImage } from '../backend/embedded-images.js';
import type { PictureRendering } from '../backend/parse-backend.js';
import { pdfParserOf, type ParseOptions } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { EngineCrashError, EngineError, EngineStartError, EngineTimeoutError } from './engine-error.js';
import { findPdfHeader } from './bytes/sniff.js';
import { SharedOcr } from './pdf/ocr/ocr-relay.js';
import { markEnding, nativeCallsOut } from './native-calls.js';
import { compilePdfium, type CompiledPdfium } from './pdf/pdfium-module.js';
import { clearStage, readStage } from './stage-board.js';
import { takeEarlyThreads } from './early-threads.js';
import { DEFAULT_MAX_HEAP_MB, startThread, type StartedThread, type ThreadConfig } from './thread-start.js';
import { decodeResult, type ThreadMemory, type ThreadMessage, type ThreadTask } from './thread-messages.js';

export interface ThreadPoolOptions {
  /** @default availableParallelism() */
  size?: number;
  /** Heap limit per thread. @default 1024 */
  maxHeapMb?: number;
  /**
   * The cache folder below which each thread beyond the first gets its copy of LiteParse's native module, so that the
   * threads read PDFs side by side (pdf/liteparse/native-copies.ts). @default ~/.cache
   */
  cacheDir?: string | undefined;
  /**
   * The module the threads load in place of LiteParse (a file URL). Tests name one that fails to load as the
   * package does without its native module. @default the package
   */
  liteParseModule?: string | undefined;
  /**
   * The file the threads run in place of the engine's thread. Tests name one that throws as it loads, as a thread
   * of a broken installation does. @default the engine thread
   */
  threadModule?: string | undefined;
  /** PDFs drawn with WebAssembly a thread converts before it is replaced by a fresh one (another document counts 1/50). @default 40 */
  recycleAfterDocuments?: number;
  /**
   * The most tesseract workers a language set has at once (capped at `size`): more start only while its pages keep
   * coming (pdf/ocr/tesseract.ts). @default 1
   */
  ocrWorkers?: number;
  /** Heap (V8's used heap and the external memory it tracks) past which a thread is replaced after its document. @default 256 */
  recycleHeapMb?: number;
  /** WebAssembly memory a thread keeps (PDFium's renderer) past which it is replaced after its document. @default 48 */
  recycleWasmMb?: number;
}


interface Slot {
  worker: Worker;
  stageBoard: SharedArrayBuffer;
  nativeBoard: SharedArrayBuffer;
  busy: boolean;
  /** Settles when the thread has loaded the engine and takes documents: fulfilled, or rejected if it died first. */
  ready: Promise<void>;
  /** Whether `ready` is fulfilled. */
  started: boolean;
  /** The documents it has finished, a PDF read with WebAssembly counting 1 and another document LIGHT_WEAR (see the header). */
  wear: number;
  /**
   * The document posted to it to start as soon as the one it converts ends (see `#prefetch`): its time starts then.
   * Undefined when none is.
   */
  next?: Prefetched | undefined;
  /** Worn out while a document was posted ahead to it: replaced once that one ends. */
  retiring?: boolean;
  /** The last document given to it that is not posted yet (it waits for PDFium's compiled module): see `#post`. */
  posting?: Promise<void> | undefined;
}

/** A document posted ahead to a busy thread. */
interface Prefetched {
  /** Starts its time and makes it the thread's current document. */
  begin: () => void;
}

/** PDFs read with WebAssembly a thread converts before it is replaced (see the header). */
const DEFAULT_RECYCLE_AFTER = 40;

/** What a document that leaves nothing outside the heap adds to its thread's wear (see the header). */
const LIGHT_WEAR = 1 / 50;
/**
 * What a PDF in mode fast whose pictures are kept adds: PDFium's WebAssembly reads its pictures and draws its
 * figures, and its memory stayed at 17.8 MB over 495 documents of the PDF benchmark (each of its 99 five times, one
 * thread), a large picture or page caught by the WebAssembly threshold; counted as a whole PDF, a batch paid a
 * thread start every 40 documents for it (a second of CPU each, four threads for 99 documents where two do).
 */
const PICTURES_WEAR = 1 / 10;

/** A PDF that PDFium's WebAssembly reads (for OCR in modes other than fast, or its pictures), and its wear; undefined: not one. */
function wasmWear(bytes: Uint8Array, options: ParseOptions): number | undefined {
  if (findPdfHeader(bytes) < 0) return undefined;
  if (pdfParserOf(options).mode !== 'fast') return 1;
  return options.removeBase64Images === false ? PICTURES_WEAR : undefined;
}


interface Pending {
  task: ThreadTask;
  /**
   * What it adds to its thread's wear (read before its bytes are transferred to the thread): 1 when it may be OCR'd
   * with WebAssembly; less once done if the thread says it drew with none (`#recycleIfWorn`).
   */
  wear: number;
  /** It reads with PDFium's WebAssembly: the thread is given the pool's compiled module with it. */
  pdfium: boolean;
  timeoutMs: number;
  alone: boolean;
  /** The stage it is in before its thread names one. */
  stage?: string | undefined;
  resolve: (result: ThreadResult) => void;
  reject: (error: Error) => void;
}

/** How a document is run. */
export interface RunHow {
  /** On a fresh thread, with no other document running. @default false */
  alone?: boolean | undefined;
  /** Base64 images lifted out of the result as bytes (`images`). @default false: they stay in its text */
  liftImages?: boolean | undefined;
  /** How a PDF's kept pictures are rendered. @default 150 dpi, no page images */
  pictures?: PictureRendering | undefined;
}

/** A thread's result: the contract's data, and the pictures lifted out of it when asked. */
export interface ThreadResult {
  data: ParseData;
  images?: EmbeddedImage[] | undefined;
}

/**
 * Threads that failed to start, none of the pool's ever having started, after which the engine is taken as broken
 * (EngineStartError): an installation that cannot load its threads' modules fails every document the same way, and
 * starting thread after thread for each one's retries would only hide why. One failure alone may be a passing want
 * of memory; after any thread has started, a failure to start is taken as passing.
 */
const BROKEN_AFTER_START_FAILURES = 2;

/** How long a thread to be ended waits for its native calls (see `#end`), and how often it looks. */
const NATIVE_CALL_PATIENCE_MS = 10 * 60_000;
const NATIVE_CALL_POLL_MS = 20;

export class EngineThreadPool {
  readonly size: number;
  readonly #threadConfig: ThreadConfig;
  readonly #recycleAfterDocuments: number;
  readonly #recycleHeapBytes: number;
  readonly #recycleWasmBytes: number;
  readonly #slots: Slot[] = [];
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;
  #threadsStarted = 0;
  /** The tesseract workers of all the threads (ocr-relay.ts). */
  readonly #ocr: SharedOcr;
  /** PDFium's WebAssembly compiled once for all the threads, with the first document that reads with it. */
  #pdfium: Promise<CompiledPdfium | undefined> | undefined;
  /** Threads replaced that are not ended yet (`#end`): shutting down waits for them too. */
  readonly #ending = new Set<Promise<void>>();
  /** Worn threads being ended, whose successors start once they have: their places are kept for them. */
  #recycling = 0;
  /** A document runs alone: nothing else is dispatched until it ends. */
  #aloneRunning = false;
  /** Whether any thread of the pool has started, and how many failed to while none had. */
  #anyStarted = false;
  #startFailures = 0;
  /** Set once the threads cannot start (BROKEN_AFTER_START_FAILURES): every document is refused with it. */
  #broken: EngineStartError | undefined;

  constructor(options: ThreadPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.#ocr = new SharedOcr(Math.min(this.size, options.ocrWorkers ?? 1));
    this.#threadConfig = {
      maxHeapMb: options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB,
      liteParseModule: options.liteParseModule,
      cacheDir: options.cacheDir,
      ...(options.threadModule ? { threadModule: options.threadModule } : {}),
    };
    this.#recycleAfterDocuments = Math.max(1, options.recycleAfterDocuments ?? DEFAULT_RECYCLE_AFTER);
    this.#recycleHeapBytes = (options.recycleHeapMb ?? 256) * 1024 * 1024;
    this.#recycleWasmBytes = (options.recycleWasmMb ?? 48) * 1024 * 1024;
    for (const thread of takeEarlyThreads(this.size, this.#threadConfig)) this.#adopt(thread);
  }

  /** Documents being parsed or waiting for a thread. */
  get load(): number {
    return this.busy + this.queued;
  }

  /** Threads parsing a document now. */
  get busy(): number {
    return this.#slots.filter((slot) => slot.busy).length;
  }

  /** Threads started since the pool was made: the first ones, and each that replaced one recycled, timed out or died. */
  get threadsStarted(): number {
    return this.#threadsStarted;
  }

  /** Threads alive now: the pool's, and those replaced that are still ending. */
  get threadsAlive(): number {
    return this.#slots.length + this.#ending.size;
  }

  /** Documents waiting for a thread (those posted ahead to a busy one among them). */
  get queued(): number {
    return this.#queue.length + this.#slots.filter((slot) => slot.next).length;
  }

  /** Parses on a thread; `ocrLanguages`: the tesseract languages OCR reads in (absent: the document's own). */
  async run(bytes: Uint8Array, fileName: string, options: ParseOptions, ocrLanguages?: readonly string[], how: RunHow = {}): Promise<ParseData> {
    return (await this.runLiftingImages(bytes, fileName, options, ocrLanguages, how)).data;
  }

  /** As `run`, with the pictures lifted out of the result when `how.liftImages` asks (transferred from the thread). */
  runLiftingImages(bytes: Uint8Array, fileName: string, options: ParseOptions, ocrLanguages?: readonly string[], how: RunHow = {}): Promise<ThreadResult> {
    if (this.#closed) return Promise.reject(new EngineCrashError('the engine is shut down'));
    if (this.#broken) return Promise.reject(this.#broken);
    return new Promise((resolve, reject) => {
      const task: ThreadTask = {
        id: this.#nextId++,
        bytes,
        fileName,
        options,
        ...(ocrLanguages ? { ocrLanguages: [...ocrLanguages] } : {}),
        ...(how.liftImages ? { liftImages: true } : {}),
        ...(how.pictures ? { pictures: how.pictures } : {}),
      };
      const pdfiumWear = wasmWear(bytes, options);
      const pdfium = pdfiumWear !== undefined;
      const wear = pdfiumWear ?? LIGHT_WEAR;
      const pending: Pending = { task, wear, pdfium, timeoutMs: options.timeout, alone: how.alone === true, resolve, reject };
      if (pending.alone) {
        // Ahead of the documents waiting, behind any other that waits to run alone.
        const firstShared = this.#queue.findIndex((queued) => !queued.alone);
        this.#queue.splice(firstShared < 0 ? this.#queue.length : firstShared, 0, pending);
      } else {
        this.#queue.push(pending);
      }
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const pending of this.#queue.splice(0)) pending.reject(new EngineCrashError('the engine is shut down'));
    await Promise.all([...this.#slots.splice(0).map((slot) => this.#end(slot)), ...this.#ending]);
    await this.#ocr.close();
  }

  #dispatch(): void {
    if (this.#broken) {
      for (const pending of this.#queue.splice(0)) pending.reject(this.#broken);
      return;
    }
    while (this.#queue.length > 0 && !this.#aloneRunning) {
      const next = this.#queue[0] as Pending;
      if (next.alone) {
        if (this.busy > 0) return;
        // A fresh thread: nothing an earlier document left in one can weigh on this try.
        const idle = this.#slots.find((candidate) => !candidate.busy);
        if (idle) this.#replace(idle);
        this.#queue.shift();
        this.#aloneRunning = true;
        // The document's time starts once the thread is up: starting one is not the document's doing.
        const fresh = this.#spawn();
        fresh.busy = true;
        fresh.ready.then(
          () => this.#execute(fresh, next),
          (error: unknown) => {
            this.#replace(fresh);
            this.#aloneRunning = false;
            next.reject(this.#broken ?? new EngineCrashError(`a parser thread could not start: ${error instanceof Error ? error.message : String(error)}`));
            this.#dispatch();
          },
        );
        return;
      }
      let slot = this.#slots.find((candidate) => !candidate.busy);
      if (!slot && this.#slots.length + this.#recycling < this.size) slot = this.#spawn();
      if (!slot) {
        this.#prefetch();
        return;
      }
      this.#queue.shift();
      this.#execute(slot, next);
    }
  }

  /**
   * Every thread busy: each is posted the next waiting document ahead, one at most, so that it starts it the moment
   * its current one ends. Otherwise a thread that posts a result waits for this thread to wake, read the result and
   * post it another document; on a loaded machine (its own LiteParse threads, other processes) this thread is often
   * not running then, and the engine thread sits idle. Not for a document run alone, nor one read with WebAssembly
   * (it waits for PDFium's compiled module), nor to a thread still starting or about to be recycled.
   */
  #prefetch(): void {
    for (const slot of this.#slots) {
      const next = this.#queue[0];
      if (!next || next.alone || next.pdfium) return;
      if (!slot.busy || !slot.started || slot.next || slot.retiring) continue;
      this.#queue.shift();
      this.#execute(slot, next, true);
    }
  }

  #spawn(): Slot {
    return this.#adopt(startThread(this.#threadConfig));
  }

  /** A started thread becomes one of the pool's. */
  #adopt(thread: StartedThread): Slot {
    const { worker, stageBoard, nativeBoard, ready } = thread;
    this.#ocr.serve(worker);
    this.#threadsStarted += 1;
    const slot: Slot = { worker, stageBoard, nativeBoard, busy: false, ready, started: false, wear: 0 };
    ready.then(
      () => {
        slot.started = true;
        this.#anyStarted = true;
      },
      (error: unknown) => this.#failedToStart(slot, error),
    );
    this.#slots.push(slot);
    return slot;
  }

  /**
   * A thread's start failed. Idle (started ahead of any document), it leaves the pool: a document posted to it would
   * wait for an answer that never comes. The pool is broken when enough failed and none ever started
   * (BROKEN_AFTER_START_FAILURES). A busy one's document hears of its end itself (`#execute`).
   */
  #failedToStart(slot: Slot, error: unknown): void {
    if (this.#closed) return;
    if (!slot.busy && this.#slots.includes(slot)) void this.#replace(slot);
    if (!this.#anyStarted && !this.#broken && ++this.#startFailures >= BROKEN_AFTER_START_FAILURES) this.#broken = new EngineStartError(error);
    this.#dispatch();
  }

  /** `stopped`: the thread is ended in the middle of a document (its time ran out, it died), not recycled. */
  #replace(slot: Slot, stopped = false): Promise<void> {
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
    this.#ocr.abandon(slot.worker, stopped);
    const ending = this.#end(slot).finally(() => this.#ending.delete(ending));
    this.#ending.add(ending);
    return ending;
  }

  /**
   * Ends the thread, once no native call of it is out (native-calls.ts): ending it during one would abort the
   * process. A call that never returns (a hostile PDF PDFium spins on) keeps its thread, out of the pool, until
   * `NATIVE_CALL_PATIENCE_MS`; ended then, the process may abort, which is no worse than the thread spinning forever.
   */
  async #end(slot: Slot): Promise<void> {
    markEnding(slot.nativeBoard);
    const giveUpAt = Date.now() + NATIVE_CALL_PATIENCE_MS;
    let waited = false;
    while (nativeCallsOut(slot.nativeBoard) > 0 && Date.now() < giveUpAt) {
      waited = true;
      await sleep(NATIVE_CALL_POLL_MS);
    }
    // The answer has reached the thread; its native thread lets go of the handle just after: give it that moment.
    if (waited) await sleep(NATIVE_CALL_POLL_MS);
    await slot.worker.terminate();
  }

  /**
   * After a document that ended well on `slot`: the thread is replaced when it has converted its share or reports a
   * heap past the threshold, its successor started as soon as it has ended.
   */
  #recycleIfWorn(slot: Slot, wear: number, memory: ThreadMemory): void {
    const { heapBytes = 0, wasmBytes = 0, drewWithWasm } = memory;
    // A PDF its mode let draw with WebAssembly wears the thread as one only if it did: in mode auto, a page with text
    // and no image region to OCR is read as in mode fast (55 of the PDF benchmark's 99 pages).
    slot.wear += drewWithWasm === false ? Math.min(wear, LIGHT_WEAR) : wear;
    const worn = slot.retiring === true || slot.wear >= this.#recycleAfterDocuments || heapBytes >= this.#recycleHeapBytes || wasmBytes >= this.#recycleWasmBytes;
    if (!worn) return;
    // The document posted ahead to it is its last: the thread is replaced once that one ends.
    if (slot.busy) {
      slot.retiring = true;
      return;
    }
    // Its successor starts once it has ended, not beside it: two isolates side by side, the worn one's heap not yet
    // freed and the fresh one loading its modules, made each recycle a peak of the batch's resident set.
    this.#recycling += 1;
    void this.#replace(slot).finally(() => {
      this.#recycling -= 1;
      if (this.#closed) return;
      this.#spawn();
      this.#dispatch();
    });
  }

  /**
   * Posts the document to the thread. `ahead`: the thread is busy and starts it once its current document ends
   * (`#prefetch`); its time starts when that one's result arrives. Should the thread end before, it goes back to
   * the front of the queue, not having run.
   */
  #execute(slot: Slot, pending: Pending, ahead = false): void {
    slot.busy = true;
    const { worker } = slot;
    let settled = false;
    let begun = !ahead;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: () => void, healthy: boolean, memory: ThreadMemory = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (!begun) {
        if (slot.next === prefetched) slot.next = undefined;
        if (this.#closed) pending.reject(new EngineCrashError('the engine is shut down'));
        else this.#queue.unshift(pending);
        this.#dispatch();
        return;
      }
      if (healthy) {
        const next = slot.next;
        slot.next = undefined;
        if (!next) slot.busy = false;
        this.#recycleIfWorn(slot, pending.wear, memory);
        next?.begin();
      } else this.#replace(slot, true);
      if (pending.alone) this.#aloneRunning = false;
      outcome();
      this.#dispatch();
    };
    // A document given to a thread still starting waits for it on its own time: a timeout then says so, where a
    // loaded machine is the likely cause, rather than naming no stage.
    if (!slot.started) pending.stage ??= 'starting the parser thread';
    // The thread clears the board itself as it starts each document (a document posted ahead starts there first).
    if (!ahead) clearStage(slot.stageBoard);
    const stage = () => readStage(slot.stageBoard) ?? pending.stage;
    const during = () => {
      const now = stage();
      return now === undefined ? '' : ` while ${now}`;
    };
    const onMessage = (message: ThreadMessage) => {
      if (!('id' in message) || message.id !== pending.task.id) return;
      // A thread answers in order: the document before this one has ended already.
      if (!begun) begin();
      if (message.ok) finish(() => pending.resolve({ data: decodeResult(message.json), images: message.images }), true, message);
      else if (message.error.kind === 'document') {
        const { apiCode, message: text, detail } = message.error;
        finish(() => pending.reject(new EngineError(apiCode, text, { detail })), true, message);
      } else {
        // A converter threw on these bytes: it would again (docs/limits-and-retries.md, "The local engine").
        const detail = message.error.message;
        finish(() => pending.reject(new EngineError('CONVERSION_FAILED', `the converter failed on this document${during()}`, { detail })), true, message);
      }
    };
    const onError = (error: Error) => {
      // Out of memory before it started, the thread never read the document: a start that failed (#failedToStart).
      const oom = slot.started && (/heap|memory/i.test(error.message) || (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY');
      finish(
        () =>
          pending.reject(
            oom
              ? new EngineError('DOCUMENT_TOO_COMPLEX', `the document needed more than the parser's ${this.#threadConfig.maxHeapMb} MB memory limit${during()}`)
              : new EngineCrashError(`the parser thread failed${during()}: ${error.message}`, { threadDied: true, stage: stage() }),
          ),
        false,
      );
    };
    const onExit = (code: number) =>
      finish(() => pending.reject(new EngineCrashError(`the parser thread exited (code ${code})${during()}`, { threadDied: true, stage: stage() })), false);
    // A document that spins is stopped by killing its thread: pdfjs and SheetJS offer no way to interrupt them.
    const begin = () => {
      begun = true;
      if (slot.next === prefetched) slot.next = undefined;
      timer = setTimeout(() => finish(() => pending.reject(new EngineTimeoutError(pending.timeoutMs, stage())), false), pending.timeoutMs);
    };
    const prefetched: Prefetched = { begin };
    if (ahead) slot.next = prefetched;
    else begin();
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    this.#post(slot, pending, () => settled);
  }

  /**
   * Posts the document to its thread, after every one given to that thread before it: the thread answers in the
   * order it receives, and the pool counts on that order (a document posted ahead starts when the one before it
   * ends). A document read with WebAssembly is posted with PDFium's compiled module, so it waits for the compilation
   * (the first one some 100 ms, off this thread; the rest a promise's turn), and one posted ahead behind it waits
   * too. Overtaking it, that one's answer made the pool count the thread idle with the PDF still in it; were the
   * thread worn, it was replaced under the PDF (which failed as if its thread had died) and a thread too many started.
   */
  #post(slot: Slot, pending: Pending, settled: () => boolean): void {
    const { worker } = slot;
    if (!pending.pdfium && !slot.posting) {
      worker.postMessage(pending.task);
      return;
    }
    const module = pending.pdfium ? (this.#pdfium ??= compilePdfium()) : undefined;
    const posting = Promise.all([module, slot.posting]).then(([pdfium]) => {
      if (!settled()) worker.postMessage(pdfium ? { ...pending.task, pdfium } : pending.task);
      if (slot.posting === posting) slot.posting = undefined;
    });
    slot.posting = posting;
  }
}
