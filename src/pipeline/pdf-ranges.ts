/**
 * Long PDFs: whether one needs splitting, into which page ranges, and the range documents themselves. pdf-lib copies
 * whole pages (content streams, fonts, images), so a range parses as those pages parse inside the whole file.
 */
import type * as PdfLib from 'pdf-lib';
import type { PDFDocument } from 'pdf-lib';
import { DEFAULT_TIMEOUT_MS, MAX_FILE_BYTES } from '../contract/limits.js';
import { DocmillError } from '../errors/docmill-error.js';

/**
 * What one page may cost the API at worst, for the default range size: a request of `timeout` ms holds
 * timeout / PAGE_BUDGET_MS pages (60 at the default 30 s, 600 at the maximum 300 s). OCR of a dense scanned page
 * takes about this long on the local engine; text pages take a few milliseconds.
 */
export const PAGE_BUDGET_MS = 500;

/** The most pages per range for a request timeout, when `--split-pages` is not given. */
export function defaultSplitPages(timeoutMs: number | undefined): number {
  return Math.max(1, Math.floor((timeoutMs ?? DEFAULT_TIMEOUT_MS) / PAGE_BUDGET_MS));
}

export interface PageRange {
  /** 1-based, inclusive. */
  first: number;
  last: number;
}

/** A PDF that cannot be split: unreadable by pdf-lib, encrypted, or with a page that alone is over the limit. */
export class PdfSplitError extends DocmillError {
  constructor(file: string, cause: string, options?: { cause?: unknown }) {
    super('PDF_SPLIT_FAILED', `${file}: cannot split into page ranges: ${cause}`, options);
    this.name = 'PdfSplitError';
  }
}

/**
 * pdf-lib, loaded when a first PDF is split: a run of anything else does without it, and loading it costs the better
 * part of a second of every run's start (bench/small-docs.ts).
 */
let pdfLib: Promise<typeof PdfLib> | undefined;
function loadPdfLib(): Promise<typeof PdfLib> {
  pdfLib ??= import('pdf-lib');
  return pdfLib;
}

/** Loads a PDF for splitting (its page count, then its ranges); refuses encrypted ones. */
export async function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  const { PDFDocument } = await loadPdfLib();
  return PDFDocument.load(bytes, { ignoreEncryption: false, updateMetadata: false });
}

/**
 * The ranges covering the first `covered` pages, each at most `perRange` pages and, judging by the file's average
 * bytes per page, comfortably under the upload limit (a range that turns out larger is halved when cut).
 */
export function planRanges(covered: number, perRange: number, fileBytes: number, totalPages: number, maxBytes = MAX_FILE_BYTES): PageRange[] {
  const bytesPerPage = fileBytes / Math.max(1, totalPages);
  const bySize = Math.max(1, Math.floor((maxBytes * 0.8) / Math.max(1, bytesPerPage)));
  const size = Math.max(1, Math.min(perRange, bySize));
  const ranges: PageRange[] = [];
  for (let first = 1; first <= covered; first += size) ranges.push({ first, last: Math.min(covered, first + size - 1) });
  return ranges;
}

/** The bytes of a new PDF holding `range`'s pages of `source`. */
export async function cutRange(source: PDFDocument, range: PageRange): Promise<Uint8Array> {
  const { PDFDocument } = await loadPdfLib();
  const target = await PDFDocument.create({ updateMetadata: false });
  const indices = Array.from({ length: range.last - range.first + 1 }, (_, i) => range.first - 1 + i);
  const pages = await target.copyPages(source, indices);
  for (const page of pages) target.addPage(page);
  const title = source.getTitle();
  if (title) target.setTitle(title);
  return target.save({ useObjectStreams: true });
}

/**
 * Cuts `range`, halving it until every piece is under `maxBytes`; yields each piece with its bytes. A single page
 * over the limit cannot be sent at all.
 */
export async function* cutUnderLimit(
  source: PDFDocument,
  range: PageRange,
  file: string,
  maxBytes = MAX_FILE_BYTES,
): AsyncGenerator<{ range: PageRange; bytes: Uint8Array }> {
  const bytes = await cutRange(source, range);
  if (bytes.byteLength <= maxBytes) {
    yield { range, bytes };
    return;
  }
  if (range.first === range.last) {
    throw new PdfSplitError(file, `page ${range.first} alone is ${bytes.byteLength} bytes, over the parse API's ${maxBytes}-byte limit`);
  }
  const middle = Math.floor((range.first + range.last) / 2);
  yield* cutUnderLimit(source, { first: range.first, last: middle }, file, maxBytes);
  yield* cutUnderLimit(source, { first: middle + 1, last: range.last }, file, maxBytes);
}
