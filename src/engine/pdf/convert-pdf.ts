/**
 * PDF → DocumentModel. LiteParse (PDFium, native; liteparse/read-pages.ts) opens the document, counts its pages and
 * reads the text of the pages it stands for; the title, author and language come from the bytes where they are
 * stated in the clear (stated-info.ts). pdfjs-dist (legacy build, in-thread "fake worker": the caller already runs
 * this in a worker thread; the worker bundle is patched for text extraction, see pdfjs-worker.ts) opens the document
 * only when something needs it: a file PDFium refuses or whose end is damaged (its errors: encrypted, corrupt,
 * recovered), mode ocr, a thread where LiteParse cannot load, metadata not in the clear, and the pages it reads
 * (right-to-left script, pages without text in PDFium's reading, pages LiteParse lost text on). Both feed the
 * same layout (page-layout.ts, document-layout.ts). Pages without a usable text layer (mode auto) or every page
 * (mode ocr) are OCR'd (ocr/page-ocr.ts); mode auto also OCRs a scan whose text layer is only stamped text, and
 * the images of a text page that have no text over them (ocr/image-regions.ts); mode fast never OCRs. Every
 * document gets its own pdfjs document and font table; only the package's CMaps and standard font data are kept
 * between calls. Nothing comes from the network.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
// Before pdfjs: records the native built-ins that pdfjs's polyfills replace (see the module).
import { restoreNativeBuiltins } from './native-builtins.js';
import { leanPdfjsEnvironment } from './pdfjs-environment.js';
import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { pdfParserOf, type PdfParser } from '../../contract/options.js';
import { findPdfHeader } from '../bytes/sniff.js';
import { EngineError } from '../engine-error.js';
import type { Converter, DocumentModel, MetadataValue } from '../model.js';
import { CachedBinaryDataFactory } from './binary-data.js';
import { finishDocument, type LaidOutPage } from './document-layout.js';
import { imagesInViewport, isImagesItem, planImageOcr, type OcrPlan } from './ocr/image-regions.js';
import { insertRegionBlocks } from './ocr/ocr-layout.js';
import { wantsGridFromPicture } from './ocr/layered-scan-rules.js';
import type { DrawnGrid, PageOcr, RegionBlocks } from './ocr/page-ocr.js';
import { isGarbageTextLayer } from './ocr/text-quality.js';
import { holdsGarbledText, readableBlockByBlock, readGarbledBlocks, type GarbledRegion } from './ocr/garbled-blocks.js';
import type { OcrLine } from './ocr/ocr-line.js';
import { readNativePages, type NativePage, type NativeReading } from './liteparse/read-pages.js';
import { rectInView, turnRect, viewSize, type Turn } from './page-turns.js';
import { layoutPage, type PageLayoutInput } from './page-layout.js';
import { assignStructureRoles } from './tagged-blocks.js';
import { pdfjsTaggedRuns, type PdfjsStructNode } from './pdfjs-marks.js';
import { formFieldMarks, withFreeText } from './form-marks.js';
import { overlaps } from './measure.js';
import { answerRuns, fillFormFields, withoutFieldFrames } from './form-values.js';
import { pdfjsAnnotations } from './pdfjs-annotations.js';
import { commentsBlock, commentsOf, type PageComment } from './page-comments.js';
import { bodySizeOf } from './headings.js';
import {
  installPatchedPdfjsWorker,
  pdfjsPatchStats,
  pdfStreamLimits,
  STREAM_TOO_LARGE_MESSAGE,
  streamTooLargeMessage,
  type PdfFontFacts,
} from './pdfjs-worker.js';
import { cutShort, recoverTruncatedPdf } from './recover.js';
import { isSymbolFontName } from './symbol-font-text.js';
import { readStatedInfo, type StatedInfo } from './stated-info.js';
import type { OutlineEntry } from './outline-headings.js';
import { pdfjsOutline } from './pdfjs-outline.js';
import { readStatedOutline } from './stated-outline.js';
import { boxesInViewport, isRulingsItem, rulingsInViewport, type Ruling } from './rulings.js';
import { squaringTurn } from './slanted-pages.js';
import {
  isBoldFontName,
  isMonospaceFontName,
  itemsTurn,
  monospaceShare,
  multiply,
  normaliseItems,
  type FontStyle,
  type RawTextItem,
} from './text-items.js';
import { append, type FoundTable, type ProtoBlock, type Rect } from './types.js';
import { gridRows } from './table-grid.js';

/** Where the pdfjs package keeps its data folders (trailing slash: pdfjs requires it). */
function packageFolder(name: string): string {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return `${root}/${name}/`;
}

let folders: { standardFonts: string; cMaps: string; wasm: string; icc: string } | undefined;
function pdfjsFolders() {
  folders ??= {
    standardFonts: packageFolder('standard_fonts'),
    cMaps: packageFolder('cmaps'),
    wasm: packageFolder('wasm'),
    icc: packageFolder('iccs'),
  };
  return folders;
}

/** The `%PDF-` header is found by the engine's one sniffer (re-exported for the converter's callers). */
export { findPdfHeader };

interface PdfjsError {
  name?: string;
  message?: string;
}

function errorName(error: unknown): string {
  return (error as PdfjsError | null)?.name ?? '';
}
function errorMessage(error: unknown): string {
  const message = (error as PdfjsError | null)?.message;
  return typeof message === 'string' && message ? message : String(error);
}

/**
 * pdfjs, loaded with the first document that needs it: LiteParse serves most documents alone, and pdfjs's bundles
 * keep some 12 MB of heap in each thread that loads them (pdfjs-environment.ts keeps their drawing and fetch modules
 * out). Its polyfills replace the native `Array.prototype.push`, `JSON.stringify` and `JSON.parse` as it loads
 * (native-builtins.ts), which would slow every user of them in the thread, the layout and the result's encoding
 * among them: the native ones are put back at once.
 */
let pdfjsModule: Promise<typeof Pdfjs> | undefined;

/** The display layer's minified build (half the source V8 keeps), evaluated without canvas or fetch (pdfjs-environment.ts). */
async function evaluateDisplayLayer(): Promise<typeof Pdfjs> {
  const restore = leanPdfjsEnvironment();
  try {
    return await import('pdfjs-dist/legacy/build/pdf.min.mjs');
  } finally {
    restore();
  }
}

function loadPdfjs(): Promise<typeof Pdfjs> {
  pdfjsModule ??= evaluateDisplayLayer().then((module) => {
    restoreNativeBuiltins();
    return module;
  });
  return pdfjsModule;
}

type PdfDocument = Awaited<ReturnType<typeof Pdfjs.getDocument>['promise']>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

/**
 * One pdfjs (fake) worker for every document of this thread, as pdfjs's viewer keeps one for every document it
 * opens: setting a worker up for each document cost about a tenth of the time of a small one. Each document
 * still gets its own document handler and caches in it; destroying a document leaves the worker.
 */
let sharedWorker: Pdfjs.PDFWorker | undefined;

function pdfjsWorker(pdfjs: typeof Pdfjs): Pdfjs.PDFWorker {
  if (!sharedWorker || sharedWorker.destroyed) sharedWorker = new pdfjs.PDFWorker({ verbosity: 0 });
  return sharedWorker;
}

async function openDocument(bytes: Uint8Array): Promise<PdfDocument> {
  const pdfjs = await loadPdfjs();
  const dirs = pdfjsFolders();
  installPatchedPdfjsWorker();
  const task = pdfjs.getDocument({
    worker: pdfjsWorker(pdfjs),
    // pdfjs transfers (detaches) the buffer it is given, and refuses a Node Buffer: a plain Uint8Array copy
    // keeps the caller's bytes intact whatever view they came in.
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    enableXfa: false,
    disableRange: true,
    disableStream: true,
    disableAutoFetch: true,
    // Text only: images are never decoded.
    maxImageSize: 0,
    BinaryDataFactory: CachedBinaryDataFactory,
    standardFontDataUrl: dirs.standardFonts,
    cMapUrl: dirs.cMaps,
    cMapPacked: true,
    wasmUrl: dirs.wasm,
    iccUrl: dirs.icc,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (error) {
    restoreNativeBuiltins();
    await task.destroy().catch(() => undefined);
    throw error;
  }
}

function openError(error: unknown): EngineError {
  const name = errorName(error);
  if (name === 'PasswordException') {
    return new EngineError('ENCRYPTED_DOCUMENT', 'the PDF is password-protected', { cause: error });
  }
  if (name === 'InvalidPDFException') {
    return new EngineError(
      'CORRUPT_DOCUMENT',
      `the PDF is corrupt or truncated and no page could be recovered (${errorMessage(error)})`,
      { cause: error },
    );
  }
  return new EngineError('CORRUPT_DOCUMENT', `the PDF could not be read: ${errorMessage(error)}`, { cause: error });
}

/** A document pdfjs opened: `bytes` are those it read, the file's own or, `recovered`, the file repaired. */
interface OpenedPdf {
  doc: PdfDocument;
  recovered: boolean;
  bytes: Uint8Array;
}

/**
 * Opens the PDF, repaired (recover.ts) when it was cut short or when pdfjs cannot open it (no trailer, no
 * catalogue). A file cut short is opened repaired first: pdfjs rebuilding its table itself keeps the first revision
 * of an object it meets, where the file's last one is the one that counts (an incremental update's page tree).
 */
async function openWithRecovery(bytes: Uint8Array): Promise<OpenedPdf> {
  const cut = cutShort(bytes);
  const first = cut ? await openRepaired(bytes) : undefined;
  if (first) return first;
  try {
    return { doc: await openDocument(bytes), recovered: false, bytes };
  } catch (error) {
    if (errorName(error) === 'PasswordException') throw openError(error);
    const opened = cut ? undefined : await openRepaired(bytes);
    if (opened) return opened;
    // The failure of the file as uploaded: it names what is wrong with it.
    throw openError(error);
  }
}

/** The file repaired (recover.ts) and opened; undefined when nothing of it can be repaired or pdfjs still refuses it. */
async function openRepaired(bytes: Uint8Array): Promise<OpenedPdf | undefined> {
  const repaired = recoverTruncatedPdf(bytes);
  if (!repaired) return undefined;
  try {
    return { doc: await openDocument(repaired), recovered: true, bytes: repaired };
  } catch {
    return undefined;
  }
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

function cleanString(value: unknown): string | undefined {
  let text: string | undefined;
  if (typeof value === 'string') text = value;
  else if (Array.isArray(value)) text = value.find((entry): entry is string => typeof entry === 'string' && !!entry.trim());
  if (text === undefined) return undefined;
  const cleaned = text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  return cleaned || undefined;
}

/** title, author and language from the document's own strings (XMP's title and creator where the info has none). */
function metadataOf(info: Record<string, unknown>, xmp?: (key: string) => unknown): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {};
  const title = cleanString(info.Title) ?? cleanString(xmp?.('dc:title'));
  const author = cleanString(info.Author) ?? cleanString(xmp?.('dc:creator'));
  const language = cleanString(info.Language);
  if (title) out.title = title;
  if (author) out.author = author;
  if (language) out.language = language;
  return out;
}

async function readMetadata(doc: PdfDocumentSource): Promise<Record<string, MetadataValue>> {
  try {
    const { info, metadata } = await doc.getMetadata();
    return metadataOf((info ?? {}) as Record<string, unknown>, metadata ? (key) => metadata.get(key) : undefined);
  } catch {
    // Metadata is optional; a broken info dictionary must not fail the parse.
    return {};
  }
}

/**
 * The metadata read from the bytes as pdfjs would read it (stated-info.ts), or undefined when only pdfjs can
 * tell: then it opens the document for it.
 */
function statedMetadata(stated: StatedInfo | undefined): Record<string, MetadataValue> | undefined {
  if (!stated) return undefined;
  const metadata = metadataOf({ Title: stated.title, Author: stated.author, Language: stated.language });
  // pdfjs would take a missing title or author from the XMP packet, where it names one.
  const names = stated.xmpNames ?? { title: true, author: true };
  if (stated.xmp && ((metadata.title === undefined && names.title) || (metadata.author === undefined && names.author))) return undefined;
  return metadata;
}

const FORCE_BOLD_WEIGHT = 600;

/**
 * Bold and monospace from what the patched worker reports of a font (name, descriptor weight and flags), and
 * pdfjs's family guess, which says "monospace" for a FixedPitch font and for one whose listed widths are all
 * equal (it can catch a code font with an uninformative name; a subset of a few equal-width glyphs, such as
 * digits only, is a known false positive).
 */
export function fontStyleOf(facts: PdfFontFacts | undefined, fontFamily: string | undefined): FontStyle {
  return {
    bold:
      facts !== undefined &&
      (facts.bold || facts.forceBold || (facts.weight ?? 0) >= FORCE_BOLD_WEIGHT || isBoldFontName(facts.name)),
    monospace: fontFamily === 'monospace' || facts?.fixedPitch === true || isMonospaceFontName(facts?.name),
    ...(isSymbolFontName(facts?.name) ? { symbol: true } : {}),
  };
}

/** "1-3, 7, 9" for page lists; long lists are shortened. */
export function formatPageList(pages: readonly number[]): string {
  const ranges: string[] = [];
  let i = 0;
  while (i < pages.length) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    ranges.push(i === j ? `${pages[i]}` : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return ranges.length > 12 ? `${ranges.slice(0, 12).join(', ')}, … (${pages.length} pages)` : ranges.join(', ');
}

/** What `readDocument` needs of a pdfjs document (tests wrap one to make a page fail). */
export type PdfDocumentSource = Pick<PdfDocument, 'numPages' | 'getPage' | 'getMetadata'> & {
  /** pdfjs opened the document only once repaired (recover.ts): its pages come from the repaired bytes. */
  readonly recovered?: boolean;
};

/**
 * pdfjs's document, opened when a page or the metadata first needs it: LiteParse (PDFium) has opened the document
 * already, counted its pages and read those it stands for, so most documents never need pdfjs at all.
 */
class PdfjsWhenNeeded implements PdfDocumentSource {
  #opened: Promise<OpenedPdf> | undefined;
  #recovered = false;

  constructor(
    readonly bytes: Uint8Array,
    readonly numPages: number,
  ) {}

  get recovered(): boolean {
    return this.#recovered;
  }

  async #doc(): Promise<PdfDocument> {
    this.#opened ??= openPdf(this.bytes);
    const { doc, recovered } = await this.#opened;
    this.#recovered = recovered;
    return doc;
  }

  async getPage(pageNumber: number): Promise<PdfPage> {
    return (await this.#doc()).getPage(pageNumber);
  }

  async getMetadata(): ReturnType<PdfDocument['getMetadata']> {
    return (await this.#doc()).getMetadata();
  }

  async outline(): Promise<OutlineEntry[]> {
    return pdfjsOutline(await this.#doc());
  }

  async destroy(): Promise<void> {
    const opened = await this.#opened?.catch(() => undefined);
    await opened?.doc.destroy().catch(() => undefined);
  }
}

interface PageResult {
  page: LaidOutPage;
  /** Characters on the page; 0 means no text layer. */
  chars: number;
  /**
   * The text layer's glyphs map to nothing readable (private-use code points, U+FFFD, controls). Asked only by
   * mode auto's OCR decision: mode fast never reads the page's characters again for it.
   */
  garbage?: () => boolean;
  /** What mode auto would OCR on a page with a text layer, from the images it paints (ocr/image-regions.ts). */
  imagePlan?: OcrPlan;
  /** Why the page is `failed`. */
  error?: unknown;
  /** Its reviewers' comments (page-comments.ts), whatever reads its text. */
  comments?: PageComment[];
}

/**
 * One page: text content (with font facts) → normalised items → layout (with the tables LiteParse found). A page
 * whose text runs sideways or upside down has its items placed again through a viewport turned with its text, as a
 * LiteParse page is read (liteparse/upright-pages.ts), and its places are turned back to the page's view.
 */
async function readPage(
  doc: PdfDocumentSource,
  pageNumber: number,
  nativeTables?: readonly FoundTable[],
  gridFromPicture?: (pageNumber: number, squaring?: readonly number[]) => Promise<DrawnGrid>,
  goingOn: PageGoingOn = {},
): Promise<PageResult> {
  let page: PdfPage;
  try {
    page = await doc.getPage(pageNumber);
  } catch (error) {
    return { page: { pageNumber, width: null, height: null, status: 'failed', layout: null }, chars: 0, error };
  }
  const view = page.getViewport({ scale: 1 });
  try {
    // A tagged page's tree, and then the marked content of its items (pdfjs gives them only when asked).
    const tree = ((await page.getStructTree().catch(() => null)) ?? null) as PdfjsStructNode | null;
    const content = await page.getTextContent({ includeMarkedContent: tree !== null });
    const raw = content.items.filter((item): item is typeof item & RawTextItem => 'str' in item);
    const withText = raw.filter((item) => item.str.trim().length > 0);
    const styles = content.styles as Record<string, { fontFamily?: string; docmill?: PdfFontFacts } | undefined>;
    const known = new Map<string, FontStyle>();
    const styleOf = (fontName: string): FontStyle => {
      let style = known.get(fontName);
      if (!style) {
        style = fontStyleOf(styles[fontName]?.docmill, styles[fontName]?.fontFamily);
        known.set(fontName, style);
      }
      return style;
    };
    let normalised = normaliseItems(withText, view.transform, styleOf);
    const turn = itemsTurn(normalised);
    const viewport = turn === 0 ? view : page.getViewport({ scale: 1, rotation: (view.rotation + 360 - turn) % 360 });
    // A page slanted a few degrees (a scan's OCR layer) is read square; a turned one in its text's frame.
    const squaring = turn === 0 ? squaringTurn(withText, view) : undefined;
    const squared = squaring && multiply(squaring, view.transform);
    const transform = squared ?? viewport.transform;
    if (turn !== 0 || squared) normalised = normaliseItems(withText, transform, styleOf);
    const { width, height } = viewport;
    // LiteParse's tables on a turned page are read across its view: not the text's.
    const foundTables = turn === 0 ? nativeTables : undefined;
    const rulings: Ruling[] = [];
    const boxes: Rect[] = [];
    const imageBoxes: number[] = [];
    for (const item of content.items as unknown[]) {
      if (isRulingsItem(item)) {
        append(rulings, rulingsInViewport(item.rules, transform));
        if (item.boxes) append(boxes, boxesInViewport(item.boxes, transform));
      }
      else if (isImagesItem(item)) append(imageBoxes, item.boxes);
    }
    // What the page's form holds and what is typed onto it, as the LiteParse path reads them (form-values.ts).
    const annotations = pdfjsAnnotations(await page.getAnnotations().catch(() => []), transform);
    const fields = annotations.fields;
    const filled = fillFormFields(withFreeText(fields, annotations.annotations), normalised.items);
    const tables = filled.replaced.length > 0 ? foundTables?.filter((table) => !filled.replaced.some((box) => overlaps(box, table.rect))) : foundTables;
    for (const mark of formFieldMarks(fields, normalised.items)) normalised.items.push(mark);
    const comments = commentsOf(annotations.annotations);
    if (normalised.chars === 0) {
      return { page: { pageNumber, width: view.width, height: view.height, status: 'partial', layout: null }, chars: 0, comments };
    }
    // The page's images, for the grid its picture draws and for mode auto's OCR plan.
    const images = imageBoxes.length > 0 ? imagesInViewport(imageBoxes, viewport.transform, width, height) : undefined;
    // A layered scan's table borders are pixels of its picture, as on a LiteParse page (ocr/layered-scan-rules.ts).
    // A scan askew has its picture turned with its text.
    if (gridFromPicture && turn === 0 && images && wantsGridFromPicture({ width, height, chars: normalised.chars, items: normalised.items, rulings, images })) {
      const grid = await gridFromPicture(pageNumber, squaring).catch(() => NO_GRID);
      append(rulings, grid.rules);
      append(boxes, grid.boxes);
    }
    const tagged = tree ? pdfjsTaggedRuns(content.items, tree, transform) : [];
    if (tagged.length > 0) append(tagged, answerRuns(filled.answers));
    const layout = layoutPage({ items: normalised.items, rotated: normalised.rotated, rulings: withoutFieldFrames(rulings, filled.answered), boxes: withoutFieldFrames(boxes, filled.answered), ...(tables ? { tables } : {}), ...(tagged.length > 0 ? { tagged } : {}), ...goingOn, width, height });
    if (tagged.length > 0) assignStructureRoles(layout.blocks, tagged, bodySizeOf(layout.sizes));
    // The page's view, where every place goes back to from a turned frame.
    if (turn !== 0) for (const block of layout.blocks) block.rect = rectInView(block.rect, turn, view.width, view.height);
    const result: PageResult = { page: { pageNumber, width: view.width, height: view.height, status: 'ok', layout }, chars: normalised.chars, garbage: () => isGarbageTextLayer(withText.map((item) => item.str)), comments };
    if (images) {
      result.imagePlan = planInView(planImageOcr(images, normalised.items, width, height), turn, view.width, view.height);
    }
    return result;
  } catch (error) {
    return { page: { pageNumber, width: view.width, height: view.height, status: 'failed', layout: null }, chars: 0, error };
  } finally {
    page.cleanup();
  }
}

/**
 * A page LiteParse read, laid out by docmill (the same layout as a pdfjs page's; see liteparse/read-pages.ts),
 * with mode auto's OCR plan from the images LiteParse found on it.
 */
function nativePageResult(pageNumber: number, native: NativePage, goingOn: PageGoingOn = {}): PageResult {
  const turn = native.turn ?? 0;
  // The page's view: a page read turned (liteparse/upright-pages.ts) gives its places in it.
  const { width, height } = viewSize(turn, native.width, native.height);
  if (native.chars === 0) return { page: { pageNumber, width, height, status: 'partial', layout: null }, chars: 0 };
  const { tagged } = native;
  const layout = layoutPage({
    items: native.items,
    rotated: native.rotated,
    rulings: native.rulings,
    boxes: native.boxes,
    tables: native.tables,
    ...(tagged ? { tagged } : {}),
    ...goingOn,
    width: native.width,
    height: native.height,
  });
  if (tagged) assignStructureRoles(layout.blocks, tagged, bodySizeOf(layout.sizes));
  if (turn !== 0) for (const block of layout.blocks) block.rect = rectInView(block.rect, turn, width, height);
  const result: PageResult = {
    page: { pageNumber, width, height, status: 'ok', layout },
    chars: native.chars,
    garbage: () => isGarbageTextLayer(native.strings),
  };
  if (native.comments) result.comments = native.comments;
  if (native.images?.length) result.imagePlan = planInView(planImageOcr(native.images, native.items, native.width, native.height), turn, width, height);
  return result;
}

/** An OCR plan made in the frame turned by `turn`, its regions in the page's view (`width` by `height`). */
function planInView(plan: OcrPlan, turn: Turn, width: number, height: number): OcrPlan {
  if (turn === 0) return plan;
  return { ...plan, regions: plan.regions.map((region) => rectInView(region, turn, width, height)) };
}

/**
 * Mode auto's image plan for a page LiteParse read, from the images the pdfjs pass records (a form XObject's
 * among them) against LiteParse's text; the page's text and layout stay LiteParse's. Left out when pdfjs cannot
 * read the page: the plan from LiteParse's images stands.
 */
async function pdfjsImagePlan(doc: PdfDocumentSource, pageNumber: number, native: NativePage): Promise<OcrPlan | undefined> {
  let page: PdfPage;
  try {
    page = await doc.getPage(pageNumber);
  } catch {
    return undefined;
  }
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent({ includeMarkedContent: false });
    const boxes: number[] = [];
    for (const item of content.items as unknown[]) if (isImagesItem(item)) append(boxes, item.boxes);
    const turn = native.turn ?? 0;
    const images = imagesInViewport(boxes, viewport.transform, viewport.width, viewport.height).map((image) => turnRect(image, turn, viewport.width, viewport.height));
    const shown = viewSize(turn, native.width, native.height);
    return planInView(planImageOcr(images, native.items, native.width, native.height), turn, shown.width, shown.height);
  } catch {
    return undefined;
  } finally {
    page.cleanup();
  }
}

/** Reads a page by OCR (given to `readDocument` by the converter; tests may leave it out). */
export interface PageOcrSource {
  readPage(pageNumber: number, width: number, height: number, options?: { onlyIfText?: boolean }): ReturnType<PageOcr['readPage']>;
  /** Reads image regions of a page (mode auto on a page with a text layer and images without text over them). */
  readRegions?(pageNumber: number, width: number, height: number, regions: Parameters<PageOcr['readRegions']>[3]): Promise<RegionBlocks[]>;
  /** The ruled lines and shaded boxes of a page's picture (mode auto on a layered scan; ocr/layered-scan-rules.ts). */
  readDrawnGrid?(pageNumber: number, squaring?: readonly number[]): Promise<DrawnGrid>;
  /** Reads blocks of a page again whose glyphs map to nothing readable (mode auto; garbled-blocks.ts). */
  readGarbled?(pageNumber: number, regions: readonly GarbledRegion[]): Promise<OcrLine[][]>;
  /** Told the document's declared language before any page is read. */
  useDeclaredLanguage?(declared: string | undefined): void;
  /** Why pages were read in another language than the document's, once read. */
  readonly languageWarning?: string | undefined;
}

/** A page whose picture could not be drawn keeps its text layer's reading, as mode fast reads it. */
const NO_GRID: DrawnGrid = { rules: [], boxes: [] };

/**
 * Mode ocr: every readable page; mode auto: pages with no text layer or a garbage one, scans whose text layer is
 * only a stamp over a page-sized image (`page-if-more`: the OCR reading is kept only when it reads more, see
 * `ocrPage`), and image regions with no text over them on other pages; mode fast: none.
 */
function wantsOcr(parser: PdfParser, result: PageResult): 'page' | 'page-if-more' | 'regions' | undefined {
  if (result.page.status === 'failed' || !result.page.width || !result.page.height) return undefined;
  if (parser.mode === 'ocr') return 'page';
  if (parser.mode !== 'auto') return undefined;
  if (result.chars === 0) return 'page';
  // A garbage text layer whose garbled text is all prose is read again block by block (ocrGarbledBlocks), keeping its layout.
  if (result.garbage?.() === true && !(result.page.layout && readableBlockByBlock(result.page.layout.blocks))) return 'page';
  if (result.imagePlan?.fullPage) return 'page-if-more';
  return result.imagePlan?.regions.length ? 'regions' : undefined;
}

/**
 * An OCR reading of a page that has a (stamp-sized) text layer replaces it only when it reads at least this many
 * times its characters: a scan's body does, a cover photo behind a real title does not.
 */
const OCR_OVER_STAMP = 2;

/**
 * The page replaced by its OCR reading; the text-layer result stays when OCR fails (with the reason), and for
 * `page-if-more` when the page's render does not look like text on paper (a photo behind a title) or
 * OCR reads no more than the text layer holds.
 */
async function ocrPage(
  ocr: PageOcrSource,
  result: PageResult,
  how: 'page' | 'page-if-more',
): Promise<PageResult & { ocrError?: unknown; ocrEmpty?: boolean }> {
  const { pageNumber, width, height } = result.page;
  // Loaded already: only a converter that OCRs calls this.
  const { FULL_PAGE_SOURCE } = await import('./ocr/page-ocr.js');
  try {
    const layout = await ocr.readPage(pageNumber, width!, height!, how === 'page-if-more' ? { onlyIfText: true } : {});
    if (layout === undefined) return result;
    const chars = layout ? layout.blocks.reduce((sum, block) => sum + block.chars, 0) : 0;
    if (how === 'page-if-more' && chars < OCR_OVER_STAMP * result.chars) return result;
    if (!layout) {
      return { page: { pageNumber, width, height, status: 'partial', layout: null, source: FULL_PAGE_SOURCE }, chars: 0, ocrEmpty: true };
    }
    return { page: { pageNumber, width, height, status: 'ok', layout, source: FULL_PAGE_SOURCE }, chars };
  } catch (error) {
    // A failure of the document (an OCR language asked for and not installed) is not a page's to swallow.
    if (error instanceof EngineError) throw error;
    return { ...result, ocrError: error };
  }
}

/** The page with the text OCR read in its image regions placed among its blocks; unchanged when OCR fails. */
async function ocrRegions(ocr: PageOcrSource, result: PageResult): Promise<PageResult & { ocrError?: unknown }> {
  const { pageNumber, width, height, layout } = result.page;
  if (!ocr.readRegions || !layout || !result.imagePlan) return result;
  try {
    const read = await ocr.readRegions(pageNumber, width!, height!, result.imagePlan.regions);
    let blocks = layout.blocks;
    let chars = result.chars;
    for (const { region, blocks: regionBlocks } of read) {
      blocks = insertRegionBlocks(blocks, region, regionBlocks, width!);
      for (const block of regionBlocks) chars += block.chars;
    }
    return { ...result, page: { ...result.page, layout: { ...layout, blocks } }, chars };
  } catch (error) {
    // A failure of the document (an OCR language asked for and not installed) is not a page's to swallow.
    if (error instanceof EngineError) throw error;
    return { ...result, ocrError: error };
  }
}

/**
 * The page with the blocks its text layer garbles read again by OCR (garbled-blocks.ts), in mode auto on a page
 * that keeps its text layer; unchanged when there are none or OCR fails (with the reason).
 */
async function ocrGarbledBlocks(ocr: PageOcrSource, result: PageResult): Promise<PageResult & { ocrError?: unknown }> {
  const { pageNumber, width, height, layout } = result.page;
  if (!ocr.readGarbled || !layout || result.page.source !== undefined || !width || !height) return result;
  try {
    const readGarbled = ocr.readGarbled.bind(ocr);
    const blocks = await readGarbledBlocks(layout.blocks, width, height, (regions) => readGarbled(pageNumber, regions));
    if (!blocks) return result;
    return { ...result, page: { ...result.page, layout: { ...layout, blocks } } };
  } catch (error) {
    if (error instanceof EngineError) throw error;
    return { ...result, ocrError: error };
  }
}

/** What a page's layout is told of the page before it: a listing or a table the page may go on with. */
type PageGoingOn = Pick<PageLayoutInput, 'codeGoesOn' | 'tableGoesOn'>;

/** The last block of the page's flow (its margin zones left out). */
function lastFlowBlock(page: LaidOutPage | undefined): ProtoBlock | undefined {
  const blocks = page?.layout?.blocks;
  if (!blocks) return undefined;
  for (let i = blocks.length - 1; i >= 0; i--) if (blocks[i]!.zone === undefined) return blocks[i];
  return undefined;
}

/** Whether the page's flow ends in a code block: a listing the next page may go on with. */
function endsInCode(page: LaidOutPage | undefined): boolean {
  return lastFlowBlock(page)?.kind === 'code';
}

/** The header row of the table the page's flow ends with, which the next page may repeat over the table's rows. */
function tableGoingOn(page: LaidOutPage | undefined): PageGoingOn {
  const last = lastFlowBlock(page);
  if (last?.kind !== 'table' || !last.table || last.table.colCount < 2) return {};
  const [header] = gridRows(last.table);
  return header ? { tableGoesOn: header } : {};
}

/** Monospaced characters under this share of a document's leave its text proportional, its monospace code. */
const PROPORTIONAL_TEXT = 0.5;

/** Whether most of the document's characters are in proportional type (its pages as LiteParse read them). */
function isProportionalText(reading: NativeReading): boolean {
  return monospaceShare([...reading.pages.values()].flatMap((page) => page.items)) < PROPORTIONAL_TEXT;
}

/**
 * Reads an open document into the model: every page up to `maxPages` (a page that throws is `failed` and the
 * rest go on), pages OCR'd as the mode asks, pages still without text `partial` with a warning (or
 * OCR_REQUIRED in mode fast when no page has text), document-wide layout decisions, metadata.
 */
export async function readDocument(
  doc: PdfDocumentSource,
  parser: PdfParser,
  options: {
    recovered?: boolean;
    ocr?: PageOcrSource;
    native?: NativeReading | undefined;
    /** Read already (from the bytes); else pdfjs reads it. */
    metadata?: Record<string, MetadataValue> | undefined;
    /** The document's bookmarks, where it has any (outline-headings.ts). */
    outline?: readonly OutlineEntry[] | undefined;
  } = {},
): Promise<DocumentModel> {
  const totalPages = doc.numPages;
  if (!(totalPages > 0)) throw new EngineError('EMPTY_DOCUMENT', 'the PDF has no pages');
  const pageCount = Math.min(totalPages, parser.maxPages ?? totalPages);
  const metadata = options.metadata ?? (await readMetadata(doc));
  options.ocr?.useDeclaredLanguage?.(typeof metadata.language === 'string' ? metadata.language : undefined);
  const pages: LaidOutPage[] = [];
  const noText: number[] = [];
  const failed: { page: number; error: unknown }[] = [];
  const cut: number[] = [];
  const ocrFailed: { page: number; error: unknown }[] = [];
  /** Pages whose text is still garbled at the end: left so in mode fast, or OCR could not read it. */
  const garbled: number[] = [];

  // Mode auto draws a layered scan's page for the table borders in its picture (ocr/layered-scan-rules.ts). A page
  // that cannot be drawn keeps its text layer's reading, as mode fast reads it.
  const gridFromPicture = parser.mode === 'auto' ? options.ocr?.readDrawnGrid?.bind(options.ocr) : undefined;
  // Read once, when a page ends in a code block (a listing may go on over the next page).
  let proportional: boolean | undefined;
  for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
    const refusedBefore = pdfjsPatchStats().streamsRefused;
    const native = options.native?.pages.get(pageNumber);
    if (native && gridFromPicture && native.turn === undefined && wantsGridFromPicture(native)) {
      const grid = await gridFromPicture(pageNumber).catch(() => NO_GRID);
      append(native.rulings, grid.rules);
      append(native.boxes, grid.boxes);
    }
    const before = pages.at(-1);
    const goingOn = tableGoingOn(before);
    let result: PageResult = native
      ? nativePageResult(pageNumber, native, endsInCode(before) && (proportional ??= isProportionalText(options.native!)) ? { ...goingOn, codeGoesOn: true } : goingOn)
      : await readPage(doc, pageNumber, options.native?.tables.get(pageNumber), gridFromPicture, goingOn);
    // A stream stopped at the size limit either failed the page or, read piecemeal, ended its text early.
    if (result.page.status !== 'failed' && pdfjsPatchStats().streamsRefused > refusedBefore) cut.push(pageNumber);
    if (native?.imagesFromPdfjs && parser.mode === 'auto' && result.chars > 0) {
      const plan = await pdfjsImagePlan(doc, pageNumber, native);
      if (plan) result.imagePlan = plan;
    }
    const comments = result.comments;
    const how = options.ocr ? wantsOcr(parser, result) : undefined;
    if (options.ocr && how) {
      const read = how === 'regions' ? await ocrRegions(options.ocr, result) : await ocrPage(options.ocr, result, how);
      if (read.ocrError !== undefined) ocrFailed.push({ page: pageNumber, error: read.ocrError });
      result = read;
    }
    if (options.ocr && parser.mode === 'auto' && result.page.status === 'ok' && ocrFailed.at(-1)?.page !== pageNumber) {
      const read = await ocrGarbledBlocks(options.ocr, result);
      if (read.ocrError !== undefined) ocrFailed.push({ page: pageNumber, error: read.ocrError });
      result = read;
    }
    if (result.page.status === 'ok' && result.page.layout && holdsGarbledText(result.page.layout.blocks)) garbled.push(pageNumber);
    // Whatever read the page (its text layer, OCR), its comments are the annotations'.
    const listed = comments && commentsBlock(comments);
    if (listed && result.page.layout) result.page.layout.blocks.push(listed);
    pages.push(result.page);
    if (result.page.status === 'failed') failed.push({ page: pageNumber, error: result.error });
    else if (result.chars === 0 && ocrFailed.at(-1)?.page !== pageNumber) noText.push(pageNumber);
  }

  if (failed.length === pageCount) {
    const first = failed[0]!;
    if (errorMessage(first.error).includes(STREAM_TOO_LARGE_MESSAGE)) {
      throw new EngineError('DOCUMENT_TOO_COMPLEX', `no page of the PDF could be read: page ${first.page}: ${errorMessage(first.error)}`, {
        cause: first.error,
      });
    }
    throw new EngineError(
      'CORRUPT_DOCUMENT',
      `no page of the PDF could be read: page ${first.page}: ${errorMessage(first.error)}`,
      { cause: first.error },
    );
  }

  const warnings: string[] = [];
  if (options.recovered || doc.recovered) warnings.push('The PDF is damaged (no usable cross-reference table); its pages were recovered.');
  if (failed.length > 0) {
    const list = formatPageList(failed.map((entry) => entry.page));
    warnings.push(`Page(s) ${list} could not be read: ${errorMessage(failed[0]!.error)}`);
  }
  if (cut.length > 0) {
    const cause = streamTooLargeMessage(pdfStreamLimits.maxInflatedBytes);
    warnings.push(`Page(s) ${formatPageList(cut)}: ${cause}; the text after that point is missing.`);
  }
  if (options.ocr?.languageWarning) warnings.push(options.ocr.languageWarning);
  if (ocrFailed.length > 0) {
    const list = formatPageList(ocrFailed.map((entry) => entry.page));
    warnings.push(`OCR failed on page(s) ${list} (${errorMessage(ocrFailed[0]!.error)}); their text layer was used.`);
  }
  if (garbled.length > 0) {
    const list = formatPageList(garbled);
    warnings.push(
      parser.mode === 'fast'
        ? `Page(s) ${list}: some text is set in fonts that map their glyphs to nothing readable (U+FFFD); mode auto reads it again by OCR.`
        : `Page(s) ${list}: some text is set in fonts that map their glyphs to nothing readable (U+FFFD), and OCR could not read it either.`,
    );
  }
  if (noText.length > 0) {
    const list = formatPageList(noText);
    // In a file cut short, a page may have lost its text, or the fonts its text is drawn with: not a scan.
    const damaged = options.recovered || doc.recovered;
    const lost = `show no text: the PDF is damaged (cut short), and what was recovered of them holds none, or only in fonts that were lost`;
    if (noText.length + failed.length === pageCount && parser.mode === 'fast') {
      throw new EngineError(
        'OCR_REQUIRED',
        damaged
          ? `page(s) ${list} ${lost}; mode "fast" does not OCR; use mode "auto" or "ocr"`
          : `page(s) ${list} have no text layer (scanned or image-only) and mode "fast" does not OCR; use mode "auto" or "ocr"`,
      );
    }
    const reason = damaged
      ? {
          fast: `Page(s) ${list} ${lost}; they are left empty: mode "fast" does not OCR.`,
          auto: `Page(s) ${list} ${lost}, and OCR found no text on them either; they are left empty.`,
          ocr: `OCR found no text on page(s) ${list}; they are left empty.`,
        }
      : {
          fast: `Page(s) ${list} have no text layer (scanned or image-only) and are left empty: mode "fast" does not OCR.`,
          auto: `Page(s) ${list} have no text layer and OCR found no text on them; they are left empty.`,
          ocr: `OCR found no text on page(s) ${list}; they are left empty.`,
        };
    warnings.push(reason[parser.mode]);
  }

  const model: DocumentModel = {
    pages: finishDocument(pages, options.outline),
    metadata: { ...metadata, numPages: pageCount, totalPages },
  };
  if (warnings.length > 0) model.warnings = warnings;
  return model;
}

/** Empty and non-PDF bytes are refused before any library opens them. */
function checkPdfBytes(bytes: Uint8Array): void {
  if (bytes.length === 0) {
    throw new EngineError('EMPTY_DOCUMENT', 'the PDF is empty (0 bytes)');
  }
  if (findPdfHeader(bytes) < 0) {
    throw new EngineError('CORRUPT_DOCUMENT', 'the file is not a PDF: no %PDF- header in its first 1024 bytes');
  }
}

/**
 * Opens PDF bytes with pdfjs (one recovery attempt for files without a usable trailer), with clear errors
 * for empty, non-PDF, encrypted and corrupt files. The caller must `await doc.destroy()`.
 */
export async function openPdf(bytes: Uint8Array): Promise<OpenedPdf> {
  checkPdfBytes(bytes);
  const opened = await openWithRecovery(bytes);
  // pdfjs loads its worker module with the first document; both bundles replace the same built-ins.
  restoreNativeBuiltins();
  return opened;
}

/**
 * Whether a document whose bookmarks could not be read from the bytes (stated-outline.ts) may have some, so that
 * pdfjs reads them: its catalogue says so where it stands in the clear; where it does not (compressed into an object stream, as pdfTeX writes it), a document of
 * more than one page that names an outline or compresses its objects.
 */
function mayHaveOutline(bytes: Uint8Array, stated: StatedInfo | undefined, totalPages: number): boolean {
  if (stated) return stated.outlines;
  if (totalPages < 2) return false;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return text.includes('/Outlines', 0, 'latin1') || text.includes('/ObjStm', 0, 'latin1');
}

/**
 * The file ends as an intact one does (`startxref`, an offset, `%%EOF`). Only then does PDFium open it first: a
 * file cut short or damaged at its end is opened by pdfjs, which repairs it the way docmill reports (a warning,
 * recover.ts) before LiteParse reads it.
 */
function endsIntact(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', Math.max(0, bytes.length - 1024));
  return /startxref\s+\d+\s+%%EOF\s*$/.test(tail);
}

export const convertPdf: Converter = async (input) => {
  const parser = pdfParserOf(input.options);
  checkPdfBytes(input.bytes);
  // The OCR modules (tesseract.js, PDFium's wasm renderer) load only in a thread that OCRs.
  const ocr = parser.mode === 'fast' ? undefined : new (await import('./ocr/page-ocr.js')).PageOcr(input.bytes, input.ocrLanguages);
  try {
    // LiteParse (PDFium) opens the document and reads its pages; pdfjs opens it only for what needs it.
    const intact = endsIntact(input.bytes);
    const pictures = input.options.removeBase64Images === false;
    // Bookmarks whose chain loops back hang PDFium's iteration of them in LiteParse: pdfjs reads such a file.
    const bookmarks = intact ? readStatedOutline(input.bytes) : undefined;
    const first = intact && !bookmarks?.loops ? await readNativePages(input.bytes, parser.maxPages, parser.mode, pictures) : undefined;
    if (first && first.totalPages > 0) {
      const doc = new PdfjsWhenNeeded(input.bytes, first.totalPages);
      try {
        const stated = readStatedInfo(input.bytes);
        const outline = bookmarks ? bookmarks.entries : mayHaveOutline(input.bytes, stated, first.totalPages) ? await doc.outline() : undefined;
        const model = await readDocument(doc, parser, { native: first, metadata: statedMetadata(stated), outline, ...(ocr ? { ocr } : {}) });
        if (pictures) {
          for (const page of model.pages) {
            const drawing = first.pages.get(page.pageNumber)?.drawing;
            if (drawing) page.drawing = drawing;
          }
        }
        return model;
      } finally {
        await doc.destroy();
      }
    }
    // PDFium could not open it, LiteParse is not loaded here, mode ocr, or a damaged end: pdfjs opens it and says
    // what is wrong with it. A file it had to repair (recover.ts) is read from the repaired bytes, by LiteParse too.
    const { doc, recovered, bytes } = await openPdf(input.bytes);
    if (recovered) ocr?.renderFrom(bytes);
    try {
      const native = intact ? undefined : await readNativePages(bytes, parser.maxPages, parser.mode);
      const outline = await pdfjsOutline(doc);
      return await readDocument(doc, parser, { recovered, native, outline, ...(ocr ? { ocr } : {}) });
    } finally {
      await doc.destroy().catch(() => undefined);
    }
  } finally {
    await ocr?.close();
  }
};
