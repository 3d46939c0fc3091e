/**
 * What an image XObject's dictionary says beyond what PDFium's API tells (it has no call for a soft mask, a colour
 * key mask or a Decode array): found in the file's bytes, where the image's raw stream data sits right after
 * `stream`, its dictionary between `obj` and that keyword. Pure: the file's bytes and the stream's raw data in.
 *
 * Unknown (undefined) when the data is not in the file as it is (an encrypted file, a stream too short to be found
 * for certain): the caller then takes the way that holds whatever the dictionary says.
 */
import { inflateSync } from 'node:zlib';
import { inflateChunkSize } from './png.js';

export interface ImageDictionary {
  /** The dictionary as the file spells it, between `obj` and `stream`. */
  text: string;
  /** A soft mask (`/SMask`, or `/SMaskInData` for JPX) or a mask (`/Mask`: a stencil or colour key) is applied. */
  masked: boolean;
  /** A `/Decode` array remaps the samples (an inverted grey, say). */
  decodeArray: boolean;
}

/** Fewer raw bytes than this might be found at another place in the file by chance. */
const MIN_PROBE = 16;
const PROBE = 256;
/** How far before its data a stream's dictionary may start (an image dictionary is some hundred bytes). */
const MAX_DICTIONARY = 4096;

export function imageDictionary(file: Uint8Array, raw: Uint8Array): ImageDictionary | undefined {
  if (raw.length < MIN_PROBE) return undefined;
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  // The stream's end, found once: its start is alike in many pictures (a JPEG's header and tables).
  const data = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const probe = data.subarray(Math.max(0, data.length - PROBE));
  // Pictures alike at their end (JPEGs of the same writer whose last rows are blank) share their last bytes: each
  // place the end is found is the stream only if all of it is there, and it must be at one place alone.
  let at = -1;
  for (let end = bytes.indexOf(probe); end >= 0; end = bytes.indexOf(probe, end + 1)) {
    const start = end + probe.length - data.length;
    if (start < 0 || !bytes.subarray(start, start + data.length).equals(data)) continue;
    if (at >= 0) return undefined;
    at = start;
  }
  if (at < 0) return undefined;
  const before = bytes.toString('latin1', Math.max(0, at - MAX_DICTIONARY), at);
  const keyword = /stream\r?\n$/.exec(before);
  if (!keyword) return undefined;
  const start = before.lastIndexOf('obj', keyword.index);
  if (start < 0) return undefined;
  const dictionary = before.slice(start + 3, keyword.index);
  return {
    text: dictionary,
    masked: /\/(?:SMask|SMaskInData|Mask)\b/.test(dictionary),
    decodeArray: /\/Decode\s*\[/.test(dictionary),
  };
}

/**
 * The alpha samples of an image's soft mask (`/SMask n g R`), read from the file when the mask is the plain kind
 * most writers make: one 8-bit DeviceGray Flate stream of the image's own size, with a direct /Length, no /Decode,
 * /DecodeParms or /Matte. Undefined otherwise (the caller lets PDFium draw the picture with its mask).
 */
export function softMaskSamples(file: Uint8Array, image: ImageDictionary, width: number, height: number): Uint8Array | undefined {
  const reference = /\/SMask\s+(\d+)\s+(\d+)\s+R/.exec(image.text);
  if (!reference) return undefined;
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const at = lastObject(bytes, `${reference[1]} ${reference[2]} obj`);
  if (at < 0) return undefined;
  const head = bytes.toString('latin1', at, Math.min(bytes.length, at + MAX_DICTIONARY));
  const object = /^\d+ \d+ obj\s*<<((?:(?!<<)[\s\S])*?)>>\s*stream(?:\r\n|\n)/.exec(head);
  if (!object) return undefined;
  const mask = object[1]!;
  const number = (key: string) => Number(new RegExp(`/${key}\\s+(\\d+)(?!\\s+\\d+\\s+R)\\b`).exec(mask)?.[1] ?? Number.NaN);
  const plain =
    number('Width') === width &&
    number('Height') === height &&
    number('BitsPerComponent') === 8 &&
    /\/ColorSpace\s*\/DeviceGray\b/.test(mask) &&
    /\/Filter\s*(?:\/FlateDecode|\[\s*\/FlateDecode\s*\])/.test(mask) &&
    !/\/(?:Decode|DecodeParms|Matte)\b/.test(mask);
  const length = number('Length');
  if (!plain || !Number.isInteger(length)) return undefined;
  const start = at + object[0].length;
  if (start + length > bytes.length) return undefined;
  try {
    const samples = inflateSync(bytes.subarray(start, start + length), { maxOutputLength: width * height, chunkSize: inflateChunkSize(width * height) });
    return samples.length === width * height ? samples : undefined;
  } catch {
    return undefined;
  }
}

/** Where the last definition of `header` (`12 0 obj`) starts, not inside a longer number (`112 0 obj`); -1 if none. */
function lastObject(bytes: Buffer, header: string): number {
  for (let from = bytes.length; from > 0; ) {
    const at = bytes.lastIndexOf(header, from);
    if (at < 0) return -1;
    if (at === 0 || !/[0-9]/.test(String.fromCharCode(bytes[at - 1]!))) return at;
    from = at - 1;
  }
  return -1;
}
