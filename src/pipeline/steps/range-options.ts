/**
 * What a page range of a long PDF is called and sent with. Pure.
 */
import { pdfParserOf, type ParseOptions } from '../../contract/options.js';
import type { PageRange } from '../pdf-ranges.js';

/**
 * The options a range is parsed with: the document's, plus per-page Markdown when page markers are on, so the merge
 * knows which page a range's Markdown starts on (a range whose first pages are blank starts further in, and the
 * marker before it must say so). Pages cost nothing extra (spec: "pages"); the merge drops them when not asked for.
 */
export function rangeOptions(options: ParseOptions): ParseOptions {
  const pdf = pdfParserOf(options);
  if (!pdf.pageMarkers || pdf.pages) return options;
  return { ...options, parsers: [{ ...pdf, pages: true }] };
}

/** `a/book.pdf`, pages 51-100 → `book.pages-51-100.pdf`: what the API sees as the file name. */
export function rangeFileName(relativePath: string, range: PageRange): string {
  const base = relativePath.slice(relativePath.lastIndexOf('/') + 1);
  const stem = base.replace(/\.pdf$/i, '');
  return `${stem}.pages-${range.first}-${range.last}.pdf`;
}
