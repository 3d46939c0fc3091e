/**
 * What a parse costs on the hosted API, by its published credit rules. One pure function, used by the cost preview
 * (`--dry-run`) and by the credit budget (`--max-credits`) before each document is sent:
 *
 * - 1 credit per document; a PDF costs 1 per page instead (pages parsed: counted up to `maxPages`);
 * - the `json` format: +4 per document;
 * - `redactPII`: +4 per document, and +4 per PDF page beyond the first;
 * - `zeroDataRetention`: +1 per document.
 *
 * The API's own `creditsUsed` is what is charged; this is the estimate made before sending. A long PDF sent in
 * page ranges (long-pdf.ts) is one request per range: the per-document charges (json, zero data retention) apply to
 * each request, while pages and redaction add up to the same as one request's.
 */
import type { ParseOptions } from '../contract/options.js';

export const CREDIT_RULES = {
  perDocument: 1,
  perPdfPage: 1,
  jsonFormat: 4,
  redactPii: 4,
  redactPiiPerExtraPdfPage: 4,
  zeroDataRetention: 1,
} as const;

/** The options that change the price; the whole ParseOptions object fits. */
export type CostOptions = Pick<ParseOptions, 'formats' | 'redactPII' | 'zeroDataRetention' | 'parsers'>;

export interface CostedDocument {
  /** Whether the API will read it as a PDF (billed per page). */
  pdf: boolean;
  /** The PDF's page count as read from the file (ignored for other documents). */
  pages: number;
}

/** Pages the API parses, and bills, of a document: a PDF's pages up to `maxPages` (at least 1); 1 for the rest. */
export function billedPages(document: CostedDocument, options: Pick<ParseOptions, 'parsers'>): number {
  if (!document.pdf) return 1;
  const maxPages = options.parsers[0]?.maxPages;
  const pages = Math.max(1, Math.floor(document.pages));
  return maxPages === undefined ? pages : Math.min(pages, maxPages);
}

/** Estimated credits of parsing `document` with `options`, in `requests` requests (page ranges of one PDF). */
export function estimateCredits(document: CostedDocument, options: CostOptions, requests = 1): number {
  const pages = billedPages(document, options);
  let credits = document.pdf ? pages * CREDIT_RULES.perPdfPage : CREDIT_RULES.perDocument;
  if (options.formats.some((format) => format.type === 'json')) credits += CREDIT_RULES.jsonFormat * requests;
  if (options.redactPII !== false) {
    credits += CREDIT_RULES.redactPii;
    if (document.pdf) credits += (pages - 1) * CREDIT_RULES.redactPiiPerExtraPdfPage;
  }
  if (options.zeroDataRetention) credits += CREDIT_RULES.zeroDataRetention * requests;
  return credits;
}
