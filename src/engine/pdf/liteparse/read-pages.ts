/**
 * Reads a PDF's text layer with LiteParse (PDFium, native) for docmill's layout, and says which pages it stands
 * for. A page stays with the pdfjs path when signals on the page say docmill's own reading does better or when
 * only that path has what the mode needs:
 * - right-to-left script: LiteParse writes a line's words in visual order, reversed for Arabic and Hebrew,
 *   where pdfjs gives them in logical order;
 * - text whose boxes are its fonts' bounding boxes, several lines high (fonts such as Cambria): LiteParse's lines,
 *   built from those boxes, lose words, where pdfjs places each run at its baseline;
 * - a page LiteParse could not read or found no text on (a content stream in a filter PDFium lacks, such as
 *   BrotliDecode; a scan, whose images the pdfjs pass records for OCR), or whose text items hold less than its
 *   own page text, once a lone page number they leave out is taken from that text (liteparse/lost-page-number.ts),
 *   unless all they lose is a few digits (a chart's labels, which stay out of the flow either way).
 * Its own OCR stays off: it downloads language data at run time, which fails offline; docmill's OCR reads the
 * pages without a usable text layer.
 */
import type { PdfParser } from '../../../contract/options.js';
import { nativeCall } from '../../native-calls.js';
import { duringStage } from '../../stage.js';
import type { PageDrawing } from '../../model.js';
import { append, type FoundTable, type PdfTextItem, type Rect } from '../types.js';
import { repairText } from '../lines.js';
import { overlaps } from '../measure.js';
import { subtypesNamed } from '../stream-subtypes.js';
import { loadLiteParse, type LiteParseModule, type LiteParseParser } from './load.js';
import { lostPageNumber } from './lost-page-number.js';
import { documentAutospaceEm } from './hangul-autospace.js';
import { documentFonts, nativePageItems, type NativePageInput, type NativePageItems } from './page-items.js';
import { structureRoles, type StructureElement } from './structure-roles.js';
import { unscaleNarrowedType } from './scaled-type.js';
import { mendCellWords, mendCharSpacedWords, pagesWithRunTogetherWords } from './char-spaced-words.js';
import { charSpacedRuns } from '../char-spaced-runs.js';
import { isSlantedPage } from './skewed-pages.js';
import { uprightPage } from './upright-pages.js';
import type { Turn } from '../page-turns.js';
import { isWhiteSpaceCode } from '../white-space.js';

/** A page read by LiteParse, as the layout reads it. */
export interface NativePage extends Omit<NativePageItems, 'outsizedChars' | 'autospaceGaps' | 'runStarts'> {
  width: number;
  height: number;
  /** LiteParse's tables: where no ruled table of docmill's covers them, their cells replace its aligned-text tables. */
  tables: FoundTable[];
  /**
   * Mode auto: where the page paints raster images (LiteParse's figure blocks, and the whole page under a
   * page-sized background), for docmill's OCR plan (ocr/image-regions.ts).
   */
  images?: Rect[];
  /**
   * Mode auto: LiteParse may not see all of the page's images (those painted inside a form XObject), so the pdfjs
   * pass, which does, gives the images; the text stays LiteParse's.
   */
  imagesFromPdfjs?: boolean;
  /**
   * What LiteParse saw the page draw outside its text: its vector paths (shapes and line segments), and with
   * `pictures` its raster images (figure placeholders); a form XObject's content it may not see.
   */
  drawing: PageDrawing;
  /**
   * The page's text runs this far turned in its view (liteparse/upright-pages.ts): every place here is in the frame
   * turned so that it reads left to right, and `width` and `height` are that frame's.
   */
  turn?: Turn;
}

interface NativeBlock {
  kind: string;
  header?: readonly { text: string }[] | undefined;
  rows?: readonly (readonly { text: string }[])[] | undefined;
  bbox?: { x: number; y: number; width: number; height: number } | undefined;
}

/**
 * A cell's text as LiteParse joined its lines, one space between them: a soft hyphen ending a line breaks its word
 * there, and the text is repaired as a line's is (lines.ts repairText).
 */
function cellText(text: string): string {
  return repairText(text.replace(/\u00ad\s+/g, '').replace(/\s+/g, ' ').trim());
}

/** The page's table blocks with a place and at least two rows of two cells. */
function tablesOf(blocks: readonly NativeBlock[] | undefined): FoundTable[] {
  const tables: FoundTable[] = [];
  for (const block of blocks ?? []) {
    if (block.kind !== 'table' || !block.bbox) continue;
    const rows = [...(block.header ? [block.header] : []), ...(block.rows ?? [])].map((row) => row.map((cell) => cellText(cell.text)));
    if (rows.length < 2 || rows.every((row) => row.length < 2)) continue;
    const { x, y, width, height } = block.bbox;
    tables.push({ rect: { x0: x, y0: y, x1: x + width, y1: y + height }, rows });
  }
  return tables;
}

/**
 * The page's raster images in page units (top-left origin): LiteParse's figure blocks, which leave out a
 * page-sized background; that one (`fullPageImage`, a raster over 90 % of the page) is the page itself.
 */
function imagesOf(page: { width: number; height: number; blocks?: readonly NativeBlock[] | undefined; complexity?: NativeComplexity | undefined }): Rect[] {
  const images: Rect[] = [];
  if (page.complexity?.fullPageImage) images.push({ x0: 0, y0: 0, x1: page.width, y1: page.height });
  for (const block of page.blocks ?? []) {
    if (block.kind !== 'figure' || !block.bbox) continue;
    const { x, y, width, height } = block.bbox;
    images.push({ x0: x, y0: y, x1: x + width, y1: y + height });
  }
  return images;
}

function drawingOf(page: NativePageInput & { blocks?: readonly NativeBlock[] | undefined }, pictures: boolean): PageDrawing {
  const paths = (page.vectorGraphics?.shapes.length ?? 0) + (page.vectorGraphics?.lines.length ?? 0);
  if (!pictures) return { paths };
  return { paths, images: (page.blocks ?? []).filter((block) => block.kind === 'figure').length };
}

/** What LiteParse read of a document. */
export interface NativeReading {
  /** The document's page count, as PDFium counts it. */
  totalPages: number;
  /** The pages it stands for, by number. */
  pages: Map<number, NativePage>;
  /**
   * Its tables on pages pdfjs reads for another reason than their script (a page number its items left out):
   * pdfjs's items in them leave the flow as they would from a LiteParse page.
   */
  tables: Map<number, FoundTable[]>;
}

/** Above this share of right-to-left characters a page is read by pdfjs (logical word order). */
const RTL_SHARE = 0.2;
/**
 * Above this share of characters in items with the font's bounding box for a box (page-items.ts, `outsizedChars`),
 * a page is read by pdfjs: LiteParse builds its lines from those boxes, which overlap the lines above and below,
 * and it loses and jumbles words there (a Word document set in Cambria: half the words of its body gone). A
 * quarter, not a half: a page set only partly in such a font loses words where it is; pages in other fonts have
 * next to none (0.1 % at most on the PDF benchmark's dev half).
 */
const OUTSIZED_SHARE = 0.25;
/**
 * Nor more than this many such characters, whatever their share: one tall glyph in lines of text (a math letter a
 * writer copied into a text font, as Ghostscript copies Cambria Math's μ into Cambria) gives its whole line the tall
 * box, and LiteParse loses the lines that box overlaps (an item of a list between two such lines). A lone tall
 * symbol in an item of its own stays under it.
 */
const OUTSIZED_TEXT = 10;

interface NativeComplexity {
  needsOcr: boolean;
  fullPageImage: boolean;
  imageBlockCount: number;
}

interface NativeResult {
  pages: readonly (NativePageInput & {
    pageNum: number;
    text: string;
    complexity?: NativeComplexity | undefined;
    blocks?: readonly NativeBlock[] | undefined;
    /** A tagged PDF's structure tree for the page (no roots when the PDF is not tagged). */
    structureTree?: { roots: readonly StructureElement[] } | undefined;
  })[];
  totalPages: number;
  /** Left out by the native module when no page failed (its wrapper reads it as none). */
  pageErrors?: readonly { pageNum: number }[] | undefined;
}

/** Code units of `text` that are not white space (as `\s` matches it), without building a copy. */
function countChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (!isWhiteSpaceCode(text.charCodeAt(i))) n++;
  return n;
}

/**
 * At most this share of a page's characters may be missing from its items, all of them digits, for LiteParse to
 * keep the page: its items leave out some of a chart's labels (numbers drawn over the plot) that its page text
 * has; docmill keeps chart labels out of the flow, so pdfjs's reading of the page gains nothing and costs its load.
 */
const STRAY_DIGITS_SHARE = 0.01;

/**
 * Each character (code point) of `texts` that is not white space, with how often it occurs in them. Keyed by the
 * code point, read without a string iterator: no string per character.
 */
function characterCounts(texts: readonly string[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const text of texts) {
    for (let i = 0; i < text.length; i++) {
      const c = text.codePointAt(i)!;
      if (c > 0xffff) i++;
      else if (isWhiteSpaceCode(c)) continue;
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  }
  return counts;
}

/** A run of leader dots at the end of an item: a contents entry whose page number the item left out. */
const ENDS_IN_LEADER = /(?:\.{3,}|·{3,}|…{2,})$/u;

/**
 * The page's text holds more than its items, but what the items lack is a few digits and nothing else, none of them
 * a contents entry's page number (an item ending in its leader dots: LiteParse leaves out the number a word
 * processor sets after a leader tab, which its page text keeps).
 */
function losesOnlyStrayDigits(read: NativePageItems, text: string, textChars: number): boolean {
  if (textChars - read.chars > STRAY_DIGITS_SHARE * textChars) return false;
  if (read.strings.some((string) => ENDS_IN_LEADER.test(string))) return false;
  const held = characterCounts(read.strings);
  for (const [c, n] of characterCounts([text])) if (n > (held.get(c) ?? 0) && !(c >= 0x30 && c <= 0x39)) return false;
  return true;
}

/** The items stand for the page's text (of `textChars` characters): they hold all of it, or lack only stray digits. */
function itemsHoldText(read: NativePageItems, text: string, textChars: number): boolean {
  if (read.chars === 0) return false;
  return read.chars >= textChars || losesOnlyStrayDigits(read, text, textChars);
}

/** The page's items with the page number they left out (liteparse/lost-page-number.ts) back among them. */
function withPageNumber(read: NativePageItems, page: NativePageInput & { text: string }, textChars: number): NativePageItems {
  if (read.chars === 0 || read.chars >= textChars) return read;
  const lost = lostPageNumber(page.text, read.items, page.width, page.height);
  if (!lost) return read;
  return { ...read, items: [...read.items, lost.item], strings: [...read.strings, lost.item.str], chars: read.chars + lost.chars };
}

/** A parser per configuration, kept for the thread's life: the options are the same from one document to the next. */
const parsers = new Map<string, LiteParseParser>();

function parserFor(module: LiteParseModule, maxPages: number, mode: PdfParser['mode'], pictures: boolean): LiteParseParser {
  const key = `${maxPages} ${mode} ${pictures}`;
  let parser = parsers.get(key);
  if (!parser) {
    parser = new module.LiteParse({
      outputFormat: 'json',
      ocrEnabled: false,
      quiet: true,
      maxPages,
      continueOnPageError: true,
      extractTextMetadata: true,
      emitWordBoxes: true,
      extractVectorGraphics: true,
      extractBlocks: true,
      // A tagged PDF names its title and headings with their levels (structure-roles.ts).
      extractStructureTree: true,
      // Mode auto plans OCR from where the images are: the complexity signals flag a page-sized background, and
      // placeholders make figure blocks (with their boxes) of the other images; the json output is the same. With
      // pictures kept, those blocks tell the picture reader which pages draw no image (figures/pictureless.ts).
      includeComplexity: mode === 'auto',
      imageMode: mode === 'auto' || pictures ? 'placeholder' : 'off',
      extractLinks: false,
      // A form's check boxes and radio buttons: their state is read as marks beside their labels (form-marks.ts).
      extractFormFields: true,
      // Text typed onto a page as free-text annotations (a typewriter tool's answers on a flat form): form-values.ts.
      extractAnnotations: true,
      // docmill decides page furniture over the whole document (furniture.ts), and keeps it as marked blocks.
      keepHeadersFooters: true,
    });
    // A handful at most (maxPages is usually left out); a caller varying it per document must not grow this.
    if (parsers.size >= 8) parsers.clear();
    parsers.set(key, parser);
  }
  return parser;
}

/** LiteParse reads at most this many pages when told none (its own default is 1,000). */
const ALL_PAGES = 2 ** 31 - 1;

/**
 * What LiteParse reads of the document's first `maxPages` pages (all when undefined), PDFium opening it;
 * undefined when LiteParse is not loaded here or PDFium could not open the document (the pdfjs path then reads
 * every page, and says what is wrong). Mode ocr reads every page by OCR and needs no text layer from it.
 * `pictures`: the pictures are kept, and each page's images are looked for (PageDrawing).
 */
export async function readNativePages(bytes: Uint8Array, maxPages: number | undefined, mode: PdfParser['mode'], pictures = false): Promise<NativeReading | undefined> {
  if (mode === 'ocr') return undefined;
  const module = await loadLiteParse();
  if (!module) return undefined;
  const pageCount = Math.min(maxPages ?? ALL_PAGES, ALL_PAGES);
  let result: NativeResult;
  try {
    // The bytes as a Buffer over the same memory: the native call reads them, nothing copies them.
    const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // The native module's result, of the shape its pinned version gives (NativeResult: the fields read here).
    result = (await duringStage('reading the pages with PDFium', () => nativeCall(() => parserFor(module, pageCount, mode, pictures).parse(input)))) as NativeResult;
  } catch {
    return undefined;
  }
  const failed = new Set((result.pageErrors ?? []).map((error) => error.pageNum));
  // Form XObjects paint content as a unit, images among it (stream-subtypes.ts finds them in the clear).
  const formsPaint = mode === 'auto' && subtypesNamed(bytes).has('Form');
  const reading: NativeReading = { totalPages: result.totalPages, pages: new Map(), tables: new Map() };
  // Whether a font's word boxes follow its glyphs, and whether its weight can be believed, show over the whole
  // document, not always on one page.
  // So does type drawn narrowed to fit (an OCR layer's words): its items are read at the size the PDF set.
  unscaleNarrowedType(result.pages);
  // Words whose gap is set as character spacing (Ghostscript's PDFs of PostScript) are parted where PDFium ran them
  // together, and a space whose width the spacing takes back joins its words.
  const mended = mendCharSpacedWords(result.pages, charSpacedRuns(bytes, pagesWithRunTogetherWords(result.pages)));
  // A page whose text runs sideways or upside down is read in the frame its text reads in.
  const pages = result.pages.map(uprightPage);
  const fonts = documentFonts(pages);
  // So does whether its Korean text sets an autospace between Hangul and Western text (hangul-autospace.ts).
  const autospaceGaps: number[] = [];
  const runStarts: PdfTextItem[] = [];
  for (const page of pages) {
    if (page.pageNum > pageCount || failed.has(page.pageNum)) continue;
    let tables = mendCellWords(tablesOf(page.blocks), mended.get(page.pageNum));
    // The page text's characters, counted once for both checks (a scan of the whole text each).
    const textChars = countChars(page.text);
    const roots = page.structureTree?.roots;
    const roles = roots && roots.length > 0 ? structureRoles(roots) : undefined;
    const read = withPageNumber(nativePageItems(page, tables.map((table) => table.rect), roles, fonts), page, textChars);
    const { formBoxes } = read;
    if (formBoxes) tables = tables.filter((table) => !formBoxes.some((box) => overlaps(box, table.rect)));
    if (read.autospaceGaps) append(autospaceGaps, read.autospaceGaps);
    if (read.runStarts) append(runStarts, read.runStarts);
    if (read.rtlChars > RTL_SHARE * read.chars || read.outsizedChars > Math.min(OUTSIZED_SHARE * read.chars, OUTSIZED_TEXT)) continue;
    // A scan's OCR layer slanted with its picture: LiteParse loses lines of it (liteparse/skewed-pages.ts).
    if (isSlantedPage(page.textItems)) continue;
    // A page without text in PDFium's reading may hold text in a filter only pdfjs decodes (BrotliDecode); pdfjs
    // reads it (and a scan's images) before anything OCRs it. A page LiteParse flags for OCR (sparse text, images,
    // text drawn as outlines) keeps LiteParse's text where it has some: pdfjs's reading of it is no better and
    // loses LiteParse's tables; mode auto's OCR plan comes from its images all the same.
    if (itemsHoldText(read, page.text, textChars)) {
      // Written out: a spread of `read` copied it field by field through the generic path.
      const native: NativePage = {
        items: read.items,
        rotated: read.rotated,
        rulings: read.rulings,
        boxes: read.boxes,
        chars: read.chars,
        rtlChars: read.rtlChars,
        strings: read.strings,
        width: page.width,
        height: page.height,
        tables,
        drawing: drawingOf(page, pictures),
      };
      if (read.tagged) native.tagged = read.tagged;
      if (page.turn) native.turn = page.turn;
      if (read.comments) native.comments = read.comments;
      if (mode === 'auto') {
        native.images = imagesOf(page);
        if (formsPaint && page.complexity?.needsOcr) native.imagesFromPdfjs = true;
      }
      reading.pages.set(page.pageNum, native);
    } else if (tables.length > 0) {
      reading.tables.set(page.pageNum, tables);
    }
  }
  const autospaceEm = documentAutospaceEm(autospaceGaps);
  if (autospaceEm !== undefined) for (const item of runStarts) item.autospaceEm = autospaceEm;
  return reading;
}
