/**
 * Pages scanned askew: a scanner's picture is seldom square to the page, and the OCR text layer over it follows
 * its lines, each drawn at the slant of the line on the picture (tesseract's PDF, OCRmyPDF's). LiteParse loses
 * lines of such a layer (30 of a report page's 443 words at a slant of 1.2°: whole lines of a paragraph, where the
 * same page square loses none) and gives each line an angle of its own, up to a degree off the page's (a heading at
 * 2.04°, read as turned text, left the flow). Such a page is read by pdfjs, which keeps every word and its exact
 * angle, and reads the page square (slanted-pages.ts).
 */
import { countCodePointsBesideSpaces } from '../white-space.js';
import { MAX_SLANT } from '../slanted-pages.js';
import type { NativeTextItem } from './page-items.js';

/** The share of a page's characters that must be slanted for the page to be a slanted scan. */
const MOST = 0.5;

function offLevel(item: NativeTextItem): number {
  const degrees = (((item.rotation ?? 0) % 360) + 360) % 360;
  return Math.min(degrees, 360 - degrees);
}

/** Whether most of the page's text is slanted a few degrees off level, none of it square. */
export function isSlantedPage(items: readonly NativeTextItem[]): boolean {
  // Most pages have no item off level: one pass that reads only the angles.
  if (!items.some((item) => offLevel(item) > 0 && offLevel(item) <= MAX_SLANT)) return false;
  let all = 0;
  let slanted = 0;
  for (const item of items) {
    const chars = countCodePointsBesideSpaces(item.text);
    all += chars;
    const off = offLevel(item);
    if (off > 0 && off <= MAX_SLANT) slanted += chars;
  }
  return all > 0 && slanted >= MOST * all;
}
