/**
 * A picture's width and height in pixels, read from its header alone (nothing is decoded): PNG, GIF, JPEG, BMP,
 * WebP. Undefined for other encodings (SVG, EMF, WMF, TIFF), whose size the header does not state simply.
 */

export interface PixelSize {
  width: number;
  height: number;
}

export function pixelSize(bytes: Uint8Array): PixelSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const has = (length: number) => bytes.byteLength >= length;
  const ascii = (at: number, text: string) => has(at + text.length) && [...text].every((char, i) => bytes[at + i] === char.charCodeAt(0));
  if (has(24) && bytes[0] === 0x89 && ascii(1, 'PNG') && ascii(12, 'IHDR')) return { width: view.getUint32(16), height: view.getUint32(20) };
  if (has(10) && (ascii(0, 'GIF87a') || ascii(0, 'GIF89a'))) return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  if (has(26) && ascii(0, 'BM')) return { width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) };
  if (has(30) && ascii(0, 'RIFF') && ascii(8, 'WEBP')) return webpSize(bytes, view);
  if (has(4) && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes, view);
  return undefined;
}

/** The frame header (SOF0–SOF15 but DHT, JPG, DAC) gives the size; segments before it are skipped by their length. */
function jpegSize(bytes: Uint8Array, view: DataView): PixelSize | undefined {
  let at = 2;
  while (at + 9 <= bytes.byteLength) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}

function webpSize(bytes: Uint8Array, view: DataView): PixelSize | undefined {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunk === 'VP8X') return { width: 1 + (view.getUint32(24, true) & 0xffffff), height: 1 + (view.getUint32(27, true) & 0xffffff) };
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === 'VP8L' && bytes.byteLength >= 25) {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return undefined;
}
