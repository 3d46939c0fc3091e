/**
 * What a PDF page paints, as `--images` needs it, read with PDFium compiled to WebAssembly (the renderer OCR uses,
 * ocr/render-page.ts): the raster images with their place, and the boxes of its vector paths (from which
 * figure-regions.ts finds charts and diagrams), page objects inside form XObjects included. A second reader of
 * the same bytes, opened only when pictures are asked for: the text path (LiteParse, pdfjs) is untouched.
 *
 * A picture is decoded once per document (identified by its stream's raw bytes, so a logo on every page costs one
 * decoding) and never when it declares more pixels than a picture may have: it is then carried by its size alone
 * (`sizeOnlyPng`), which the pipeline's limit refuses, naming the file. A JPEG stream is kept as its own bytes; an
 * 8-bit grey or RGB Flate stream is inflated by Node's zlib rather than decoded in WebAssembly (one stored with PNG's
 * predictors is the PNG's data as it stands); a picture with a soft mask keeps its transparency (its mask read from
 * the file when plain, else the picture drawn by PDFium with it), image-dictionary.ts telling which, and from the
 * file's text too what its colour space and Flate parameters are. A page is loaded once for all that is read of it.
 */
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import { MAX_PICTURE_PIXELS } from '../../../backend/embedded-images.js';
import { heap, loadPdfium, renderScale } from '../ocr/render-page.js';
import type { Rect } from '../types.js';
import { flateParameters, imageDictionary, plainChannels, softMaskSamples, type ImageDictionary } from './image-dictionary.js';
import { allOpaque, encodePng, encodePngRows, inflateChunkSize, pngFromStream, unfilterRows, type PngChannels } from './png.js';
import { bitmapWithAlphaPng, samplesWithAlphaPng } from './rgba-rows.js';

/**
 * `raw` inflated whole when it holds `size` bytes at most, and how many of its bytes the zlib stream took;
 * undefined when it is not a zlib stream, or a damaged one.
 */
function inflateWhole(raw: Uint8Array, size: number): { bytes: Uint8Array; consumed: number } | undefined {
  try {
    // `info` has zlib's engine returned too, whose bytesWritten is the input the stream took (not in Node's types).
    const result = inflateSync(raw, { maxOutputLength: size, chunkSize: inflateChunkSize(size), info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    return { bytes: result.buffer, consumed: result.engine.bytesWritten };
  } catch {
    return undefined;
  }
}

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

/** Called once for each raster whose key is new to the caller, while its page is open, to read its file. */
export type DecodeRaster = (raster: PageRaster, read: () => PictureFile) => void;

/** A page loaded in PDFium, for the length of a PictureReader.page call. */
export interface OpenPage {
  /** Its rasters and paths. */
  graphics(decode: DecodeRaster): PageGraphics;
  /** The part `area` (page units; `'page'`: all of it) drawn in colour at `dpi`, as PNG; undefined if it cannot be. */
  render(area: Rect | 'page', dpi: number): Uint8Array | undefined;
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
/** Points between the page-space points the viewport's map is read from. */
const SPAN = 10_000;
/** FPDF_COLORSPACE_DEVICEGRAY, DEVICERGB, CALGRAY, CALRGB, ICCBASED: samples that are grey or RGB as they stand. */
const PLAIN_COLOUR_SPACES = new Set([1, 2, 4, 5, 7]);
/** PNG's row filters are 0 (None) to 4 (Paeth). */
const MAX_PNG_FILTER = 4;
/** /Predictor 10 to 15: PNG's predictors, each row led by its own filter type. */
const PNG_PREDICTORS = 10;

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

interface FlateSamples {
  channels: 1 | 3;
  /** The inflated data: the samples, or with PNG predictors the rows each led by its filter type (`stream` set). */
  bytes: Uint8Array;
  /** With PNG predictors: the stream's zlib data, which is a PNG's image data as it stands. */
  stream?: Uint8Array;
}

/** One PDF opened in PDFium for its pictures; `close()` frees its memory. */
export class PictureReader {
  readonly #m: WrappedPdfiumModule;
  readonly #doc: number;
  readonly #data: number;
  /** The file's bytes, where an image's dictionary is read (image-dictionary.ts). */
  readonly #file: Uint8Array;
  /** Scratch memory for PDFium's out-parameters (floats, ints, a matrix). */
  readonly #scratch: number;

  private constructor(module: WrappedPdfiumModule, doc: number, data: number, file: Uint8Array, scratch: number) {
    this.#m = module;
    this.#doc = doc;
    this.#data = data;
    this.#file = file;
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
    return new PictureReader(module, doc, data, bytes, scratch);
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
   * Page `pageNumber` loaded once for all that `read` does with it (its graphics, then its figures' renderings:
   * loading parses the page's content and fonts again each time); undefined when PDFium cannot load it.
   */
  page<T>(pageNumber: number, read: (page: OpenPage) => T): T | undefined {
    return this.#withPage(pageNumber, (page, width, height) =>
      read({
        graphics: (decode) => this.#graphics(page, width, height, decode),
        render: (area, dpi) => this.#render(page, width, height, area, dpi),
      }),
    );
  }

  #graphics(page: number, width: number, height: number, decode: DecodeRaster): PageGraphics {
    const m = this.#m;
    const result: PageGraphics = { width, height, rasters: [], paths: [] };
    const viewport = this.#viewportMatrix(page, width, height);
    const rectOf = (object: number, matrix: Matrix): Rect | undefined => {
      if (!m.FPDFPageObj_GetBounds(object, this.#scratch, this.#scratch + 4, this.#scratch + 8, this.#scratch + 12)) return undefined;
      const [left, bottom, right, top] = this.#floats(4);
      const [a, b, c, d, e, f] = multiply(matrix, viewport);
      const corners = [
        [left!, bottom!],
        [left!, top!],
        [right!, bottom!],
        [right!, top!],
      ].map(([x, y]) => [a * x! + c * y! + e, b * x! + d * y! + f] as const);
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
        const filters = this.#filters(object);
        const raw = this.#rawData(object);
        const key = createHash('sha256').update(filters.join(' ')).update('\n').update(raw).digest('hex');
        const raster: PageRaster = { rect, width: w!, height: h!, key };
        result.rasters.push(raster);
        decode(raster, () => this.#read(object, page, raster, filters, raw));
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

  /**
   * The affine map from page space to the viewport (top-left origin, points) that FPDF_PageToDevice applies,
   * read once per page from three points (its output is whole device units: far points keep the error small).
   */
  #viewportMatrix(page: number, width: number, height: number): Matrix {
    const m = this.#m;
    const at = (x: number, y: number): [number, number] => {
      const out = this.#ints(2, 8);
      m.FPDF_PageToDevice(page, 0, 0, Math.round(width * PRECISION), Math.round(height * PRECISION), 0, x, y, this.#scratch + 8, this.#scratch + 12);
      return [out[0]! / PRECISION, out[1]! / PRECISION];
    };
    const [e, f] = at(0, 0);
    const [x1, y1] = at(SPAN, 0);
    const [x2, y2] = at(0, SPAN);
    return [(x1 - e) / SPAN, (y1 - f) / SPAN, (x2 - e) / SPAN, (y2 - f) / SPAN, e, f];
  }

  /**
   * The picture as a file: a JPEG stream as it is, an 8-bit grey or RGB Flate stream re-wrapped as PNG by zlib (or
   * as it stands, when PNG's predictors already made it a PNG's data), a masked picture with its transparency,
   * anything else decoded by PDFium to PNG.
   */
  #read(object: number, page: number, raster: PageRaster, filters: readonly string[], raw: Uint8Array): PictureFile {
    const m = this.#m;
    if (raster.width * raster.height > MAX_PICTURE_PIXELS) return { bytes: sizeOnlyPng(raster.width, raster.height), mediaType: 'image/png' };
    const dictionary = imageDictionary(this.#file, raw);
    const flate = filters.length === 1 && filters[0] === 'FlateDecode' && dictionary && !dictionary.decodeArray ? dictionary : undefined;
    const alpha = dictionary?.masked ? softMaskSamples(this.#file, dictionary, raster.width, raster.height) : undefined;
    // A mask opaque everywhere changes nothing: a Flate picture under it is written as one without.
    const opaque = alpha !== undefined && allOpaque(alpha);
    if (alpha && !(opaque && flate)) {
      const samples = flate && this.#flateSamples(object, page, raster, raw, flate);
      const pixels = samples && (samples.stream ? unfilterRows(samples.bytes, raster.width * samples.channels, samples.channels, raster.height) : samples.bytes);
      if (samples && pixels) return { bytes: samplesWithAlphaPng(raster.width, raster.height, samples.channels, pixels, alpha), mediaType: 'image/png' };
      // A JPEG (or any other) under a plain mask: decoded alone and joined with its mask, where PDFium's drawing it
      // with its mask composited every pixel once more (a quarter of `--images`' CPU on the PDF benchmark).
      const joined = this.#decodedWithAlpha(object, raster, alpha, opaque);
      if (joined) return { bytes: joined, mediaType: 'image/png' };
    }
    // Unknown, the picture may have a mask: drawn with it, an opaque picture comes out as it would without.
    if (!dictionary || (dictionary.masked && !(opaque && flate))) return this.#renderedPng(object, page, raster);
    if (filters.length === 1 && filters[0] === 'DCTDecode' && !dictionary.decodeArray) {
      // CMYK JPEGs (4 components) are shown inverted by most viewers: they are decoded like the rest.
      const components = jpegComponents(raw);
      if (components === 1 || components === 3) return { bytes: raw, mediaType: 'image/jpeg' };
    }
    const samples = flate && this.#flateSamples(object, page, raster, raw, flate);
    if (samples) {
      const { width, height } = raster;
      const png = samples.stream ? pngFromStream(width, height, samples.channels, samples.stream) : encodePng(width, height, samples.channels, samples.bytes);
      return { bytes: png, mediaType: 'image/png' };
    }
    const bitmap = m.FPDFImageObj_GetBitmap(object);
    if (!bitmap) return { bytes: new Uint8Array(0), mediaType: 'image/png' };
    try {
      return { bytes: this.#bitmapPng(bitmap), mediaType: 'image/png' };
    } finally {
      m.FPDFBitmap_Destroy(bitmap);
    }
  }

  /**
   * An 8-bit grey or RGB picture's Flate stream inflated by Node's zlib, its samples as they are for PNG (PNG's own
   * predictors, /Predictor 10..15 with the picture's colours, depth and width, are PNG's row filters: the stream
   * is then kept, to be the PNG's data as it is): PDFium's decoding into a bitmap in WebAssembly and the conversion
   * of every pixel back cost a 9-megapixel picture about a second. Undefined when the stream is not that (another
   * colour space or depth, a TIFF predictor, damage).
   */
  #flateSamples(object: number, page: number, raster: PageRaster, raw: Uint8Array, dictionary: ImageDictionary): FlateSamples | undefined {
    const channels = this.#plainChannels(object, page, dictionary);
    const parameters = dictionary.entries && flateParameters(dictionary.entries);
    if (!channels || !parameters) return undefined;
    const { width, height } = raster;
    const predicted = parameters.predictor >= PNG_PREDICTORS;
    const layout = predicted ? parameters.colors === channels && parameters.bitsPerComponent === 8 && parameters.columns === width : parameters.predictor === 1;
    if (!layout) return undefined;
    const rowBytes = width * channels;
    const size = height * (rowBytes + (predicted ? 1 : 0));
    const inflated = inflateWhole(raw, size);
    if (!inflated || inflated.bytes.length !== size) return undefined;
    if (!predicted) return { channels, bytes: inflated.bytes };
    for (let y = 0; y < height; y++) if (inflated.bytes[y * (rowBytes + 1)]! > MAX_PNG_FILTER) return undefined;
    // Whatever follows the zlib stream in the PDF's (an end of line counted in /Length) stays out of the PNG.
    return { channels, bytes: inflated.bytes, stream: raw.subarray(0, inflated.consumed) };
  }

  /**
   * 1 or 3 when the picture's samples are grey or RGB at 8 bits: told by its dictionary in the file where it can,
   * else by PDFium's metadata (which has PDFium inflate the whole stream once more, and load its colour space).
   */
  #plainChannels(object: number, page: number, dictionary: ImageDictionary): 1 | 3 | undefined {
    const stated = dictionary.entries && plainChannels(this.#file, dictionary.entries);
    if (stated !== undefined) return stated === 'other' ? undefined : stated;
    const m = this.#m;
    if (!m.FPDFImageObj_GetImageMetadata(object, page, this.#scratch)) return undefined;
    const bitsPerPixel = this.#ints(1, 16)[0]!;
    const colourSpace = this.#ints(1, 20)[0]!;
    const channels = bitsPerPixel === 8 ? 1 : bitsPerPixel === 24 ? 3 : undefined;
    return channels !== undefined && PLAIN_COLOUR_SPACES.has(colourSpace) ? channels : undefined;
  }

  /**
   * The picture decoded by PDFium without its mask (FPDFImageObj_GetBitmap: its colour space and any /Decode
   * applied, at its own pixel size) and `alpha` joined to it, as PNG: RGBA, or RGB when `alpha` is all opaque (as a
   * drawn picture comes out). Undefined when the bitmap is not one this can join (already with alpha, another size).
   */
  #decodedWithAlpha(object: number, raster: PageRaster, alpha: Uint8Array, opaque: boolean): Uint8Array | undefined {
    const m = this.#m;
    const bitmap = m.FPDFImageObj_GetBitmap(object);
    if (!bitmap) return undefined;
    try {
      const { width, height } = raster;
      const format = m.FPDFBitmap_GetFormat(bitmap);
      if (format === FPDFBITMAP_BGRA || !(format in BITMAP_BYTES)) return undefined;
      if (m.FPDFBitmap_GetWidth(bitmap) !== width || m.FPDFBitmap_GetHeight(bitmap) !== height) return undefined;
      if (opaque) return this.#bitmapPng(bitmap);
      const stride = m.FPDFBitmap_GetStride(bitmap);
      const buffer = m.FPDFBitmap_GetBuffer(bitmap);
      const source = BITMAP_BYTES[format]!;
      // Read again for each row: the WebAssembly memory's buffer is replaced when it grows.
      return bitmapWithAlphaPng(width, height, source, (y) => heap(m).subarray(buffer + y * stride, buffer + y * stride + width * source), alpha);
    } finally {
      m.FPDFBitmap_Destroy(bitmap);
    }
  }

  /**
   * A picture drawn by PDFium with its masks at its own pixel size (its matrix set to that size for the call, then
   * put back), as PNG: RGBA where any pixel is not opaque, else RGB.
   */
  #renderedPng(object: number, page: number, raster: PageRaster): PictureFile {
    const m = this.#m;
    const empty = { bytes: new Uint8Array(0), mediaType: 'image/png' };
    if (!m.FPDFPageObj_GetMatrix(object, this.#scratch)) return empty;
    const matrix = [...this.#floats(6)];
    const native = this.#floats(6);
    native.set([raster.width, 0, 0, raster.height, 0, 0]);
    if (!m.FPDFPageObj_SetMatrix(object, this.#scratch)) return empty;
    let bitmap: number;
    try {
      bitmap = m.FPDFImageObj_GetRenderedBitmap(this.#doc, page, object);
    } finally {
      this.#floats(6).set(matrix);
      m.FPDFPageObj_SetMatrix(object, this.#scratch);
    }
    if (!bitmap) return empty;
    try {
      return { bytes: this.#bitmapPng(bitmap, !this.#opaque(bitmap)), mediaType: 'image/png' };
    } finally {
      m.FPDFBitmap_Destroy(bitmap);
    }
  }

  /** True when a BGRA bitmap has no pixel less than opaque (any other format is). */
  #opaque(bitmap: number): boolean {
    const m = this.#m;
    if (m.FPDFBitmap_GetFormat(bitmap) !== FPDFBITMAP_BGRA) return true;
    const width = m.FPDFBitmap_GetWidth(bitmap);
    const height = m.FPDFBitmap_GetHeight(bitmap);
    const stride = m.FPDFBitmap_GetStride(bitmap);
    const buffer = m.FPDFBitmap_GetBuffer(bitmap);
    for (let y = 0; y < height; y++) {
      const row = heap(m).subarray(buffer + y * stride + 3, buffer + y * stride + width * 4);
      for (let at = 0; at < row.length; at += 4) if (row[at] !== 255) return false;
    }
    return true;
  }

  /** A PDFium bitmap (grey, BGR, BGRx or BGRA) as PNG; alpha is kept only where the bitmap has it and `alpha` allows. */
  #bitmapPng(bitmap: number, alpha = true): Uint8Array {
    const m = this.#m;
    const width = m.FPDFBitmap_GetWidth(bitmap);
    const height = m.FPDFBitmap_GetHeight(bitmap);
    const stride = m.FPDFBitmap_GetStride(bitmap);
    const format = m.FPDFBitmap_GetFormat(bitmap);
    const buffer = m.FPDFBitmap_GetBuffer(bitmap);
    const source = BITMAP_BYTES[format] ?? 4;
    const channels: PngChannels = format === FPDFBITMAP_GRAY ? 1 : format === FPDFBITMAP_BGRA && alpha ? 4 : 3;
    // Whole pixels read as one little-endian word (B | G << 8 | R << 16 | A << 24) where the rows allow it.
    const words = source === 4 && buffer % 4 === 0 && stride % 4 === 0;
    return encodePngRows(width, height, channels, (y, out, at) => {
      // Read again for each row: the WebAssembly memory's buffer is replaced when it grows.
      const start = buffer + y * stride;
      const row = heap(m).subarray(start, start + width * source);
      if (channels === 1) {
        out.set(row, at);
        return;
      }
      if (words) {
        const pixels = new Uint32Array(row.buffer, start, width);
        if (channels === 4) {
          // Swapped in PDFium's own bitmap, freed after: R and B trade places, G and A stay.
          for (let x = 0; x < width; x++) {
            const p = pixels[x]!;
            pixels[x] = (p & 0xff00ff00) | ((p >>> 16) & 0xff) | ((p & 0xff) << 16);
          }
          out.set(row, at);
          return;
        }
        for (let x = 0, to = at; x < width; x++, to += 3) {
          const p = pixels[x]!;
          out[to] = (p >>> 16) & 0xff;
          out[to + 1] = (p >>> 8) & 0xff;
          out[to + 2] = p & 0xff;
        }
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

  #render(page: number, widthPt: number, heightPt: number, area: Rect | 'page', dpi: number): Uint8Array | undefined {
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
  }
}
