/**
 * Renders PDF pages to 8-bit greyscale bitmaps with PDFium compiled to WebAssembly (@embedpdf/pdfium): no native
 * canvas, no fonts from the system, nothing from the network. The patched pdfjs of the text layer cannot draw
 * glyphs, so pages to OCR are rendered by this second, independent reader of the same bytes. The WebAssembly
 * module is loaded once per thread, on the first page to render.
 */
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import { countWasmMemory } from '../../wasm-memory.js';
import { encodeFilteredPng } from '../figures/png.js';
import { pdfiumLoading } from '../pdfium-module.js';
import type { Rect } from '../types.js';

/** A page as pixels: one byte per pixel, 0 black to 255 white, rows `width` bytes long. */
export interface GreyBitmap {
  width: number;
  height: number;
  pixels: Uint8Array;
  /** Pixels per PDF point (300 DPI = 300/72). */
  scale: number;
  /** Where the bitmap's top-left pixel is on the page, in page units (0, 0 for a whole page). */
  origin: { x: number; y: number };
}

const OCR_DPI = 300;
/** A bitmap above this many pixels (a poster-sized page) is rendered at a lower resolution. */
const MAX_PIXELS = 40_000_000;
/** A side longer than this cannot be given to tesseract (leptonica's limit is far above; this bounds memory). */
const MAX_SIDE = 20_000;

/** The most pixels drawn at once (the band's bitmap): a 300-DPI letter page is drawn in about eight bands. */
const BAND_PIXELS = 1_048_576;

const FPDFBITMAP_GRAY = 1;
const FPDF_ANNOT = 0x01;
const FPDF_PRINTING = 0x800;
const WHITE = 0xffffffff;

let pdfium: Promise<WrappedPdfiumModule> | undefined;
/**
 * The module let go of after the last document that drew, until V8 collects it. The next document takes it up again
 * if it is still there: a second instance beside it would hold its own memory while the first waits to be collected.
 */
let released: WeakRef<WrappedPdfiumModule> | undefined;

/**
 * The module, loaded on first use and kept until the thread's document is done (the figure reader,
 * figures/page-pictures.ts, shares it): its memory grows to the largest page drawn and never shrinks, so the
 * thread lets go of it between documents (wasm-memory.ts), to be freed with it, and a later document that draws
 * instantiates it again from the pool's compiled module, in a few milliseconds.
 */
export function loadPdfium(): Promise<WrappedPdfiumModule> {
  pdfium ??= (async () => {
    const module = released?.deref() ?? (await instantiatePdfium());
    released = undefined;
    countWasmMemory(
      () => heap(module).byteLength,
      () => {
        pdfium = undefined;
        released = new WeakRef(module);
      },
    );
    return module;
  })();
  return pdfium;
}

async function instantiatePdfium(): Promise<WrappedPdfiumModule> {
  const module = await withoutGlobalHooks(() => init(pdfiumLoading()));
  module.PDFiumExt_Init();
  return module;
}

/**
 * Runs `load`, then takes off the global object the getters it put there. The module is built with Emscripten's
 * assertions, which define a getter on `globalThis` for each symbol it leaves out (to warn whoever reads one); each
 * closes over the instance that defined it, and so kept the thread's first PDFium, and its memory, for the thread's
 * life. Only accessors added meanwhile go.
 */
async function withoutGlobalHooks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Set(Reflect.ownKeys(globalThis));
  try {
    return await load();
  } finally {
    for (const key of Reflect.ownKeys(globalThis)) {
      if (before.has(key)) continue;
      const descriptor = Reflect.getOwnPropertyDescriptor(globalThis, key);
      if (descriptor?.get && descriptor.configurable) Reflect.deleteProperty(globalThis, key);
    }
  }
}

export function heap(module: WrappedPdfiumModule): Uint8Array {
  return (module.pdfium as unknown as { HEAPU8: Uint8Array }).HEAPU8;
}

/** The scale for a page of `width` × `height` points: `dpi`, lowered when the bitmap would be too large. */
export function renderScale(width: number, height: number, dpi = OCR_DPI): number {
  let scale = dpi / 72;
  const pixels = width * scale * height * scale;
  if (pixels > MAX_PIXELS) scale *= Math.sqrt(MAX_PIXELS / pixels);
  const side = Math.max(width, height) * scale;
  if (side > MAX_SIDE) scale *= MAX_SIDE / side;
  return scale;
}

/** One PDF opened in PDFium for rendering; `close()` frees its WebAssembly memory. */
export class PageRenderer {
  readonly #module: WrappedPdfiumModule;
  readonly #doc: number;
  readonly #data: number;

  private constructor(module: WrappedPdfiumModule, doc: number, data: number) {
    this.#module = module;
    this.#doc = doc;
    this.#data = data;
  }

  /** Undefined when PDFium cannot open the file (the text layer may still have been read by pdfjs). */
  static async open(bytes: Uint8Array): Promise<PageRenderer | undefined> {
    const module = await loadPdfium();
    const data = module.pdfium.wasmExports.malloc(bytes.length);
    if (!data) return undefined;
    heap(module).set(bytes, data);
    const doc = module.FPDF_LoadMemDocument(data, bytes.length, '');
    if (!doc) {
      module.pdfium.wasmExports.free(data);
      return undefined;
    }
    return new PageRenderer(module, doc, data);
  }

  /**
   * Page `pageNumber` (1-based) in greyscale, rotation applied as a viewer shows it; with `region` (page units,
   * top-left origin, as the text layer's viewport), only that part of the page, drawn at `dpi` (`origin`: its
   * top-left corner in page units). Undefined if it cannot be drawn.
   */
  render(pageNumber: number, dpi = OCR_DPI, region?: Rect): GreyBitmap | undefined {
    return this.#withPage(pageNumber, (page, widthPt, heightPt) => this.#draw(page, widthPt, heightPt, dpi, region));
  }

  /**
   * Several regions of page `pageNumber` (page units, as `render`) at `dpi`, the page loaded once for all: loading
   * parses its content and fonts, which a second region drawn on its own paid again. Undefined for a region that
   * cannot be drawn, or for all when the page cannot be loaded.
   */
  renderRegions(pageNumber: number, regions: readonly Rect[], dpi: number): (GreyBitmap | undefined)[] | undefined {
    return this.#withPage(pageNumber, (page, widthPt, heightPt) => regions.map((region) => this.#draw(page, widthPt, heightPt, dpi, region)));
  }

  #withPage<T>(pageNumber: number, use: (page: number, widthPt: number, heightPt: number) => T): T | undefined {
    const m = this.#module;
    const page = m.FPDF_LoadPage(this.#doc, pageNumber - 1);
    if (!page) return undefined;
    try {
      const widthPt = m.FPDF_GetPageWidthF(page);
      const heightPt = m.FPDF_GetPageHeightF(page);
      if (!(widthPt > 0 && heightPt > 0)) return undefined;
      return use(page, widthPt, heightPt);
    } finally {
      m.FPDF_ClosePage(page);
    }
  }

  #draw(page: number, widthPt: number, heightPt: number, dpi: number, region: Rect | undefined): GreyBitmap | undefined {
    const m = this.#module;
    const scale = region ? renderScale(region.x1 - region.x0, region.y1 - region.y0, dpi) : renderScale(widthPt, heightPt, dpi);
    const pageWidth = Math.max(1, Math.round(widthPt * scale));
    const pageHeight = Math.max(1, Math.round(heightPt * scale));
    // The bitmap is the region; the page is drawn at its full size, shifted, and PDFium clips it to the bitmap.
    const left = region ? Math.max(0, Math.floor(region.x0 * scale)) : 0;
    const top = region ? Math.max(0, Math.floor(region.y0 * scale)) : 0;
    const width = region ? Math.min(pageWidth, Math.ceil(region.x1 * scale)) - left : pageWidth;
    const height = region ? Math.min(pageHeight, Math.ceil(region.y1 * scale)) - top : pageHeight;
    if (!(width > 0 && height > 0)) return undefined;
    // Drawn in bands into one small bitmap: a scanned page at 300 DPI never needs its whole bitmap in
    // WebAssembly memory, which grows to the largest bitmap drawn and never gives it back.
    const bandRows = Math.max(1, Math.min(height, Math.floor(BAND_PIXELS / width)));
    const bitmap = m.FPDFBitmap_CreateEx(width, bandRows, FPDFBITMAP_GRAY, 0, 0);
    if (!bitmap) return undefined;
    try {
      const pixels = new Uint8Array(width * height);
      for (let bandTop = 0; bandTop < height; bandTop += bandRows) {
        const rows = Math.min(bandRows, height - bandTop);
        m.FPDFBitmap_FillRect(bitmap, 0, 0, width, bandRows, WHITE);
        m.FPDF_RenderPageBitmap(bitmap, page, -left, -(top + bandTop), pageWidth, pageHeight, 0, FPDF_ANNOT | FPDF_PRINTING);
        const stride = m.FPDFBitmap_GetStride(bitmap);
        const buffer = m.FPDFBitmap_GetBuffer(bitmap);
        const memory = heap(m);
        for (let y = 0; y < rows; y++) pixels.set(memory.subarray(buffer + y * stride, buffer + y * stride + width), (bandTop + y) * width);
      }
      return { width, height, pixels, scale, origin: { x: left / scale, y: top / scale } };
    } finally {
      m.FPDFBitmap_Destroy(bitmap);
    }
  }

  close(): void {
    this.#module.FPDF_CloseDocument(this.#doc);
    this.#module.pdfium.wasmExports.free(this.#data);
  }
}

/**
 * The bitmap as a PNG file (8-bit greyscale), the form tesseract is handed a page in: a 300-DPI page is 8.7 MB of
 * pixels and 0.1–0.6 MB as PNG, written in 10–40 ms and read by tesseract no slower than the raw pixels. tesseract.js
 * copies the file it is given twice on its way to its worker, where the copies wait for a collection that the
 * worker's small heap seldom needs: as raw pixels (a PGM file), 30–40 MB of them stayed there through a soak.
 */
export function toPng(bitmap: GreyBitmap): Uint8Array {
  const { width, height, pixels } = bitmap;
  // Each row led by its filter type, 0 (None): the zeros the buffer starts with.
  const rows = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) rows.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  return encodeFilteredPng(width, height, 1, rows);
}

/** The bitmap as a binary PGM (P5) file: its raw pixels, as bench/ocr.ts hands a page to native tesseract. */
export function toPgm(bitmap: GreyBitmap): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${bitmap.width} ${bitmap.height}\n255\n`);
  const file = new Uint8Array(header.length + bitmap.pixels.length);
  file.set(header, 0);
  file.set(bitmap.pixels, header.length);
  return file;
}
