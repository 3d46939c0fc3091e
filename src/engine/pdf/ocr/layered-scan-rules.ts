/**
 * A scan with its OCR as a text layer (what scanners, `tesseract … pdf` and OCRmyPDF write): the page is one
 * picture, its words invisible text over it. A table's borders are pixels of that picture, so the text layer
 * alone reads a ruled table as loose lines (a wrapped cell's lines a row each). Mode auto draws such a page with the
 * renderer its OCR uses, takes the rules and the shaded boxes out of the picture (bitmap-rules.ts, bitmap-boxes.ts)
 * and lays the text layer out with them, as a born-digital page's vector rules and fills: the table is built from
 * its grid. Mode fast draws nothing.
 */
import type { PdfTextItem, Rect } from '../types.js';

/** A picture covering this share of the page is the page itself (LiteParse's `fullPageImage` is above 90 %). */
const PAGE_COVER = 0.9;
/** A text layer of at least this many characters: a page's text, not a stamp (whose page is OCR'd whole). */
const MIN_TEXT_CHARS = 100;
/** Vector rules enough for a grid of their own (ruled-tables.ts needs three): the page draws its tables. */
const DRAWN_GRID = 3;
/** A gap this many ems wide between two runs of text on one line parts columns (a word space is a third of one). */
const COLUMN_GAP_EM = 1.5;
/**
 * A page with fewer lines parted so holds no table, and its picture is not drawn: drawing decodes the scan at its
 * full size (80-100 ms for a 300-DPI page), where a page of prose costs a tenth of that to read.
 */
const MIN_PARTED_LINES = 2;
/** Runs whose baselines lie within this share of their size stand on one line. */
const SAME_LINE = 0.4;

export interface LayeredPage {
  width: number;
  height: number;
  chars: number;
  items: readonly PdfTextItem[];
  rulings: readonly Rect[];
  images?: readonly Rect[] | undefined;
}

/**
 * The page is a picture of the page under a text layer, with no vector grid of its own, and lines of its text are
 * parted into columns as a table's rows are: its picture may draw the table's rules and shaded cells.
 */
export function wantsGridFromPicture(page: LayeredPage): boolean {
  return isLayeredScan(page) && partedLines(page.items) >= MIN_PARTED_LINES;
}

/** The lines whose runs of text stand a column's gap apart somewhere. */
function partedLines(items: readonly PdfTextItem[]): number {
  const runs = items.filter((item) => item.str.trim().length > 0).sort((a, b) => a.baseline - b.baseline || a.x0 - b.x0);
  let parted = 0;
  let line: PdfTextItem[] = [];
  const close = (): void => {
    line.sort((a, b) => a.x0 - b.x0);
    for (let i = 1; i < line.length; i++) {
      if (line[i]!.x0 - line[i - 1]!.x1 > COLUMN_GAP_EM * Math.max(line[i]!.size, line[i - 1]!.size)) {
        parted++;
        break;
      }
    }
  };
  for (const run of runs) {
    const first = line[0];
    if (first && Math.abs(run.baseline - first.baseline) > SAME_LINE * Math.min(run.size, first.size)) {
      close();
      line = [];
    }
    line.push(run);
  }
  if (line.length > 0) close();
  return parted;
}

function isLayeredScan(page: LayeredPage): boolean {
  if (page.chars < MIN_TEXT_CHARS || page.rulings.length >= DRAWN_GRID) return false;
  const pageArea = page.width * page.height;
  if (!(pageArea > 0)) return false;
  return (page.images ?? []).some((image) => {
    const width = Math.min(image.x1, page.width) - Math.max(image.x0, 0);
    const height = Math.min(image.y1, page.height) - Math.max(image.y0, 0);
    return width > 0 && height > 0 && width * height >= PAGE_COVER * pageArea;
  });
}
