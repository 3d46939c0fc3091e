/**
 * The estimated cost of one file, read locally: whether it is a PDF, its pages (counted without parsing), and the
 * credits the hosted API's rules give for it (credits.ts). Shared by the cost preview and the credit budget.
 */
import type { UploadSource } from '../backend/upload-source.js';
import { billedPages, estimateCredits, type CostOptions } from './credits.js';
import { countPdfPages, isPdf } from './pdf-page-count.js';

export interface DocumentCost {
  pdf: boolean;
  /** Pages billed: a PDF's pages up to `maxPages`; 1 for other documents. */
  pages: number;
  credits: number;
  /** Why the count is a guess (an unreadable PDF counts 1 page). */
  note?: string | undefined;
}

export async function costOfBytes(bytes: Uint8Array, fileName: string, options: CostOptions): Promise<DocumentCost> {
  if (!isPdf(bytes, fileName)) {
    return { pdf: false, pages: 1, credits: estimateCredits({ pdf: false, pages: 1 }, options) };
  }
  const counted = await countPdfPages(bytes);
  const document = { pdf: true, pages: counted.pages };
  return { pdf: true, pages: billedPages(document, options), credits: estimateCredits(document, options), note: counted.note };
}

/** Reads an upload's bytes (at most the API's 50 MiB) and estimates them. */
export async function costOfUpload(upload: UploadSource, options: CostOptions): Promise<DocumentCost> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of upload.open()) chunks.push(chunk);
  return costOfBytes(Buffer.concat(chunks), upload.fileName, options);
}
