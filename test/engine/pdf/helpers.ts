/** Running the PDF converter in tests. */
import { readFileSync } from 'node:fs';
import type { PDFFont, PDFPage } from 'pdf-lib';
import { parseOptionsSchema, type PdfMode } from '../../../src/contract/options.js';
import { convertPdf } from '../../../src/engine/pdf/convert-pdf.js';
import { useLiteParseModule } from '../../../src/engine/pdf/liteparse/load.js';
import type { DocumentModel, ModelBlock } from '../../../src/engine/model.js';

/** The test corpus's PDFs (test/fixtures/corpus/pdf). */
import { CORPUS_URL } from '../../helpers/corpus.js';
export const PDF_CORPUS = new URL('pdf/', CORPUS_URL);
export const FIXTURE_DIR = new URL('./fixtures/', import.meta.url);

export interface RunOptions {
  mode?: PdfMode;
  maxPages?: number;
}

export function optionsFor(run: RunOptions = {}) {
  return parseOptionsSchema.parse({
    parsers: [{ type: 'pdf', mode: run.mode ?? 'auto', ...(run.maxPages ? { maxPages: run.maxPages } : {}) }],
  });
}

export function convertBytes(bytes: Uint8Array, run: RunOptions = {}, fileName = 'test.pdf'): Promise<DocumentModel> {
  return convertPdf({ bytes, fileName, extension: '.pdf', options: optionsFor(run) });
}

/** A module that fails to load as LiteParse does on a platform without its prebuilt native module. */
export const LITEPARSE_WITHOUT_NATIVE = new URL('./liteparse-without-native.mjs', import.meta.url).href;

/**
 * The converter as on a platform where LiteParse cannot load: the built-in pdfjs path reads every page. For
 * what only that path does (its patched worker, a text layer PDFium would read differently).
 */
export async function convertWithPdfjs(bytes: Uint8Array, run: RunOptions = {}): Promise<DocumentModel> {
  useLiteParseModule(LITEPARSE_WITHOUT_NATIVE);
  try {
    return await convertBytes(bytes, run);
  } finally {
    useLiteParseModule(undefined);
  }
}

export function corpusBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(name, PDF_CORPUS)));
}

export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(name, FIXTURE_DIR)));
}

export function allBlocks(model: DocumentModel): ModelBlock[] {
  return model.pages.flatMap((page) => page.blocks);
}

/** The document's main-content Markdown as a renderer would join it (furniture left out). */
export function mainMarkdown(model: DocumentModel): string {
  return allBlocks(model)
    .filter((block) => !block.furniture)
    .map((block) => block.markdown)
    .join('\n\n');
}

/** Resolves with the error a promise rejects with (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<{ code?: string; apiCode?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; apiCode?: string; message: string };
  }
  throw new Error('expected the promise to reject');
}

/** Draws `text` on a pdf-lib page with its right edge at `x1` (figures in a column, dates flush right). */
export function flushRight(page: PDFPage, text: string, x1: number, y: number, font: PDFFont, size = 10): void {
  page.drawText(text, { x: x1 - font.widthOfTextAtSize(text, size), y, size, font });
}
