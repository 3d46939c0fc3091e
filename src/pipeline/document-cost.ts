/**
 * The estimated cost of one file, read locally: whether it is a PDF, its pages (counted without parsing), the
 * requests it takes (a long PDF goes in page ranges, as long-pdf.ts plans them), and the credits the hosted API's
 * rules give for it (credits.ts). Shared by the cost preview and the credit budget.
 */
import { readUploadBytes, type UploadSource } from '../backend/upload-source.js';
import { extensionOf } from '../contract/extensions.js';
import { MAX_FILE_BYTES } from '../contract/limits.js';
import { billedPages, estimateCredits, type CostOptions } from './credits.js';
import { countPdfPages, isPdf } from './pdf-page-count.js';
import { defaultSplitPages, planRanges } from './pdf-ranges.js';

export interface DocumentCost {
  pdf: boolean;
  /** Pages billed: a PDF's pages up to `maxPages`; 1 for other documents. */
  pages: number;
  credits: number;
  /** Requests it takes: more than 1 for a long PDF parsed in page ranges. */
  requests: number;
  /** Why the count is a guess (an unreadable PDF counts 1 page). */
  note?: string | undefined;
}

export type CostSettings = CostOptions & { timeout?: number | undefined };

/** `splitPages`: the workers' `--split-pages` (default: the options' timeout / 500 ms, as for the split itself). */
export async function costOfBytes(bytes: Uint8Array, fileName: string, options: CostSettings, splitPages?: number): Promise<DocumentCost> {
  if (!isPdf(bytes, fileName)) {
    return { pdf: false, pages: 1, requests: 1, credits: estimateCredits({ pdf: false, pages: 1 }, options) };
  }
  const counted = await countPdfPages(bytes);
  const document = { pdf: true, pages: counted.pages };
  const pages = billedPages(document, options);
  // Only a readable .pdf is split (long-pdf.ts); anything else goes whole.
  const splittable = counted.method !== 'unreadable' && extensionOf(fileName) === '.pdf';
  const perRange = splitPages ?? defaultSplitPages(options.timeout);
  const requests =
    splittable && (bytes.byteLength > MAX_FILE_BYTES || pages > perRange) ? planRanges(pages, perRange, bytes.byteLength, counted.pages).length : 1;
  return { pdf: true, pages, requests, credits: estimateCredits(document, options, requests), note: counted.note };
}

/** Reads an upload's bytes and estimates them. */
export async function costOfUpload(upload: UploadSource, options: CostSettings, splitPages?: number): Promise<DocumentCost> {
  return costOfBytes(await readUploadBytes(upload), upload.fileName, options, splitPages);
}
