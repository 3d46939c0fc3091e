/**
 * Spreadsheets printed to PDF as LibreOffice Calc prints them, written by the fixture writer: an A4 page, the
 * sheet's name centred in the top margin (its default page header) and "Page N" in the bottom one, no grid lines,
 * rows 12.8 pt apart, text left-aligned in its cell and numbers right-aligned, in 10 pt Helvetica.
 */
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';

const PAGE_WIDTH = 595;
const PAGE_HEIGHT = 842;
const SIZE = 10;
/** Row pitch: a 0.178 in row, LibreOffice's default height for 10 pt text. */
const ROW_PITCH = 12.8;
/** Baseline of the first row (PDF space), under the running head. */
const FIRST_BASELINE = PAGE_HEIGHT - 88;
/** Left edge of the first column, and the padding a cell's text keeps from its edges. */
const LEFT = 55.7;
const PADDING = 2;
/** Helvetica's advance widths (per 1000 em) of the characters numbers use; letters at an average width. */
const DIGIT_WIDTH = 556;
const NARROW: Record<string, number> = { '.': 278, ',': 278, '-': 333, ' ': 278 };

function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /\d/.test(ch) ? DIGIT_WIDTH : (NARROW[ch] ?? 560);
  return (width * SIZE) / 1000;
}

const isNumber = (text: string) => /^-?[\d,.]+$/.test(text);

/** A sheet's cells (empty strings leave a cell blank; a row of none is a blank row). */
export interface SheetSpec {
  /** The sheet's name, printed over the page; none when the page header is turned off. */
  name?: string;
  /** Each column's width in points. */
  widths: readonly number[];
  rows: readonly (readonly string[])[];
  /** The first row set in bold, as a header styled so. */
  boldHeader?: boolean;
}

/** The runs of one row: text from its cell's left edge, a number ending at its cell's right edge. */
function rowRuns(row: readonly string[], widths: readonly number[], baseline: number, bold: boolean): TextRun[] {
  const runs: TextRun[] = [];
  let left = LEFT;
  row.forEach((text, col) => {
    const right = left + widths[col]!;
    if (text) runs.push({ x: isNumber(text) ? right - PADDING - textWidth(text) : left + PADDING, y: baseline, text, size: SIZE, font: bold ? 'bold' : 'regular' });
    left = right;
  });
  return runs;
}

/** The sheet on one page, under its name and over "Page 1". */
export function printedSheetPdf(sheet: SheetSpec): Uint8Array {
  const runs: TextRun[] = [
    ...(sheet.name ? [{ x: (PAGE_WIDTH - textWidth(sheet.name)) / 2, y: PAGE_HEIGHT - 68, text: sheet.name, size: SIZE }] : []),
    ...sheet.rows.flatMap((row, r) => rowRuns(row, sheet.widths, FIRST_BASELINE - r * ROW_PITCH, r === 0 && sheet.boldHeader === true)),
    { x: (PAGE_WIDTH - textWidth('Page 1')) / 2, y: 40, text: 'Page 1', size: SIZE },
  ];
  return writePdf({ pages: [{ runs, width: PAGE_WIDTH, height: PAGE_HEIGHT }] });
}
