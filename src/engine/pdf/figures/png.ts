/**
 * Pixels → a PNG file (8-bit greyscale, RGB or RGBA, no interlace, filter None on every row): what a PDF's decoded
 * picture or a rendered figure is written as. zlib does the compression; nothing else is needed to write PNG. And
 * back: PNG's row filters undone, for a PDF's samples stored with PNG predictors.
 */
import { crc32, deflateSync } from 'node:zlib';

/**
 * zlib's output chunk for `bytes` of output: its default 16 KiB makes a 25 MB picture 1,500 chunks joined at the
 * end (measured: inflating one took 290 ms, 21 ms with chunks of 1 MiB).
 */
export function zlibChunkSize(bytes: number): number {
  return Math.min(1 << 20, Math.max(16 << 10, bytes));
}

/**
 * The output chunk for inflating a stream whose size is known to be at most `bytes`: all of it in one chunk, which
 * zlib hands back as it is. In chunks, the output is joined at the end into a second buffer as large, and fresh
 * memory is what a large picture costs most: touching 33 MB of new pages took 120 ms of CPU, reusing them 2 ms.
 */
export function inflateChunkSize(bytes: number): number {
  return Math.max(64, bytes + 1);
}

/** Bytes per pixel: 1 greyscale, 3 RGB, 4 RGBA. */
export type PngChannels = 1 | 3 | 4;

const COLOUR_TYPE: Record<PngChannels, number> = { 1: 0, 3: 2, 4: 6 };
/**
 * zlib's level: 3 writes a photo's pixels four times as fast as the default 6 for files a little larger (a flat
 * chart's twice as large, still small); `--images` costs its time on every picture of every document.
 */
const COMPRESSION = 3;
const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** `pixels` holds `height` rows of `width × channels` bytes, top row first. */
export function encodePng(width: number, height: number, channels: PngChannels, pixels: Uint8Array): Uint8Array {
  const rowBytes = width * channels;
  return encodePngRows(width, height, channels, (y, out, at) => out.set(pixels.subarray(y * rowBytes, (y + 1) * rowBytes), at));
}

/**
 * The same, each row written by `writeRow` into `out` from `at` (`width × channels` bytes): a caller converting
 * pixels from another layout writes them where the file needs them, with no copy of the whole picture between.
 */
export function encodePngRows(width: number, height: number, channels: PngChannels, writeRow: (y: number, out: Uint8Array, at: number) => void): Uint8Array {
  const rowBytes = width * channels;
  const raw = rowsBuffer((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) {
    // Each row starts with its filter type, 0 (None).
    raw[y * (rowBytes + 1)] = 0;
    writeRow(y, raw, y * (rowBytes + 1) + 1);
  }
  return encodeFilteredPng(width, height, channels, raw);
}

/**
 * The rows of the pictures up to this size are written in one buffer kept for the next picture: the file is
 * compressed from it before the call returns, and new memory costs more than the writing (see inflateChunkSize).
 */
const MAX_KEPT_ROWS = 48 << 20;
let keptRows: Buffer | undefined;

function rowsBuffer(bytes: number): Buffer {
  if (bytes > MAX_KEPT_ROWS) return Buffer.allocUnsafe(bytes);
  if (!keptRows || keptRows.length < bytes) keptRows = Buffer.allocUnsafe(Math.max(bytes, 1 << 20));
  return keptRows.subarray(0, bytes);
}

/** `rows` as PNG's image data wants them before compression: each row led by its filter type (0 to 4). */
export function encodeFilteredPng(width: number, height: number, channels: PngChannels, rows: Uint8Array): Uint8Array {
  return pngFromStream(width, height, channels, deflateSync(rows, { level: COMPRESSION, chunkSize: zlibChunkSize(rows.length / 4) }));
}

/**
 * A PNG whose image data is `stream`, a zlib stream of rows each led by its filter type: a PDF's Flate stream with
 * PNG predictors is one already, and goes in as it is, neither inflated again nor compressed again.
 */
export function pngFromStream(width: number, height: number, channels: PngChannels, stream: Uint8Array): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = COLOUR_TYPE[channels];
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', stream), chunk('IEND', new Uint8Array(0))]);
}

/**
 * PNG-filtered rows (each `rowBytes` long after its filter type) back to the samples, `bytesPerPixel` apart for
 * the filters that look left (1 below 8 bits); undefined when a row names no filter of PNG's.
 */
export function unfilterRows(filtered: Uint8Array, rowBytes: number, bytesPerPixel: number, height: number): Uint8Array | undefined {
  const out = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    const from = y * (rowBytes + 1) + 1;
    const to = y * rowBytes;
    const up = to - rowBytes;
    const filter = filtered[from - 1]!;
    if (filter > 4) return undefined;
    for (let i = 0; i < rowBytes; i++) {
      const left = i >= bytesPerPixel ? out[to + i - bytesPerPixel]! : 0;
      const above = y > 0 ? out[up + i]! : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = above;
      else if (filter === 3) predicted = (left + above) >> 1;
      else if (filter === 4) {
        const upperLeft = y > 0 && i >= bytesPerPixel ? out[up + i - bytesPerPixel]! : 0;
        const estimate = left + above - upperLeft;
        const toLeft = Math.abs(estimate - left);
        const toAbove = Math.abs(estimate - above);
        const toUpperLeft = Math.abs(estimate - upperLeft);
        predicted = toLeft <= toAbove && toLeft <= toUpperLeft ? left : toAbove <= toUpperLeft ? above : upperLeft;
      }
      out[to + i] = (filtered[from + i]! + predicted) & 0xff;
    }
  }
  return out;
}

const OPAQUE_RUN = new Uint8Array(64 << 10).fill(255);

/** True when every alpha sample is 255: compared a run at a time, as memcmp does, not a callback per pixel. */
export function allOpaque(alpha: Uint8Array): boolean {
  const samples = Buffer.from(alpha.buffer, alpha.byteOffset, alpha.byteLength);
  for (let at = 0; at < samples.length; at += OPAQUE_RUN.length) {
    const part = samples.subarray(at, at + OPAQUE_RUN.length);
    if (!part.equals(OPAQUE_RUN.subarray(0, part.length))) return false;
  }
  return true;
}
