/**
 * Last-resort repair of a PDF that pdfjs refuses outright. Such a file is typically cut short (a download or an
 * upload that stopped early): its end, where the cross-reference table (or stream) and the trailer are, is gone, and
 * with it where each object is and which one is the catalogue. pdfjs rebuilds a lost table by scanning for objects
 * written in the clear, but it needs a trailer naming the catalogue, and it does not look inside object streams,
 * where PDF 1.5 writers (Word, pdfTeX, qpdf) keep the catalogue, the page tree and the pages.
 *
 * So this scans the file the way a repairing reader does: every whole object written in the clear (the last of
 * each number wins, as in an incremental update), and every object of each whole object stream (Flate or
 * unfiltered). It appends a new cross-reference stream that points at all of them, and a trailer naming:
 * - the document's own catalogue, when its page tree survived (the pages keep what they inherit from it: sizes,
 *   fonts), and its Info dictionary when a surviving trailer names one;
 * - else a new catalogue over a new page tree of the page objects that survived (each copied with the new tree as
 *   its parent, and a default MediaBox when theirs was inherited), so that what survived can be read.
 * An object cut off in the middle is left out: a page whose content or fonts are gone fails alone, or reads without
 * them. Returns null when no page survived, and for an encrypted file (its key needs the lost trailer's ID).
 */
import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { findPdfHeader } from '../bytes/sniff.js';

const MAX_SCAN_BYTES = 64 * 1024 * 1024;
const MAX_PAGES = 10_000;
/** Inflated bytes of one object stream, and of all of them: a damaged file must not unpack into gigabytes. */
const MAX_OBJECT_STREAM_BYTES = 16 * 1024 * 1024;
const MAX_OBJECT_STREAMS_BYTES = 64 * 1024 * 1024;
/** Objects an object stream may declare (a damaged count must not size an array). */
const MAX_OBJECTS_IN_STREAM = 100_000;
/** Object numbers beyond this are damage, not objects: the new table has a row for every number below the largest. */
const MAX_OBJECT_NUMBER = 8_000_000;

/** An object the repair found: where it is, and its text (a stream object's dictionary only). */
interface FoundObject {
  generation: number;
  /** Written in the clear: its byte offset from the header. In an object stream: that stream's number and index. */
  place: { offset: number } | { stream: number; index: number };
  /** Where it comes in the file (an object stream's objects at their stream's place): the last one wins. */
  order: number;
  text: string;
}

const OBJECT_HEADER = /(\d{1,10})[ \t\r\n\f\0]+(\d{1,5})[ \t\r\n\f\0]+obj\b/g;
const DELIMITER_BEFORE = /[\s\0%()<>[\]{}/]/;
const STREAM_KEYWORD = /^\s*stream(?:\r\n|\r|\n)/;

function reference(text: string, key: string): number | undefined {
  const match = new RegExp(`/${key}\\s+(\\d{1,10})\\s+\\d{1,5}\\s+R\\b`).exec(text);
  return match ? Number(match[1]) : undefined;
}

function hasType(text: string, type: string): boolean {
  return new RegExp(`/Type\\s*/${type}(?![A-Za-z0-9_.#-])`).test(text);
}

/**
 * The objects written in the clear that are whole, and the raw data of the whole streams among them. Each object is
 * looked for up to the next object's header, so that a damaged file costs a pass over its bytes, not one an object.
 */
interface ObjectsInTheClear {
  objects: Map<number, FoundObject>;
  streams: Map<number, Uint8Array>;
  /** The stream the file ends in, cut off inside its data: what is left of its data, and its dictionary. */
  cut?: { num: number; generation: number; dictionary: string; data: Uint8Array };
}

function objectsInTheClear(bytes: Uint8Array, text: string, header: number): ObjectsInTheClear {
  const objects = new Map<number, FoundObject>();
  const streams = new Map<number, Uint8Array>();
  OBJECT_HEADER.lastIndex = header;
  for (let match = OBJECT_HEADER.exec(text); match; match = OBJECT_HEADER.exec(text)) {
    const start = match.index;
    if (start > header && !DELIMITER_BEFORE.test(text[start - 1]!)) continue;
    const num = Number(match[1]);
    const bodyStart = start + match[0].length;
    // The next header: the end of this object, unless it is in this object's stream data.
    OBJECT_HEADER.lastIndex = bodyStart;
    const next = OBJECT_HEADER.exec(text)?.index ?? text.length;
    const close = dictionaryClose(text, bodyStart, next);
    const keyword = close === undefined ? null : STREAM_KEYWORD.exec(text.slice(close, close + 16));
    let end: number;
    let objectText: string;
    if (close !== undefined && keyword) {
      // A stream: its data skipped by its /Length where that holds, else up to `endstream`.
      objectText = text.slice(bodyStart, close);
      const dataStart = close + keyword[0].length;
      const stated = /\/Length\s+(\d{1,10})(?!\d)(?!\s+\d+\s+R)/.exec(objectText);
      let dataEnd = stated ? dataStart + Number(stated[1]) : -1;
      if (!(dataEnd >= dataStart && /^\s*endstream\b/.test(text.slice(dataEnd, dataEnd + 32)))) {
        dataEnd = text.indexOf('endstream', dataStart);
        if (dataEnd < 0) {
          // Cut off inside its data, where the file ends: what is left of a page's content is worth reading.
          return { objects, streams, cut: { num, generation: Number(match[2]), dictionary: objectText.trim(), data: bytes.subarray(dataStart) } };
        }
        // The end of line before `endstream` is not data.
        if (text[dataEnd - 1] === '\n') dataEnd--;
        if (text[dataEnd - 1] === '\r') dataEnd--;
      }
      streams.set(num, bytes.subarray(dataStart, dataEnd));
      end = text.indexOf('endstream', dataEnd) + 'endstream'.length;
    } else {
      const endobj = text.slice(bodyStart, next).search(/\bendobj\b/);
      if (endobj < 0) {
        // Cut off, or damaged: left out, the next object looked at.
        OBJECT_HEADER.lastIndex = next;
        continue;
      }
      streams.delete(num);
      objectText = text.slice(bodyStart, bodyStart + endobj);
      end = bodyStart + endobj;
    }
    objects.set(num, { generation: Number(match[2]), place: { offset: start - header }, order: start, text: objectText.trim() });
    OBJECT_HEADER.lastIndex = end;
  }
  return { objects, streams };
}

/**
 * Where the object's outermost dictionary closes (`>>` balancing its `<<`) before `limit`, or undefined when it does
 * not begin with one or does not close there.
 */
function dictionaryClose(text: string, from: number, limit: number): number | undefined {
  let at = from;
  while (at < limit && /\s/.test(text[at]!)) at++;
  if (text.slice(at, at + 2) !== '<<') return undefined;
  let depth = 0;
  for (let i = at; i < limit - 1; i++) {
    const c = text[i]!;
    if (c === '(') {
      // A string: its brackets do not count; nested parentheses and escapes do.
      let nested = 0;
      for (i++; i < limit; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === '(') nested++;
        else if (text[i] === ')' && nested-- === 0) break;
      }
    } else if (c === '<' && text[i + 1] === '<') {
      depth++;
      i++;
    } else if (c === '>' && text[i + 1] === '>') {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

/** The objects of the whole object streams, each at its stream's place in the file. */
function objectsInStreams(objects: Map<number, FoundObject>, streams: Map<number, Uint8Array>): Map<number, FoundObject> {
  const found = new Map<number, FoundObject>();
  let budget = MAX_OBJECT_STREAMS_BYTES;
  for (const [num, raw] of streams) {
    const stream = objects.get(num)!;
    if (!hasType(stream.text, 'ObjStm')) continue;
    const data = decodedStream(stream.text, raw, Math.min(budget, MAX_OBJECT_STREAM_BYTES));
    if (!data) continue;
    budget -= data.length;
    const count = /\/N\s+(\d{1,7})\b/.exec(stream.text);
    const first = /\/First\s+(\d{1,10})\b/.exec(stream.text);
    if (!count || !first) continue;
    const n = Math.min(Number(count[1]), MAX_OBJECTS_IN_STREAM);
    const body = data.toString('latin1');
    const numbers = body.slice(0, Number(first[1])).trim().split(/\s+/).map(Number);
    for (let index = 0; index < n && 2 * index + 1 < numbers.length; index++) {
      const objectNumber = numbers[2 * index]!;
      const from = Number(first[1]) + numbers[2 * index + 1]!;
      const to = 2 * index + 3 < numbers.length ? Number(first[1]) + numbers[2 * index + 3]! : body.length;
      if (!Number.isInteger(objectNumber) || !(from >= 0 && to >= from && to <= body.length)) continue;
      found.set(objectNumber, { generation: 0, place: { stream: num, index }, order: stream.order, text: body.slice(from, to).trim() });
    }
    if (budget <= 0) break;
  }
  return found;
}

/** The names of a stream's filters, outermost first. */
function filtersOf(dictionary: string): string[] {
  const listed = /\/Filter\s*\[([^\]]*)\]/.exec(dictionary);
  if (listed) return [...listed[1]!.matchAll(/\/(\w+)/g)].map((name) => name[1]!);
  const single = /\/Filter\s*\/(\w+)/.exec(dictionary);
  return single ? [single[1]!] : [];
}

/** Flate alone, with no predictor: what is inflated here. */
function plainFlate(dictionary: string): boolean {
  const filters = filtersOf(dictionary);
  return filters.length === 1 && filters[0] === 'FlateDecode' && !/\/Predictor\s+(?!1\b)\d/.test(dictionary);
}

/** A stream's data unfiltered (none, or FlateDecode without a predictor); undefined for another filter or damage. */
function decodedStream(dictionary: string, raw: Uint8Array, limit: number): Buffer | undefined {
  if (filtersOf(dictionary).length === 0) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (!plainFlate(dictionary)) return undefined;
  try {
    return inflateSync(raw, { maxOutputLength: limit });
  } catch {
    return undefined;
  }
}

/** Flate streams tried before the file's streams are taken to be unreadable. */
const STREAMS_TRIED = 8;

/**
 * Whether the file's streams can be read: an encrypted file's cannot (their key needs the trailer's ID, which is lost
 * with it, and its encryption dictionary may have been there too), and a file whose first Flate streams all fail to
 * inflate is taken for one. The start of each is enough: an encrypted stream fails at its first bytes.
 */
function streamsReadable(objects: Map<number, FoundObject>, streams: Map<number, Uint8Array>, text: string): boolean {
  if (/\/Encrypt\s+\d+\s+\d+\s+R\b/.test(text)) return false;
  for (const object of objects.values()) if (/\/Filter\s*\/Standard\b/.test(object.text) && /\/[OU]\s*[<(]/.test(object.text)) return false;
  let tried = 0;
  for (const [num, raw] of streams) {
    if (!plainFlate(objects.get(num)!.text)) continue;
    try {
      inflateSync(raw.subarray(0, 4096), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
      return true;
    } catch {
      if (++tried >= STREAMS_TRIED) return false;
    }
  }
  return tried === 0;
}

/** The catalogue, when its page tree survived: the last written. */
function survivingCatalogue(table: Map<number, FoundObject>): number | undefined {
  let best: { num: number; order: number } | undefined;
  for (const [num, object] of table) {
    if (!hasType(object.text, 'Catalog')) continue;
    const pages = reference(object.text, 'Pages');
    const tree = pages === undefined ? undefined : table.get(pages);
    if (!tree || !hasType(tree.text, 'Pages')) continue;
    if (!best || object.order >= best.order) best = { num, order: object.order };
  }
  return best?.num;
}

/** The Info dictionary the last surviving trailer (or cross-reference stream) names, when it survived too. */
function survivingInfo(text: string, table: Map<number, FoundObject>): number | undefined {
  let info: number | undefined;
  for (const match of text.matchAll(/\/Info\s+(\d{1,10})\s+\d{1,5}\s+R\b/g)) info = Number(match[1]);
  for (const object of table.values()) if (hasType(object.text, 'XRef')) info = reference(object.text, 'Info') ?? info;
  return info !== undefined && table.has(info) ? info : undefined;
}

/** The page objects that survived, in the order they come in the file. */
function survivingPages(table: Map<number, FoundObject>): number[] {
  return [...table]
    .filter(([, object]) => hasType(object.text, 'Page') && object.text.startsWith('<<') && object.text.endsWith('>>'))
    .sort(([, a], [, b]) => a.order - b.order || placeIndex(a) - placeIndex(b))
    .slice(0, MAX_PAGES)
    .map(([num]) => num);
}

function placeIndex(object: FoundObject): number {
  return 'index' in object.place ? object.place.index : 0;
}

/**
 * Whether the file was cut short: an object begins after its last end-of-file marker, or it has none. Not a file
 * with bytes of another kind after its `%%EOF` (padding, a mail's trailing lines), whose cross-reference table holds.
 */
export function cutShort(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = buffer.lastIndexOf('%%EOF');
  if (end < 0) return true;
  return new RegExp(OBJECT_HEADER.source).test(buffer.toString('latin1', end));
}

/**
 * Each document's repair, kept while its bytes are: the text path and the picture reader (`--images`) both read the
 * file repaired, and it is scanned once.
 */
const repairs = new WeakMap<Uint8Array, Uint8Array | null>();

export function recoverTruncatedPdf(bytes: Uint8Array): Uint8Array | null {
  let repaired = repairs.get(bytes);
  if (repaired === undefined) {
    repaired = repairedPdf(bytes);
    repairs.set(bytes, repaired);
  }
  return repaired;
}

function repairedPdf(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length === 0 || bytes.length > MAX_SCAN_BYTES) return null;
  const header = Math.max(0, findPdfHeader(bytes));
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const { objects, streams, cut } = objectsInTheClear(bytes, text, header);
  const table = new Map<number, FoundObject>(objects);
  // An object in a stream counts where its stream comes: a later one written in the clear updates it, and back.
  for (const [num, object] of objectsInStreams(objects, streams)) {
    const clear = table.get(num);
    if (!clear || clear.order < object.order) table.set(num, object);
  }
  for (const num of table.keys()) if (num > MAX_OBJECT_NUMBER) table.delete(num);
  if (!streamsReadable(objects, streams, text)) return null;

  const pages = survivingPages(table);
  if (pages.length === 0) return null;
  let next = (cut?.num ?? 0) + 1;
  for (const num of table.keys()) next = Math.max(next, num + 1);
  const added: { num: number; generation?: number; body: string }[] = [];
  let root = survivingCatalogue(table);
  if (root === undefined) {
    const tree = next++;
    for (const num of pages) {
      let dict = table.get(num)!.text.replace(/\/Parent\s+\d+\s+\d+\s+R/, `/Parent ${tree} 0 R`);
      if (!/\/Parent\b/.test(dict)) dict = dict.replace(/^<</, `<< /Parent ${tree} 0 R`);
      if (!/\/MediaBox\b/.test(dict)) dict = dict.replace(/^<</, '<< /MediaBox [0 0 612 792]');
      added.push({ num, body: dict });
    }
    added.push({ num: tree, body: `<< /Type /Pages /Kids [${pages.map((num) => `${num} 0 R`).join(' ')}] /Count ${pages.length} >>` });
    root = next++;
    added.push({ num: root, body: `<< /Type /Catalog /Pages ${tree} 0 R >>` });
  }
  const info = survivingInfo(text, table);
  // The stream the file was cut in, copied whole with the data that is left (a Flate stream's first part inflates).
  if (cut && !hasType(cut.dictionary, 'ObjStm')) {
    const dictionary = cut.dictionary.replace(/\/Length\s+\d+(?:\s+\d+\s+R\b)?/, `/Length ${cut.data.length}`);
    const data = Buffer.from(cut.data.buffer, cut.data.byteOffset, cut.data.byteLength).toString('latin1');
    added.push({ num: cut.num, generation: cut.generation, body: `${dictionary}\nstream\n${data}\nendstream` });
  }

  const parts: string[] = ['\n'];
  let length = bytes.length - header + 1;
  const offsets = new Map<number, { offset: number; generation: number }>();
  for (const { num, generation = 0, body } of added) {
    const object = `${num} ${generation} obj\n${body}\nendobj\n`;
    offsets.set(num, { offset: length, generation });
    parts.push(object);
    length += Buffer.byteLength(object, 'latin1');
  }
  const xref = next;
  const size = xref + 1;
  // One row a number: type 1 (offset, generation), type 2 (object stream, index), type 0 for a number not found.
  const rows = Buffer.alloc(size * 7);
  rows.writeUInt8(0, 0);
  rows.writeUInt32BE(0, 1);
  rows.writeUInt16BE(0xffff, 5);
  for (let num = 1; num < size; num++) {
    const at = num * 7;
    const written = offsets.get(num) ?? (num === xref ? { offset: length, generation: 0 } : undefined);
    const object = table.get(num);
    if (written !== undefined) {
      rows.writeUInt8(1, at);
      rows.writeUInt32BE(written.offset, at + 1);
      rows.writeUInt16BE(written.generation, at + 5);
    } else if (object && 'offset' in object.place) {
      rows.writeUInt8(1, at);
      rows.writeUInt32BE(object.place.offset, at + 1);
      rows.writeUInt16BE(object.generation, at + 5);
    } else if (object && 'stream' in object.place) {
      rows.writeUInt8(2, at);
      rows.writeUInt32BE(object.place.stream, at + 1);
      rows.writeUInt16BE(object.place.index, at + 5);
    }
  }
  const dictionary = `<< /Type /XRef /Size ${size} /W [1 4 2] /Root ${root} 0 R${info === undefined ? '' : ` /Info ${info} 0 R`} /Length ${rows.length} >>`;
  const head = Buffer.from(`${parts.join('')}${xref} 0 obj\n${dictionary}\nstream\n`, 'latin1');
  const tail = Buffer.from(`\nendstream\nendobj\nstartxref\n${length}\n%%EOF\n`, 'latin1');
  return Buffer.concat([bytes, head, rows, tail]);
}
