/**
 * Geometry types shared by the PDF layout modules. Every coordinate is in page units (PDF points at scale 1)
 * in the page's *viewport* space: origin at the top-left of the visible page, y growing downwards, page
 * rotation already applied. The layout modules are pure functions over these types, so they can be tested on
 * synthetic items without a PDF.
 */
import type { StructureRole } from './liteparse/structure-roles.js';
import type { TableGrid } from './table-grid.js';

/** One run of text as the PDF draws it (a pdfjs text item after normalisation). */
export interface PdfTextItem {
  /** The text, in logical order (pdfjs already reorders right-to-left runs). */
  str: string;
  /** Left and right edges. */
  x0: number;
  x1: number;
  /** Baseline y (top-down). */
  baseline: number;
  /** Font size (em height) in page units. */
  size: number;
  /** pdfjs loaded font name (`g_d0_f3`), a key into the document's font table. */
  fontName: string;
  bold: boolean;
  monospace: boolean;
  /** Right-to-left run (Arabic, Hebrew). */
  rtl: boolean;
  /** The PDF put a whitespace run right before this item on the same line. */
  spaceBefore?: boolean;
  /**
   * The first word of a run in a font of its own, in a document whose Korean text shows a word processor's autospace
   * between Hangul and Western text: that width, in ems (liteparse/hangul-autospace.ts).
   */
  autospaceEm?: number;
}

/** Derived vertical extent of an item or line: about 0.78 em above the baseline, 0.22 em below. */
export const ASCENT = 0.78;
export const DESCENT = 0.22;

/** Items on one baseline that are close enough horizontally to be read as one run of text (a table cell). */
export interface Cell {
  items: PdfTextItem[];
  text: string;
  x0: number;
  x1: number;
}

/** One visual line of text within a region: its cells left to right (right to left for RTL lines). */
export interface TextLine {
  cells: Cell[];
  /** The whole line's text: cells joined with a space. */
  text: string;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  baseline: number;
  /** Dominant (by characters) font size, font and style of the line. */
  size: number;
  fontName: string;
  bold: boolean;
  /** Share of the line's characters set in a monospaced font. */
  monoShare: number;
  rtl: boolean;
  /** Number of non-space characters. */
  chars: number;
  /** The line is an isolated line at the top or bottom of the page: a header/footer candidate. */
  zone?: 'top' | 'bottom';
  /** The line starts with a raised, smaller marker (a footnote number or symbol). */
  superscriptStart?: boolean;
  /**
   * A form's field line (`Full name: Jane Doe`) whose label is set smaller than the value filled in after it (a
   * field's text sized to its box): the label's size, which is the line's type as the document sets it.
   */
  labelSize?: number;
}

/** A rectangle in page units. */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What kind of block the page-level layout found; document-level passes refine `paragraph` into headings. */
/** `comments`: a page's reviewers' comments, outside its flow (page-comments.ts). */
export type ProtoKind = 'paragraph' | 'list' | 'code' | 'quote' | 'formula' | 'caption' | 'table' | 'rotated' | 'comments';

/** A block found by the page layout, before document-wide decisions (headings, furniture). */
export interface ProtoBlock {
  kind: ProtoKind;
  /** Markdown for kinds whose formatting does not depend on the document (list, code, table...). */
  markdown: string;
  /** Plain text (paragraph text after hyphen joining). */
  text: string;
  rect: Rect;
  lines: number;
  /** Dominant font size / boldness of the block, by characters. */
  size: number;
  bold: boolean;
  chars: number;
  /** Set for single isolated lines at the top or bottom of the page: furniture candidates. */
  zone?: 'top' | 'bottom';
  /** For zone candidates: a number stands alone as the line's first or last cell (a running head's page number set apart). */
  numberApart?: boolean;
  /** For zone candidates of two cells or more set apart: each cell's text and left edge (a running head's parts). */
  zoneCells?: { text: string; x0: number }[];
  /** Furniture decided on the page alone (rotated margin text, a watermark). */
  furniture?: boolean;
  /** Rotated text set across the page at a slant, far larger than its text: a watermark ("DRAFT"). */
  watermark?: boolean;
  /** For blocks read by OCR: the mean confidence of their words, 0..1 (null when none could be attributed). */
  ocrConfidence?: number | null;
  /** How the block's text was obtained when it differs from its page's (layout_ocr: an image region OCR'd). */
  source?: string;
  /**
   * The text was read again by OCR where the text layer garbled it (garbled-blocks.ts): written with source
   * layout_ocr, while its place, size and weight are still the text layer's, so it may be a heading.
   */
  readAgain?: boolean;
  /** For tables: the cells, so that a table continued on the next page can be written as one (table-stitch.ts). */
  table?: TableGrid;
  /**
   * A later part of a table continued from the page before, written as GFM rows: its first part's header and
   * delimiter rows, which the renderer writes before the rows only where that part is not just before them.
   */
  tableHead?: string;
  /** A label of a chart drawn on the page (chart-labels.ts): text where it stands, never a heading. */
  chartLabel?: boolean;
  /** On a tagged page: the role its structure tree gives most of the block's characters (tagged-blocks.ts). */
  structure?: StructureRole;
  /** On a tagged page: a margin line outside the structure tree, an artifact (a running header, a page number). */
  artifact?: boolean;
}

/** Appends without spreading into arguments (a hostile page can have more items than a call takes). */
export function append<T>(target: T[], source: readonly T[]): void {
  for (const value of source) target.push(value);
}

/** A table found outside this layout: where it is and its cells' text, header row first. */
export interface FoundTable {
  rect: Rect;
  rows: string[][];
  /** The rows as cells with their spans, where the reader knows them (else one cell a text). */
  grid?: TableGrid;
}
