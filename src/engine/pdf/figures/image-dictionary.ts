/**
 * What an image XObject's dictionary says beyond what PDFium's API tells (it has no call for a soft mask, a colour
 * key mask or a Decode array): found in the file's bytes, where the image's raw stream data sits right after
 * `stream`, its dictionary between `obj` and that keyword. Pure: the file's bytes and the stream's raw data in.
 *
 * Unknown (undefined) when the data is not in the file as it is (an encrypted file, a stream too short to be found
 * for certain): the caller then takes the way that holds whatever the dictionary says.
 */
import { inflateSync } from 'node:zlib';
import { arrayItems, integerValue, objectText, parseDictionary, referenceValue, type PdfDictionary } from './pdf-objects.js';
import { inflateChunkSize, unfilterRows } from './png.js';

export interface ImageDictionary {
  /** The dictionary as the file spells it, between `obj` and `stream`. */
  text: string;
  /** A soft mask (`/SMask`, or `/SMaskInData` for JPX) or a mask (`/Mask`: a stencil or colour key) is applied. */
  masked: boolean;
  /** A `/Decode` array remaps the samples (an inverted grey, say). */
  decodeArray: boolean;
  /** Its entries; undefined when the text is not a dictionary this reads. */
  entries: PdfDictionary | undefined;
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
    entries: parseDictionary(dictionary),
  };
}

/** PNG's predictors (/Predictor 10 to 15: each row led by its filter type) or none (1), with what they work on. */
export interface FlateParameters {
  predictor: number;
  colors: number;
  bitsPerComponent: number;
  columns: number;
}

/**
 * The /DecodeParms of a stream with the one filter FlateDecode, the defaults filled in; undefined when they are not
 * written out plainly (a reference, several filters' parameters).
 */
export function flateParameters(entries: PdfDictionary): FlateParameters | undefined {
  let value = entries.get('DecodeParms');
  const items = value === undefined ? undefined : arrayItems(value);
  if (items) {
    if (items.length !== 1) return undefined;
    value = items[0];
  }
  if (value === undefined || value === 'null') return { predictor: 1, colors: 1, bitsPerComponent: 8, columns: 1 };
  const parameters = parseDictionary(value);
  if (!parameters) return undefined;
  const read = (key: string, otherwise: number) => (parameters.has(key) ? integerValue(parameters.get(key)) : otherwise);
  const predictor = read('Predictor', 1);
  const colors = read('Colors', 1);
  const bitsPerComponent = read('BitsPerComponent', 8);
  const columns = read('Columns', 1);
  if (predictor === undefined || colors === undefined || bitsPerComponent === undefined || columns === undefined) return undefined;
  return { predictor, colors, bitsPerComponent, columns };
}

/** PDF's FlateDecode, alone, as a filter entry is written: `/FlateDecode` or `[/FlateDecode]`. */
function flateOnly(value: string | undefined): boolean {
  return value === '/FlateDecode' || (value !== undefined && arrayItems(value)?.join(' ') === '/FlateDecode');
}

/** How many times a colour space's value may lead to another object (a reference to an array naming a stream). */
const MAX_INDIRECTION = 3;

/**
 * The colour components of an image whose samples are grey or RGB as they stand (DeviceGray, DeviceRGB, CalGray,
 * CalRGB, ICCBased with /N 1 or 3) at 8 bits: 1 or 3, as PDFium's metadata would tell. `'other'` when the
 * dictionary says plainly that they are not (another depth, CMYK, Indexed, Separation, Lab...); undefined when it
 * cannot be told from the file's text (the caller asks PDFium).
 */
export function plainChannels(file: Uint8Array, entries: PdfDictionary): 1 | 3 | 'other' | undefined {
  if (entries.get('ImageMask') === 'true') return 'other';
  const bits = entries.get('BitsPerComponent');
  if (bits === undefined) return undefined;
  const depth = integerValue(bits);
  if (depth === undefined) return undefined;
  if (depth !== 8) return 'other';
  return colourChannels(file, entries.get('ColorSpace'), 0);
}

function colourChannels(file: Uint8Array, value: string | undefined, depth: number): 1 | 3 | 'other' | undefined {
  if (value === undefined || depth > MAX_INDIRECTION) return undefined;
  if (value === '/DeviceGray' || value === '/CalGray') return 1;
  if (value === '/DeviceRGB' || value === '/CalRGB') return 3;
  if (['/DeviceCMYK', '/Pattern', '/Lab'].includes(value)) return 'other';
  const reference = referenceValue(value);
  if (reference) {
    const object = objectText(file, ...reference);
    return object && object.streamAt === undefined ? colourChannels(file, object.text.trim(), depth + 1) : undefined;
  }
  const items = arrayItems(value);
  const family = items?.[0];
  if (family === '/CalGray') return 1;
  if (family === '/CalRGB') return 3;
  if (family === '/Indexed' || family === '/Separation' || family === '/DeviceN' || family === '/Lab' || family === '/Pattern') return 'other';
  if (family !== '/ICCBased' || items?.length !== 2) return undefined;
  const profile = referenceValue(items[1]);
  const stream = profile && objectText(file, ...profile);
  if (!stream || stream.streamAt === undefined) return undefined;
  const components = integerValue(parseDictionary(stream.text)?.get('N'));
  if (components === 1 || components === 3) return components;
  return components === undefined ? undefined : 'other';
}

/**
 * The alpha samples of an image's soft mask (`/SMask n g R`), read from the file when the mask is of the kinds most
 * writers make: one DeviceGray Flate stream of the image's own size, 8 or 1 bits per sample, with or without PNG
 * predictors, with a direct /Length and no /Decode or /Matte. Undefined otherwise (the caller lets PDFium draw the
 * picture with its mask).
 */
export function softMaskSamples(file: Uint8Array, image: ImageDictionary, width: number, height: number): Uint8Array | undefined {
  const reference = referenceValue(image.entries?.get('SMask'));
  const object = reference && objectText(file, ...reference);
  const mask = object?.streamAt === undefined ? undefined : parseDictionary(object.text);
  if (!object || object.streamAt === undefined || !mask) return undefined;
  const bits = integerValue(mask.get('BitsPerComponent'));
  const parameters = flateParameters(mask);
  const plain =
    integerValue(mask.get('Width')) === width &&
    integerValue(mask.get('Height')) === height &&
    (bits === 8 || bits === 1) &&
    mask.get('ColorSpace') === '/DeviceGray' &&
    flateOnly(mask.get('Filter')) &&
    !mask.has('Decode') &&
    !mask.has('Matte') &&
    parameters !== undefined &&
    (parameters.predictor === 1 || (parameters.predictor >= 10 && parameters.colors === 1 && parameters.bitsPerComponent === bits && parameters.columns === width));
  const length = integerValue(mask.get('Length'));
  if (!plain || length === undefined || bits === undefined) return undefined;
  const start = object.streamAt;
  if (start + length > file.length) return undefined;
  const rowBytes = Math.ceil((width * bits) / 8);
  const predicted = parameters.predictor >= 10;
  const size = height * (rowBytes + (predicted ? 1 : 0));
  let samples: Uint8Array;
  try {
    samples = inflateSync(file.subarray(start, start + length), { maxOutputLength: size, chunkSize: inflateChunkSize(size) });
  } catch {
    return undefined;
  }
  if (samples.length !== size) return undefined;
  const rows = predicted ? unfilterRows(samples, rowBytes, 1, height) : samples;
  if (!rows) return undefined;
  return bits === 8 ? rows : unpackBits(rows, width, height, rowBytes);
}

/** 1-bit samples (rows padded to whole bytes, first pixel in the high bit) as alpha: 1 opaque, 0 clear. */
function unpackBits(rows: Uint8Array, width: number, height: number, rowBytes: number): Uint8Array {
  const alpha = new Uint8Array(width * height);
  for (let y = 0, to = 0; y < height; y++) {
    const row = y * rowBytes;
    for (let x = 0; x < width; x++) alpha[to++] = (rows[row + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
  }
  return alpha;
}
