/**
 * A picture stored as a part of a zip package (Office, OpenDocument, EPUB), as the `data:` URI the result carries
 * it in when `removeBase64Images` is false: in its own encoding, with the media type its extension says. The zip
 * reader's limits hold for it as for every part.
 */
import type { ZipArchive } from './bytes/zip.js';

/** Pictures embedded as data: URIs up to this size each; a larger one stays a placeholder. */
const MAX_EMBEDDED_IMAGE_BYTES = 16 * 1024 * 1024;

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  wmf: 'image/wmf',
  emf: 'image/emf',
};

/**
 * The part `reference` names in `zip` (as written, or percent-decoded as an href may be) as a data: URI; null when
 * it is missing, too large, or not a picture by its extension.
 */
export function packageImageUri(zip: ZipArchive, reference: string): string | null {
  const name = zip.has(reference) ? reference : percentDecoded(reference);
  const mediaType = MEDIA_TYPES[name.slice(name.lastIndexOf('.') + 1).toLowerCase()];
  const size = zip.sizeOf(name);
  if (mediaType === undefined || size === undefined || size > MAX_EMBEDDED_IMAGE_BYTES) return null;
  const data = zip.read([name]).get(name);
  if (data === undefined || data.byteLength === 0) return null;
  return `data:${mediaType};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}

function percentDecoded(reference: string): string {
  try {
    return decodeURIComponent(reference);
  } catch {
    return reference;
  }
}
