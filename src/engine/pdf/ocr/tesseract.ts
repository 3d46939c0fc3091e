/**
 * tesseract.js, fully offline: the language data is read from the installed @tesseract.js-data package (gzipped
 * as it is stored), never fetched and never cached to disk (`cacheMethod: 'none'`). One tesseract worker (itself
 * a worker thread) per engine thread, created on the first page to OCR and reused for every later document; it
 * ends with the engine thread (a thread killed for its time limit takes its tesseract worker with it).
 */
import { createWorker, OEM, type Page, type Worker } from 'tesseract.js';

import { DEFAULT_OCR_LANGUAGE, languageDataFolder } from './languages.js';

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


const workers = new Map<string, Promise<Worker>>();

function workerFor(language: string): Promise<Worker> {
  let worker = workers.get(language);
  if (!worker) {
    worker = createWorker(language, OEM.LSTM_ONLY, {
      langPath: languageDataFolder(language) ?? languageDataFolder(DEFAULT_OCR_LANGUAGE),
      cacheMethod: 'none',
      gzip: true,
    });
    // A worker that failed to start is not kept: the next page tries again and reports its own failure.
    worker.catch(() => workers.delete(language));
    workers.set(language, worker);
  }
  return worker;
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

/** Recognises the text of an image file (PGM, PNG...) in `language`. */
export async function recogniseLines(image: Uint8Array, language = DEFAULT_OCR_LANGUAGE): Promise<OcrLine[]> {
  const worker = await workerFor(language);
  const result = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { text: false, blocks: true });
  return linesOf(result.data);
}

/** Ends this thread's tesseract workers (a pool closing its threads needs nothing: they end with the thread). */
export async function terminateOcrWorkers(): Promise<void> {
  const pending = [...workers.values()];
  workers.clear();
  await Promise.all(pending.map(async (worker) => (await worker).terminate().catch(() => undefined)));
}
