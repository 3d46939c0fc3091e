/**
 * OCR of whole pages, or of image regions of a page, of one PDF: render with PDFium, take the ruled lines out of
 * the picture (bitmap-rules.ts), recognise with tesseract.js, lay out like native text with those lines as rules.
 * The renderer is opened on the first page to OCR, so a document that needs no OCR never loads PDFium.
 */
import type { PageLayout } from '../page-layout.js';
import type { ProtoBlock, Rect } from '../types.js';
import type { Ruling } from '../rulings.js';
import { takeRules } from './bitmap-rules.js';
import { filledBoxes } from './bitmap-boxes.js';
import { squaredBitmap } from './squared-bitmap.js';
import { judgeRegion, looksLikeText, textBands, type TextBand } from './image-regions.js';
import { layoutOcrPage, layoutOcrRegion, linesWithSureWords } from './ocr-layout.js';
import { PageRenderer, toPng, type GreyBitmap } from './render-page.js';
import { readsUpright, scanTurn, turnBitmap } from './page-orientation.js';
import { rectInView, turnRect, viewSize } from '../page-turns.js';
import { EngineError } from '../../engine-error.js';
import { missingLanguages, missingLanguagesMessage, ocrLanguageFor, type LanguageChoice } from './languages.js';
import { DEFAULT_OCR_LANGUAGE, recogniseLines } from './tesseract.js';
import type { GarbledRegion } from './garbled-blocks.js';
import type { OcrLine } from './ocr-line.js';

export const FULL_PAGE_SOURCE = 'full_page';

/** The lines and filled boxes a page's picture draws (page units). */
export interface DrawnGrid {
  rules: Ruling[];
  boxes: Rect[];
}

/**
 * The resolution image regions are rendered, judged and read at. A figure's words are set large enough for it
 * (a chart label of 8 pt is 17 pixels high), and it costs a quarter of 300 DPI's pixels, which is what rendering
 * and recognition take their time by: figures are on many pages of text, scans on few.
 */
export const REGION_DPI = 150;

/** One image region of a page and the blocks OCR read in it. */
export interface RegionBlocks {
  region: Rect;
  blocks: ProtoBlock[];
}

export class PageOcr {
  #bytes: Uint8Array;
  #language: string;
  #renderer: Promise<PageRenderer | undefined> | undefined;
  /** The declared language whose data is missing, once a page was read in English instead. */
  #missingLanguage: string | undefined;
  #pendingMissing: string | undefined;
  /** The languages the caller asked for ('deu+eng'): they win over the document's, and each must be installed. */
  readonly #requested: string | undefined;
  #requestedChecked = false;

  constructor(bytes: Uint8Array, languages?: readonly string[]) {
    this.#bytes = bytes;
    this.#requested = languages && languages.length > 0 ? languages.join('+') : undefined;
    this.#language = this.#requested ?? DEFAULT_OCR_LANGUAGE;
  }

  /**
   * Renders `bytes` instead of the file's own: the file as recover.ts repaired it, which PDFium can open where it
   * cannot open the damaged file. Before the first page or region is rendered.
   */
  renderFrom(bytes: Uint8Array): void {
    if (this.#renderer) throw new Error('the renderer is open already');
    this.#bytes = bytes;
  }

  /** Reads in the language the document declares (`metadata.language`) when its data is installed. */
  useDeclaredLanguage(declared: string | undefined): void {
    if (this.#requested) return;
    const choice: LanguageChoice = ocrLanguageFor(declared);
    this.#language = choice.language;
    this.#pendingMissing = choice.missing;
  }

  /** A note for the caller when pages were read in English because the document's language has no data here. */
  get languageWarning(): string | undefined {
    const code = this.#missingLanguage;
    return code
      ? `OCR read the scanned pages in English: the document's language (${code}) has no OCR data here (npm install @tesseract.js-data/${code}).`
      : undefined;
  }

  /**
   * The languages to read in. A requested language without data fails the document (an EngineError, which the
   * converter does not turn into a page warning): reading in another language would be a quiet wrong answer.
   */
  #readingLanguage(): string {
    if (this.#requested && !this.#requestedChecked) {
      const missing = missingLanguages(this.#requested.split('+'));
      if (missing.length > 0) throw new EngineError('OCR_LANGUAGE_MISSING', missingLanguagesMessage(missing));
      this.#requestedChecked = true;
    }
    return this.#language;
  }

  /**
   * The page's text by OCR, laid out in a page of `width` × `height` units (the text layer's viewport); null
   * when no word was found; with `onlyIfText`, undefined (and no OCR) when the render does not look like text on
   * a plain background (`looksLikeText`: a photo). Throws with the reason when the page cannot be rendered or
   * recognised.
   */
  async readPage(pageNumber: number, width: number, height: number, options: { onlyIfText?: boolean } = {}): Promise<PageLayout | null | undefined> {
    const renderer = await this.#openRenderer();
    const bitmap = renderer.render(pageNumber);
    if (!bitmap) throw new Error('the page could not be rendered');
    if (options.onlyIfText && !looksLikeText(bitmap.pixels)) return undefined;
    const rules = withBandEdges(takeRules(bitmap), filledBoxes(bitmap));
    const language = this.#readingLanguage();
    const lines = await recogniseLines(toPng(bitmap), language);
    this.#missingLanguage ??= this.#pendingMissing;
    if (readsUpright(lines)) return layoutOcrPage(lines, bitmap.width / width, width, height, rules);
    // A scan turned sideways or upside down: read in the frame its text reads in, its blocks placed back in the page.
    const turn = await scanTurn(bitmap, (turned) => recogniseLines(toPng(turned), language));
    if (turn === 0) return layoutOcrPage(lines, bitmap.width / width, width, height, rules);
    const turned = viewSize(turn, width, height);
    const upright = turnBitmap(bitmap, turn);
    const turnedRules = rules.map((rule) => turnRect(rule, turn, width, height));
    const layout = layoutOcrPage(await recogniseLines(toPng(upright), language), upright.width / turned.width, turned.width, turned.height, turnedRules);
    if (layout) for (const block of layout.blocks) block.rect = rectInView(block.rect, turn, width, height);
    return layout;
  }

  /**
   * The text of image regions of a page (page units, as the text layer's viewport), each rendered on its own at
   * `REGION_DPI` and recognised, as blocks with source layout_ocr; a region with no confident word gives none. A
   * region whose render does not look like text (`looksLikeText`) is not recognised, nor one that is continuous-tone
   * (`isContinuousTone`: a photo) but for its bands of text between rows of photo (`partsToRead`); lines of low
   * confidence are read again inverted only in a region with dark fills (`mayHoldLightOnDarkBy`).
   */
  async readRegions(pageNumber: number, width: number, height: number, regions: readonly Rect[]): Promise<RegionBlocks[]> {
    const renderer = await this.#openRenderer();
    const out: RegionBlocks[] = [];
    const bitmaps = regions.length > 0 ? renderer.renderRegions(pageNumber, regions, REGION_DPI) : [];
    if (!bitmaps) throw new Error('the page could not be loaded to render its image regions');
    for (const [i, region] of regions.entries()) {
      const bitmap = bitmaps[i];
      if (!bitmap) throw new Error('an image region of the page could not be rendered');
      const parts = partsToRead(bitmap);
      const blocks: ProtoBlock[] = [];
      for (const { part, invert, band } of parts) {
        const rules = takeRules(part);
        const read = await recogniseLines(toPng(part), this.#readingLanguage(), { invert });
        this.#missingLanguage ??= this.#pendingMissing;
        const lines = band ? linesWithSureWords(read) : read;
        blocks.push(...layoutOcrRegion(lines, part.scale, part.origin, width, height, rules));
      }
      if (parts.length > 0) out.push({ region, blocks });
    }
    return out;
  }

  /**
   * What a page's picture draws a table's grid with (page units, as the text layer's viewport), rendered at
   * `REGION_DPI`: its ruled lines and its filled boxes (shaded cells), which a scan's OCR text layer leaves out
   * (layered-scan-rules.ts); none where the render does not look like text on paper (`looksLikeText`). With
   * `squaring` (a page scanned askew, its text read square: slanted-pages.ts), the picture is turned with its text
   * first and they are in that square frame. No OCR runs.
   */
  async readDrawnGrid(pageNumber: number, squaring?: readonly number[]): Promise<DrawnGrid> {
    const renderer = await this.#openRenderer();
    const rendered = renderer.render(pageNumber, REGION_DPI);
    if (!rendered) throw new Error('the page could not be rendered');
    // Paper, not a photo behind the text (a slide's background): a photo's edges are no table's borders.
    if (!looksLikeText(rendered.pixels)) return { rules: [], boxes: [] };
    // A picture turned with its text is drawn thicker (squared-bitmap.ts), its white gutters closed: its rules
    // stand, its boxes run together, and only a square page's are taken.
    if (squaring) return { rules: takeRules(squaredBitmap(rendered, squaring)), boxes: [] };
    // The rules are taken out first: a box is its fill, not the borders round it.
    const rules = takeRules(rendered);
    const boxes = filledBoxes(rendered);
    return { rules: withBandEdges(rules, boxes), boxes };
  }

  /**
   * The lines OCR reads in each region of a page (page units), each rendered on its own at its resolution: the
   * blocks of a page whose text layer maps their glyphs to nothing readable (garbled-blocks.ts).
   */
  async readGarbled(pageNumber: number, regions: readonly GarbledRegion[]): Promise<OcrLine[][]> {
    const renderer = await this.#openRenderer();
    const out: OcrLine[][] = [];
    for (const { rect, dpi } of regions) {
      const bitmap = renderer.renderRegions(pageNumber, [rect], dpi)?.[0];
      if (!bitmap) throw new Error('a block of the page could not be rendered');
      out.push(await recogniseLines(toPng(bitmap), this.#readingLanguage()));
      this.#missingLanguage ??= this.#pendingMissing;
    }
    return out;
  }

  /** The document's renderer, opened on the first page or region to render. */
  async #openRenderer(): Promise<PageRenderer> {
    this.#renderer ??= PageRenderer.open(this.#bytes);
    const renderer = await this.#renderer;
    if (!renderer) throw new Error('the PDF could not be opened for rendering');
    return renderer;
  }

  async close(): Promise<void> {
    const renderer = await this.#renderer;
    renderer?.close();
    this.#renderer = undefined;
  }
}

/**
 * What of an image region's render OCR reads: the whole of it when it looks like text; when it looks like text on a
 * plain ground but is a photo too (its shades many), the runs of rows that are text between rows of photo (a
 * screenshot: `band`); else nothing (a photo).
 */
function partsToRead(bitmap: GreyBitmap): { part: GreyBitmap; invert: boolean; band: boolean }[] {
  const judged = judgeRegion(bitmap.pixels);
  if (judged.read) return [{ part: bitmap, invert: judged.invert, band: false }];
  if (!judged.plain) return [];
  return textBands(bitmap.pixels, bitmap.width, bitmap.height).map((band) => ({ part: bandOf(bitmap, band), invert: band.invert, band: true }));
}

/**
 * The rows `top` to `bottom` of a bitmap, as a bitmap of their own placed where they are on the page; `dark`: its
 * greys inverted, since tesseract reads dark text on a light ground far better than light on dark.
 */
function bandOf(bitmap: GreyBitmap, { top, bottom, dark }: TextBand): GreyBitmap {
  const pixels = bitmap.pixels.slice(top * bitmap.width, bottom * bitmap.width);
  if (dark) for (let i = 0; i < pixels.length; i++) pixels[i] = 255 - pixels[i]!;
  return {
    width: bitmap.width,
    height: bottom - top,
    pixels,
    scale: bitmap.scale,
    origin: { x: bitmap.origin.x, y: bitmap.origin.y + top / bitmap.scale },
  };
}

/**
 * A shaded box this high (pt) at most is a band: a table's row or header, three lines of text or four. A taller one
 * is a panel or a picture (a dark screenshot), whose edges part no rows.
 */
const MAX_BAND_HEIGHT = 48;

/** `rules` with each shaded band's top and bottom edges: they part its row from the rows beside it, as a rule would. */
function withBandEdges(rules: Ruling[], boxes: readonly Rect[]): Ruling[] {
  for (const box of boxes) {
    if (box.y1 - box.y0 > MAX_BAND_HEIGHT) continue;
    rules.push({ x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y0 }, { x0: box.x0, y0: box.y1, x1: box.x1, y1: box.y1 });
  }
  return rules;
}
