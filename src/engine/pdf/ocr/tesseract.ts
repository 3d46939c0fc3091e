/**
 * tesseract.js, fully offline: the language data is read from the installed @tesseract.js-data packages (gzipped
 * as it is stored), never fetched and never cached to disk (`cacheMethod: 'none'`). One tesseract worker (itself
 * a worker thread) per language set and engine thread, created on the first page to OCR in that set and reused
 * for every later document that reads in it; at most two sets are kept per thread (a third ends the one used least
 * recently). They end with the engine thread (a thread killed for its time limit takes its workers with it).
 */
import { mkdtempSync, rmSync, symlinkSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createWorker, OEM, type Page, type Worker } from 'tesseract.js';

import { DEFAULT_OCR_LANGUAGE, languageDataFile } from './languages.js';

export { DEFAULT_OCR_LANGUAGE };

/** One recognised word, in bitmap pixels. */
export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** 0..1. */
  confidence: number;
}

/** One recognised line: its words left to right (right to left for RTL), its baseline and row height in pixels. */
export interface OcrLine {
  words: OcrWord[];
  /** Baseline y at `x0` and `x1` of the line (it may slope). */
  baseline: { x0: number; y0: number; x1: number; y1: number };
  rowHeight: number;
  rtl: boolean;
}


/**
 * Starting a worker costs about four page readings (measured: 4.0-5.7 s against 0.9-1.1 s on a loaded 2-core
 * machine), so documents that alternate between two languages (a German one, an English one) keep one each; a
 * thread holding more would hold more models in memory for little gain.
 */
const KEPT_LANGUAGE_SETS = 2;

/** This thread's workers by the languages they read ('deu+eng'), the most recently used last. */
const workers = new Map<string, Promise<Worker>>();

function workerFor(languages: string): Promise<Worker> {
  const kept = workers.get(languages);
  if (kept) {
    workers.delete(languages);
    workers.set(languages, kept);
    return kept;
  }
  // Pages are read one after another, so every kept worker is idle: the least recently used can end now.
  while (workers.size >= KEPT_LANGUAGE_SETS) {
    const [oldest, old] = workers.entries().next().value!;
    workers.delete(oldest);
    void old.then((worker) => worker.terminate()).catch(() => undefined);
  }
  const worker = startWorker(languages.split('+'));
  workers.set(languages, worker);
  // A worker that failed to start is not kept: the next page tries again and reports its own failure.
  worker.catch(() => {
    if (workers.get(languages) === worker) workers.delete(languages);
  });
  return worker;
}

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
    return await Promise.race([
      createWorker(codes.join('+'), OEM.LSTM_ONLY, {
        langPath: shared ?? [...folders][0]!,
        cacheMethod: 'none',
        gzip: true,
        errorHandler: (message: unknown) => failed(new Error(`tesseract: ${String(message)}`)),
      }),
      failure,
    ]);
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

/** The workers whose lines of low confidence are not read again inverted (tesseract's `tessedit_do_invert`). */
const notInverting = new WeakSet<Worker>();

/**
 * Recognises the text of an image file (PGM, PNG...) in `languages` (tesseract codes; every one installed). With
 * `invert: false`, a line tesseract reads with low confidence is not read again as light on dark: a chart or a
 * diagram without dark fills has many such lines and no light text, and the second reading cost a quarter of
 * the time of its image regions on the PDF benchmark's pages (a scanned page keeps it: a heading set light on a
 * dark band).
 */
export async function recogniseLines(
  image: Uint8Array,
  languages: string | readonly string[] = DEFAULT_OCR_LANGUAGE,
  options: { invert?: boolean } = {},
): Promise<OcrLine[]> {
  const worker = await workerFor(typeof languages === 'string' ? languages : languages.join('+'));
  const invert = options.invert ?? true;
  if (invert === notInverting.has(worker)) {
    await worker.setParameters({ tessedit_do_invert: invert ? '1' : '0' });
    if (invert) notInverting.delete(worker);
    else notInverting.add(worker);
  }
  const result = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { text: false, blocks: true });
  return linesOf(result.data);
}

/** Ends this thread's tesseract workers (a pool closing its threads needs nothing: they end with the thread). */
export async function terminateOcrWorkers(): Promise<void> {
  const pending = [...workers.values()];
  workers.clear();
  await Promise.all(pending.map((worker) => worker.then((started) => started.terminate()).catch(() => undefined)));
}
