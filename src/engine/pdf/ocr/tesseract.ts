/**
 * tesseract.js, fully offline: the language data is read from the installed @tesseract.js-data packages (gzipped
 * as it is stored), never fetched and never cached to disk (`cacheMethod: 'none'`). A tesseract worker is itself
 * a worker thread holding its language model and WebAssembly memory (100-150 MB): the engine's pool keeps one set
 * for all its threads (ocr-relay.ts), which hand it their pages; code that converts in its own thread (tests,
 * benchmarks) reads with workers of that thread.
 */
import { mkdtempSync, rmSync, symlinkSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createWorker, OEM, type Page, type Worker } from 'tesseract.js';

import { DEFAULT_OCR_LANGUAGE, languageDataFile } from './languages.js';
import type { OcrLine, OcrWord } from './ocr-line.js';
import { relayedRecogniser } from './relayed-recogniser.js';
import { RecognitionMemo } from './recognition-memo.js';

export { DEFAULT_OCR_LANGUAGE };

export type { OcrLine } from './ocr-line.js';


/**
 * Starting a worker costs about four page readings (measured: 4.0-5.7 s against 0.9-1.1 s on a loaded 2-core
 * machine), so documents that alternate between two languages (a German one, an English one) keep one each; more
 * would hold more models in memory for little gain.
 */
const KEPT_LANGUAGE_SETS = 2;

interface Kept {
  worker: Promise<Worker>;
  /** Pages given to it and not yet read: a worker is ended only when it has none. */
  pages: number;
  /**
   * Settles when the page read last is done. A worker reads one page at a time: two recognitions started together
   * interleave their steps in its script, so each waits for the one before.
   */
  last: Promise<unknown>;
  /** An extra worker's end once it has had no page for `extraIdleMs`. */
  idleTimer?: NodeJS.Timeout | undefined;
}

/**
 * The workers of one language set. The first is kept as long as the set is; the others are extras, started while
 * the set has been reading without a pause for `sustainedMs` and every worker of it is busy, and ended after
 * `extraIdleMs` without a page.
 */
interface Crew {
  workers: Kept[];
  /**
   * Since when the set's pages have kept coming: one read or waiting, with no pause between them longer than
   * `pauseMs` (undefined: none yet).
   */
  busySince: number | undefined;
  /** Since when none of its pages has been read or waiting (undefined: one is now). */
  idleSince: number | undefined;
}

/** Workers ended by close() or to make room: asked anything, tesseract.js would neither answer nor fail. */
const endedWorkers = new WeakSet<Worker>();

function endWorker(worker: Worker): Promise<unknown> {
  endedWorkers.add(worker);
  return worker.terminate();
}

/** Ends a kept worker (its idle timer with it); settles once it has ended, or failed to start. */
function endKept(kept: Kept): Promise<unknown> {
  clearTimeout(kept.idleTimer);
  return kept.worker.then(endWorker).catch(() => undefined);
}

/**
 * A page that waited for a worker ended meanwhile (its pool closed the workers: the thread that sent it timed out)
 * fails here: tesseract.js sends a job to an ended worker as an unhandled rejection and never settles the job.
 */
function checkRunning(worker: Worker): void {
  if (endedWorkers.has(worker)) throw new Error('the OCR worker was ended before this page was read');
}

/** The workers whose lines of low confidence are not read again inverted (tesseract's `tessedit_do_invert`). */
const notInverting = new WeakSet<Worker>();

export interface TesseractWorkersOptions {
  /** All end after this long without a page to read (default: kept until close()). */
  idleMs?: number | undefined;
  /** The most workers a language set may have at once (default 1): an engine pool gives its thread count. */
  perSet?: number | undefined;
  /** How long a set must have been reading without a pause before an extra worker starts (default 5 s). */
  sustainedMs?: number | undefined;
  /** An extra worker ends after this long without a page (default 15 s). */
  extraIdleMs?: number | undefined;
  /** The longest pause between two pages that still counts as pages that keep coming (default 1 s). */
  pauseMs?: number | undefined;
}

/**
 * Starting a worker costs about four page readings, and each holds 100-150 MB: an extra one pays only for a stream
 * of pages (a batch of scans), not for two figures that happen to be read at the same moment.
 */
const SUSTAINED_MS = 5_000;
const EXTRA_IDLE_MS = 15_000;
/**
 * The image regions of text pages (mode auto) come a few at a time, each read in a tenth of a second, with the
 * layout of the next pages between them: short pauses, which a stream of them still has.
 */
const PAUSE_MS = 1_000;

/**
 * Tesseract workers by the languages they read ('deu+eng'), started on the first page to read in their set and
 * reused for every later one; at most KEPT_LANGUAGE_SETS sets are kept (another ends the one used least recently,
 * once idle). A set has one worker, and up to `perSet` while its pages keep coming faster than one worker reads
 * them (a batch of scans on several threads): tesseract reads a page on one core. With `idleMs`, all end after that
 * long without a page to read: a batch whose scans are done does not keep their models for the rest of its run.
 */
export class TesseractWorkers {
  readonly #crews = new Map<string, Crew>();
  readonly #idleMs: number | undefined;
  readonly #perSet: number;
  readonly #sustainedMs: number;
  readonly #extraIdleMs: number;
  readonly #pauseMs: number;
  /** Pictures read already, by their bytes: the same one again is not read twice (recognition-memo.ts). */
  readonly #remembered = new RecognitionMemo();
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(options: TesseractWorkersOptions = {}) {
    this.#idleMs = options.idleMs;
    this.#perSet = Math.max(1, options.perSet ?? 1);
    this.#sustainedMs = options.sustainedMs ?? SUSTAINED_MS;
    this.#extraIdleMs = options.extraIdleMs ?? EXTRA_IDLE_MS;
    this.#pauseMs = options.pauseMs ?? PAUSE_MS;
  }

  /** Workers running now, over every language set (started or starting). */
  get size(): number {
    let count = 0;
    for (const crew of this.#crews.values()) count += crew.workers.length;
    return count;
  }

  /**
   * The lines of an image file (PGM, PNG...) read in `languages` ('deu+eng'; every one installed). With `invert`
   * false, lines of low confidence are not read again as light on dark (recogniseLines). An image read already (the
   * same bytes, languages and `invert`) is answered from memory (recognition-memo.ts).
   */
  recognise(image: Uint8Array, languages: string, invert = true): Promise<OcrLine[]> {
    return this.#remembered.recognise(image, languages, invert, () => this.#read(image, languages, invert));
  }

  async #read(image: Uint8Array, languages: string, invert: boolean): Promise<OcrLine[]> {
    clearTimeout(this.#idleTimer);
    const crew = this.#crewFor(languages);
    if (crew.idleSince !== undefined && Date.now() - crew.idleSince > this.#pauseMs) crew.busySince = undefined;
    crew.idleSince = undefined;
    const kept = this.#workerOf(languages, crew);
    clearTimeout(kept.idleTimer);
    crew.busySince ??= Date.now();
    kept.pages++;
    try {
      // The parameter is set in the worker's turn, so a page of another caller never reads with this one's setting.
      const read = Promise.all([kept.worker, kept.last]).then(async ([worker]) => {
        checkRunning(worker);
        if (invert === notInverting.has(worker)) {
          await worker.setParameters({ tessedit_do_invert: invert ? '1' : '0' });
          if (invert) notInverting.delete(worker);
          else notInverting.add(worker);
          checkRunning(worker);
        }
        const page = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { text: false, blocks: true });
        await forgetImage(worker);
        return page;
      });
      kept.last = read.catch(() => undefined);
      return linesOf((await read).data);
    } finally {
      kept.pages--;
      if (kept.pages === 0) this.#restExtra(crew, kept);
      if (crew.workers.every((worker) => worker.pages === 0)) crew.idleSince = Date.now();
      if (this.#idleMs !== undefined) {
        clearTimeout(this.#idleTimer);
        this.#idleTimer = setTimeout(() => this.#endIdle(), this.#idleMs).unref();
      }
    }
  }

  /** Ends every worker (a later page starts one again); a page being read then is never answered. */
  async close(): Promise<void> {
    clearTimeout(this.#idleTimer);
    const kept = [...this.#crews.values()].flatMap((crew) => crew.workers);
    this.#crews.clear();
    await Promise.all(kept.map(endKept));
  }

  #endIdle(): void {
    for (const [set, crew] of this.#crews) {
      if (crew.workers.some((worker) => worker.pages > 0)) continue;
      this.#crews.delete(set);
      for (const worker of crew.workers) void endKept(worker);
    }
  }

  /** The set's crew, made the most recently used; a new set may end the least recently used idle one. */
  #crewFor(languages: string): Crew {
    const crew = this.#crews.get(languages);
    if (crew) {
      this.#crews.delete(languages);
      this.#crews.set(languages, crew);
      return crew;
    }
    // The least recently used first, and only one with no page to read.
    for (const [set, old] of this.#crews) {
      if (this.#crews.size < KEPT_LANGUAGE_SETS) break;
      if (old.workers.some((worker) => worker.pages > 0)) continue;
      this.#crews.delete(set);
      for (const worker of old.workers) void endKept(worker);
    }
    const fresh: Crew = { workers: [], busySince: undefined, idleSince: undefined };
    this.#crews.set(languages, fresh);
    return fresh;
  }

  /**
   * The worker a page of the set goes to: the first idle one (the kept one before extras, so that extras fall idle
   * and end), a new one while the set has been busy for `sustainedMs` and has room, else the one with fewest pages.
   */
  #workerOf(languages: string, crew: Crew): Kept {
    const idle = crew.workers.find((worker) => worker.pages === 0);
    if (idle) return idle;
    const sustained = crew.busySince !== undefined && Date.now() - crew.busySince >= this.#sustainedMs;
    if (crew.workers.length === 0 || (sustained && crew.workers.length < this.#perSet)) return this.#start(languages, crew);
    return crew.workers.reduce((least, worker) => (worker.pages < least.pages ? worker : least));
  }

  #start(languages: string, crew: Crew): Kept {
    const fresh: Kept = { worker: startWorker(languages.split('+')), pages: 0, last: Promise.resolve() };
    crew.workers.push(fresh);
    // A worker that failed to start is not kept: the next page tries again and reports its own failure.
    fresh.worker.catch(() => {
      const at = crew.workers.indexOf(fresh);
      if (at >= 0) crew.workers.splice(at, 1);
      if (crew.workers.length === 0 && this.#crews.get(languages) === crew) this.#crews.delete(languages);
    });
    return fresh;
  }

  /** An extra worker left without a page ends after `extraIdleMs` unless a page comes first. */
  #restExtra(crew: Crew, kept: Kept): void {
    if (crew.workers[0] === kept) return;
    kept.idleTimer = setTimeout(() => {
      const at = crew.workers.indexOf(kept);
      if (kept.pages > 0 || at < 0) return;
      crew.workers.splice(at, 1);
      void endKept(kept);
    }, this.#extraIdleMs).unref();
  }
}

/**
 * tesseract.js writes each image to read into its worker's in-memory file system (`/input`), where it stays until the
 * next one, and keeps the last request (the image again) until another comes: for a page given as raw pixels, 8 MB
 * twice. Removing the file is such a request, and frees both.
 */
const IMAGE_FILE = '/input';

async function forgetImage(worker: Worker): Promise<void> {
  await worker.FS('unlink', [IMAGE_FILE]).catch(() => undefined);
}

/** This thread's own workers, for the pages it does not relay to a pool (ocr-relay.ts). */
const inThisThread = new TesseractWorkers();

async function startWorker(codes: readonly string[]): Promise<Worker> {
  const files = codes.map((code) => {
    const file = languageDataFile(code);
    if (!file) throw new Error(`no OCR data for ${code} (npm install @tesseract.js-data/${code})`);
    return { code, file };
  });
  const folders = new Set(files.map(({ file }) => dirname(file)));
  // tesseract.js loads every language of a worker from its one langPath, and each installed package has its own
  // folder: a set spanning packages is linked into a private folder, read once at start, removed right after.
  const shared = folders.size > 1 ? linkedFolder(files) : undefined;
  let failed: (error: Error) => void = () => undefined;
  // Without an error handler tesseract.js throws its failures from a message callback (the thread would die), and
  // with one a failed start never settles the worker's promise: the handler settles it.
  const failure = new Promise<never>((_resolve, reject) => {
    failed = reject;
  });
  failure.catch(() => undefined);
  try {
    const worker = await Promise.race([
      createWorker(codes.join('+'), OEM.LSTM_ONLY, {
        langPath: shared ?? [...folders][0]!,
        cacheMethod: 'none',
        gzip: true,
        errorHandler: (message: unknown) => failed(new Error(`tesseract: ${String(message)}`)),
      }),
      failure,
    ]);
    // tesseract read each language's file whole into its memory as it started; the file's copy in the worker's
    // in-memory file system (5 MB for English, more for others) is not read again.
    await Promise.all(codes.map((code) => worker.FS('unlink', [`${code}.traineddata`]).catch(() => undefined)));
    return worker;
  } finally {
    if (shared) rmSync(shared, { recursive: true, force: true });
  }
}

function linkedFolder(files: readonly { code: string; file: string }[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'docmill-ocr-'));
  for (const { code, file } of files) {
    const link = join(folder, `${code}.traineddata.gz`);
    try {
      symlinkSync(file, link);
    } catch {
      // Windows without the symlink privilege.
      copyFileSync(file, link);
    }
  }
  return folder;
}

function linesOf(page: Page): OcrLine[] {
  const lines: OcrLine[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words: OcrWord[] = [];
        for (const word of line.words) {
          const text = word.text.trim();
          if (!text) continue;
          const { x0, y0, x1, y1 } = word.bbox;
          words.push({ text, x0, y0, x1, y1, confidence: Math.min(1, Math.max(0, word.confidence / 100)) });
        }
        if (words.length === 0) continue;
        lines.push({
          words,
          baseline: line.baseline,
          rowHeight: line.rowAttributes?.rowHeight || line.bbox.y1 - line.bbox.y0,
          rtl: !paragraph.is_ltr,
        });
      }
    }
  }
  return lines;
}

/**
 * Recognises the text of an image file (PGM, PNG...) in `languages` (tesseract codes; every one installed). With
 * `invert: false`, a line tesseract reads with low confidence is not read again as light on dark: a chart or a
 * diagram without dark fills has many such lines and no light text, and the second reading cost a quarter of
 * the time of its image regions on the PDF benchmark's pages (a scanned page keeps it: a heading set light on a
 * dark band).
 */
export function recogniseLines(
  image: Uint8Array,
  languages: string | readonly string[] = DEFAULT_OCR_LANGUAGE,
  options: { invert?: boolean } = {},
): Promise<OcrLine[]> {
  const set = typeof languages === 'string' ? languages : languages.join('+');
  const invert = options.invert ?? true;
  const relayed = relayedRecogniser();
  return relayed ? relayed(image, set, invert) : inThisThread.recognise(image, set, invert);
}

/** Ends this thread's own tesseract workers (a pool's shared ones end with the pool). */
export function terminateOcrWorkers(): Promise<void> {
  return inThisThread.close();
}
