/**
 * tesseract.js, fully offline: the language data is read from the installed @tesseract.js-data packages (gzipped
 * as it is stored), never fetched and never cached to disk (`cacheMethod: 'none'`). One tesseract worker (itself
 * a worker thread) per engine thread, created on the first page to OCR and reused for every later document that
 * reads in the same languages; another language set replaces it (one model set in memory per thread). It ends
 * with the engine thread (a thread killed for its time limit takes its tesseract worker with it).
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


/** This thread's worker and the languages it reads ('deu+eng'). */
let current: { languages: string; worker: Promise<Worker> } | undefined;

function workerFor(languages: string): Promise<Worker> {
  if (current?.languages === languages) return current.worker;
  const previous = current?.worker;
  const worker = (async () => {
    // Pages are read one after another, so the previous worker is idle: end it before loading the next models.
    await previous?.then((old) => old.terminate()).catch(() => undefined);
    return startWorker(languages.split('+'));
  })();
  const entry = { languages, worker };
  current = entry;
  // A worker that failed to start is not kept: the next page tries again and reports its own failure.
  worker.catch(() => {
    if (current === entry) current = undefined;
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

/** Recognises the text of an image file (PGM, PNG...) in `languages` (tesseract codes; every one installed). */
export async function recogniseLines(image: Uint8Array, languages: string | readonly string[] = DEFAULT_OCR_LANGUAGE): Promise<OcrLine[]> {
  const worker = await workerFor(typeof languages === 'string' ? languages : languages.join('+'));
  const result = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { text: false, blocks: true });
  return linesOf(result.data);
}

/** Ends this thread's tesseract worker (a pool closing its threads needs nothing: it ends with the thread). */
export async function terminateOcrWorkers(): Promise<void> {
  const pending = current?.worker;
  current = undefined;
  await pending?.then((worker) => worker.terminate()).catch(() => undefined);
}
