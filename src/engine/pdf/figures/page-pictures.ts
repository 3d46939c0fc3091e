/**
 * What a PDF page paints, as `--images` needs it, read with PDFium compiled to WebAssembly (the renderer OCR uses,
 * ocr/render-page.ts): the raster images with their place, and the boxes of its vector paths (from which
 * figure-regions.ts finds charts and diagrams), page objects inside form XObjects included. A second reader of
 * the same bytes, opened only when pictures are asked for: the text path (LiteParse, pdfjs) is untouched.
 *
 * A picture is decoded once per document (identified by its stream's raw bytes, so a logo on every page costs one
 * decoding) and never when it declares more pixels than a picture may have: it is then carried by its size alone
 * (`sizeOnlyPng`), which the pipeline's limit refuses, naming the file. A JPEG stream is kept as its own bytes.
 */
import { createHash } from 'node:crypto';
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import { MAX_PICTURE_PIXELS } from '../../../backend/embedded-images.js';
import { heap, loadPdfium, renderScale } from '../ocr/render-page.js';
import type { Rect } from '../types.js';
import { encodePng, encodePngRows, type PngChannels } from './png.js';

/** A picture's file: its bytes and media type. */
export interface PictureFile {
  bytes: Uint8Array;
  mediaType: string;
}

export interface PageRaster {
  /** Where the page shows it, in page units (viewport space, top-left origin). */
  rect: Rect;
  /** Its pixel size as the PDF declares it. */
  width: number;
  height: number;
  /** The stream's identity (sha256 of its raw bytes and filters): the same picture drawn again has the same key. */
  key: string;
}

export interface PageGraphics {
  width: number;
  height: number;
  rasters: PageRaster[];
  /** Boxes of the vector paths it draws, in page units. */
  paths: Rect[];
}

const OBJ_PATH = 2;
const OBJ_IMAGE = 3;
const OBJ_FORM = 5;
const FPDFBITMAP_GRAY = 1;
const FPDFBITMAP_BGRX = 3;
const FPDFBITMAP_BGRA = 4;
/** Bytes per pixel of PDFium's bitmap formats (grey, BGR, BGRx, BGRA). */
const BITMAP_BYTES: Readonly<Record<number, number>> = { 1: 1, 2: 3, 3: 4, 4: 4 };
const FPDF_PRINTING = 0x800;
const WHITE = 0xffffffff;
/** Form XObjects nest at most this deep here (a hostile file can nest them without end). */
const MAX_FORM_DEPTH = 8;
/** Objects looked at on one page, forms' included: past it the rest of the page is not searched for pictures. */
const MAX_OBJECTS = 50_000;
/** Device units per point for FPDF_PageToDevice, whose output is whole numbers. */
const PRECISION = 16;

/** [a b c d e f]: x' = a x + c y + e, y' = b x + d y + f. */
type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(inner: Matrix, outer: Matrix): Matrix {
  const [a, b, c, d, e, f] = inner;
  const [A, B, C, D, E, F] = outer;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

/** A PNG that states `width` × `height` and holds no pixel: a picture too large to decode, refused by its size. */
export function sizeOnlyPng(width: number, height: number): Uint8Array {
  const png = encodePng(1, 1, 1, new Uint8Array(1));
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return png;
}

/** The number of colour components of a JPEG's frame, from its SOF header; undefined when none is found. */
function jpegComponents(bytes: Uint8Array): number | undefined {
  let at = 2;
  while (at + 10 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return bytes[at + 9];
    at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
  }
  return undefined;
}

/** One PDF opened in PDFium for its pictures; `close()` frees its memory. */
export class PictureReader {
  readonly #m: WrappedPdfiumModule;
  readonly #doc: number;
  readonly #data: number;
  /** Scratch memory for PDFium's out-parameters (floats, ints, a matrix). */
  readonly #scratch: number;

  private constructor(module: WrappedPdfiumModule, doc: number, data: number, scratch: number) {
    this.#m = module;
    this.#doc = doc;
    this.#data = data;
    this.#scratch = scratch;
  }

  /** Undefined when PDFium cannot open the file. */
  static async open(bytes: Uint8Array): Promise<PictureReader | undefined> {
    const module = await loadPdfium();
    const exports = module.pdfium.wasmExports;
    const data = exports.malloc(bytes.length);
    if (!data) return undefined;
    heap(module).set(bytes, data);
    const doc = module.FPDF_LoadMemDocument(data, bytes.length, '');
    const scratch = doc ? exports.malloc(64) : 0;
    if (!doc || !scratch) {
      if (doc) module.FPDF_CloseDocument(doc);
      exports.free(data);
      return undefined;
    }
    return new PictureReader(module, doc, data, scratch);
  }

  close(): void {
    this.#m.FPDF_CloseDocument(this.#doc);
    this.#m.pdfium.wasmExports.free(this.#scratch);
    this.#m.pdfium.wasmExports.free(this.#data);
  }

  #floats(count: number): Float32Array {
    return new Float32Array(heap(this.#m).buffer, this.#scratch, count);
  }

  #ints(count: number, offset = 0): Int32Array {
    return new Int32Array(heap(this.#m).buffer, this.#scratch + offset, count);
  }

  #withPage<T>(pageNumber: number, read: (page: number, width: number, height: number) => T): T | undefined {
    const m = this.#m;
    const page = m.FPDF_LoadPage(this.#doc, pageNumber - 1);
    if (!page) return undefined;
    try {
      const width = m.FPDF_GetPageWidthF(page);
      const height = m.FPDF_GetPageHeightF(page);
      if (!(width > 0 && height > 0)) return undefined;
      return read(page, width, height);
    } finally {
      m.FPDF_ClosePage(page);
    }
  }

  /**
   * The page's rasters and paths; `decode` is called once for each raster whose key it has not seen (while the
   * page is open), to read its file.
   */
  graphics(pageNumber: number, decode: (raster: PageRaster, read: () => PictureFile) => void): PageGraphics | undefined {
    return this.#withPage(pageNumber, (page, width, height) => {
      const m = this.#m;
      const result: PageGraphics = { width, height, rasters: [], paths: [] };
      const toViewport = (x: number, y: number): [number, number] => {
        const out = this.#ints(2, 8);
        m.FPDF_PageToDevice(page, 0, 0, Math.round(width * PRECISION), Math.round(height * PRECISION), 0, x, y, this.#scratch + 8, this.#scratch + 12);
        return [out[0]! / PRECISION, out[1]! / PRECISION];
      };
      const rectOf = (object: number, matrix: Matrix): Rect | undefined => {
        if (!m.FPDFPageObj_GetBounds(object, this.#scratch, this.#scratch + 4, this.#scratch + 8, this.#scratch + 12)) return undefined;
        const [left, bottom, right, top] = this.#floats(4);
        const corners = [
          [left!, bottom!],
          [left!, top!],
          [right!, bottom!],
          [right!, top!],
        ].map(([x, y]) => toViewport(matrix[0] * x! + matrix[2] * y! + matrix[4], matrix[1] * x! + matrix[3] * y! + matrix[5]));
        const xs = corners.map((corner) => corner[0]);
        const ys = corners.map((corner) => corner[1]);
        return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
      };
      let seen = 0;
      const visit = (object: number, matrix: Matrix, depth: number): void => {
        if (++seen > MAX_OBJECTS) return;
        const type = m.FPDFPageObj_GetType(object);
        if (type === OBJ_PATH) {
          const rect = rectOf(object, matrix);
          if (rect) result.paths.push(rect);
        } else if (type === OBJ_IMAGE) {
          const rect = rectOf(object, matrix);
          if (!rect || !m.FPDFImageObj_GetImagePixelSize(object, this.#scratch, this.#scratch + 4)) return;
          const [w, h] = new Uint32Array(heap(m).buffer, this.#scratch, 2);
          const raster: PageRaster = { rect, width: w!, height: h!, key: this.#keyOf(object) };
          result.rasters.push(raster);
          decode(raster, () => this.#read(object, raster));
        } else if (type === OBJ_FORM && depth < MAX_FORM_DEPTH) {
          if (!m.FPDFPageObj_GetMatrix(object, this.#scratch)) return;
          const form = multiply([...this.#floats(6)] as Matrix, matrix);
          const count = m.FPDFFormObj_CountObjects(object);
          for (let i = 0; i < count && seen <= MAX_OBJECTS; i++) visit(m.FPDFFormObj_GetObject(object, i), form, depth + 1);
        }
      };
      const count = m.FPDFPage_CountObjects(page);
      for (let i = 0; i < count && seen <= MAX_OBJECTS; i++) visit(m.FPDFPage_GetObject(page, i), IDENTITY, 0);
      return result;
    });
  }

  /** The filters of an image stream, outermost first. */
  #filters(object: number): string[] {
    const m = this.#m;
    const filters: string[] = [];
    const count = m.FPDFImageObj_GetImageFilterCount(object);
    for (let i = 0; i < count; i++) {
      const length = m.FPDFImageObj_GetImageFilter(object, i, this.#scratch, 64);
      if (length > 1 && length <= 64) filters.push(Buffer.from(heap(m).subarray(this.#scratch, this.#scratch + length - 1)).toString('latin1'));
    }
    return filters;
  }

  #rawData(object: number): Uint8Array {
    const m = this.#m;
    const length = m.FPDFImageObj_GetImageDataRaw(object, 0, 0);
    if (!(length > 0)) return new Uint8Array(0);
    const buffer = m.pdfium.wasmExports.malloc(length);
    if (!buffer) return new Uint8Array(0);
    try {
      m.FPDFImageObj_GetImageDataRaw(object, buffer, length);
      return heap(m).slice(buffer, buffer + length);
    } finally {
      m.pdfium.wasmExports.free(buffer);
    }
  }

  #keyOf(object: number): string {
    const hash = createHash('sha256').update(this.#filters(object).join(' ')).update('\n');
    return hash.update(this.#rawData(object)).digest('hex');
  }

  /** The picture as a file: a JPEG stream as it is, anything else decoded to PNG. */
  #read(object: number, raster: PageRaster): PictureFile {
    const m = this.#m;
    if (raster.width * raster.height > MAX_PICTURE_PIXELS) return { bytes: sizeOnlyPng(raster.width, raster.height), mediaType: 'image/png' };
    const filters = this.#filters(object);
    if (filters.length === 1 && filters[0] === 'DCTDecode') {
      const raw = this.#rawData(object);
      // CMYK JPEGs (4 components) are shown inverted by most viewers: they are decoded like the rest.
      const components = jpegComponents(raw);
      if (components === 1 || components === 3) return { bytes: raw, mediaType: 'image/jpeg' };
    }
    const bitmap = m.FPDFImageObj_GetBitmap(object);
    if (!bitmap) return { bytes: new Uint8Array(0), mediaType: 'image/png' };
    try {
      return { bytes: this.#bitmapPng(bitmap), mediaType: 'image/png' };
    } finally {
      m.FPDFBitmap_Destroy(bitmap);
    }
  }

  /** A PDFium bitmap (grey, BGR, BGRx or BGRA) as PNG; alpha is kept only where the bitmap has it. */
  #bitmapPng(bitmap: number): Uint8Array {
    const m = this.#m;
    const width = m.FPDFBitmap_GetWidth(bitmap);
    const height = m.FPDFBitmap_GetHeight(bitmap);
    const stride = m.FPDFBitmap_GetStride(bitmap);
    const format = m.FPDFBitmap_GetFormat(bitmap);
    const buffer = m.FPDFBitmap_GetBuffer(bitmap);
    const source = BITMAP_BYTES[format] ?? 4;
    const channels: PngChannels = format === FPDFBITMAP_GRAY ? 1 : format === FPDFBITMAP_BGRA ? 4 : 3;
    return encodePngRows(width, height, channels, (y, out, at) => {
      // Read again for each row: the WebAssembly memory's buffer is replaced when it grows.
      const row = heap(m).subarray(buffer + y * stride, buffer + y * stride + width * source);
      if (channels === 1) {
        out.set(row, at);
        return;
      }
      let to = at;
      for (let x = 0; x < row.length; x += source) {
        out[to++] = row[x + 2]!;
        out[to++] = row[x + 1]!;
        out[to++] = row[x]!;
        if (channels === 4) out[to++] = row[x + 3]!;
      }
    });
  }

  /**
   * The part `area` (page units; `'page'`: all of it) of page `pageNumber`, drawn in colour at `dpi`, as PNG;
   * undefined if it cannot be drawn.
   */
  renderRegion(pageNumber: number, area: Rect | 'page', dpi: number): Uint8Array | undefined {
    return this.#withPage(pageNumber, (page, widthPt, heightPt) => {
      const m = this.#m;
      const region = area === 'page' ? { x0: 0, y0: 0, x1: widthPt, y1: heightPt } : area;
      const scale = renderScale(region.x1 - region.x0, region.y1 - region.y0, dpi);
      const pageWidth = Math.max(1, Math.round(widthPt * scale));
      const pageHeight = Math.max(1, Math.round(heightPt * scale));
      const left = Math.max(0, Math.floor(region.x0 * scale));
      const top = Math.max(0, Math.floor(region.y0 * scale));
      const width = Math.min(pageWidth, Math.ceil(region.x1 * scale)) - left;
      const height = Math.min(pageHeight, Math.ceil(region.y1 * scale)) - top;
      if (!(width > 0 && height > 0)) return undefined;
      const bitmap = m.FPDFBitmap_CreateEx(width, height, FPDFBITMAP_BGRX, 0, 0);
      if (!bitmap) return undefined;
      try {
        m.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, WHITE);
        m.FPDF_RenderPageBitmap(bitmap, page, -left, -top, pageWidth, pageHeight, 0, FPDF_PRINTING);
        return this.#bitmapPng(bitmap);
      } finally {
        m.FPDFBitmap_Destroy(bitmap);
      }
    });
  }
}
