/**
 * What a PDF states about itself in the clear (Title and Author in its document information dictionary, Lang in
 * its catalogue), read from the bytes without opening the document. When LiteParse reads every page, this spares
 * opening the document with pdfjs for these three strings alone (convert-pdf.ts).
 *
 * It answers only where it reads what pdfjs's getMetadata would: the cross-reference sections found from the
 * last `startxref` (tables, hybrid ones with their /XRefStm, or streams that are uncompressed or Flate with no
 * predictor or the PNG Up one), the newest trailer's /Root and /Info, each an object found at its offset, whose
 * entries are direct strings. Anything else (encryption, an object inside an object stream, an indirect value, a
 * damaged tail) is `undefined`: pdfjs reads the metadata then. `xmp` says the catalogue has an XMP packet, which
 * pdfjs takes a missing title or author from, and `xmpNames` whether it names either.
 */
import { inflateSync } from 'node:zlib';

export interface StatedInfo {
  /** The raw strings, decoded as pdfjs decodes text strings (UTF-16 or UTF-8 with a byte-order mark, else PDFDocEncoding). */
  title?: string;
  author?: string;
  language?: string;
  /** The catalogue has a /Metadata stream. */
  xmp: boolean;
  /**
   * With `xmp`: whether the packet may give a title (`dc:title`) and an author (`dc:creator`), the names pdfjs reads
   * (xmpNames); true where its stream could not be read.
   */
  xmpNames?: { title: boolean; author: boolean };
  /** The catalogue has an /Outlines entry (bookmarks, outline-headings.ts). */
  outlines: boolean;
}

export interface Name {
  name: string;
}
export interface Ref {
  num: number;
  gen: number;
}
export interface PdfString {
  bytes: string;
}
export type Value = number | boolean | null | Name | Ref | PdfString | Value[] | Map<string, Value>;

/** Thrown inside the reader where the bytes are not what it reads with certainty; caught at its entry. */
export class Unsure extends Error {}

/** PDF's white-space and delimiter bytes. */
export const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
export const DELIMITER = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
/** A number as PDF writes one (`-.5`, `12.`, `3`). */
export const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
/** \n \r \t \b \f in a literal string. */
const ESCAPED: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c };
const MAX_HOPS = 32;
const TAIL = 1024;

/** PDF's object syntax read from bytes, a token or a value at a time (content streams too: their operators are words). */
export class Lexer {
  pos: number;
  constructor(
    readonly bytes: Uint8Array,
    start: number,
  ) {
    this.pos = start;
  }

  skipSpace(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (WHITE.has(c)) this.pos++;
      else if (c === 0x25) while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      else break;
    }
  }

  /** A bare word (number, keyword). */
  word(): string {
    this.skipSpace();
    const start = this.pos;
    while (this.pos < this.bytes.length && !WHITE.has(this.bytes[this.pos]!) && !DELIMITER.has(this.bytes[this.pos]!)) this.pos++;
    return String.fromCharCode(...this.bytes.subarray(start, this.pos));
  }

  value(depth = 0): Value {
    if (depth > 16) throw new Unsure();
    this.skipSpace();
    const b = this.bytes;
    const c = b[this.pos];
    if (c === undefined) throw new Unsure();
    if (c === 0x2f) return this.name();
    if (c === 0x28) return this.literal();
    if (c === 0x3c && b[this.pos + 1] === 0x3c) return this.dict(depth);
    if (c === 0x3c) return this.hex();
    if (c === 0x5b) {
      this.pos++;
      const items: Value[] = [];
      for (;;) {
        this.skipSpace();
        if (b[this.pos] === 0x5d) {
          this.pos++;
          return items;
        }
        items.push(this.value(depth + 1));
      }
    }
    const word = this.word();
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    if (!NUMBER.test(word)) throw new Unsure();
    const number = Number(word);
    // `num gen R`: a reference.
    if (/^\d+$/.test(word)) {
      const saved = this.pos;
      const gen = this.word();
      const r = /^\d+$/.test(gen) ? this.word() : '';
      if (r === 'R') return { num: number, gen: Number(gen) };
      this.pos = saved;
    }
    return number;
  }

  name(): Name {
    this.pos++;
    const start = this.pos;
    while (this.pos < this.bytes.length && !WHITE.has(this.bytes[this.pos]!) && !DELIMITER.has(this.bytes[this.pos]!)) this.pos++;
    const raw = String.fromCharCode(...this.bytes.subarray(start, this.pos));
    return { name: raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) };
  }

  dict(depth: number): Map<string, Value> {
    this.pos += 2;
    const entries = new Map<string, Value>();
    for (;;) {
      this.skipSpace();
      if (this.bytes[this.pos] === 0x3e && this.bytes[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return entries;
      }
      if (this.bytes[this.pos] !== 0x2f) throw new Unsure();
      const key = this.name().name;
      entries.set(key, this.value(depth + 1));
    }
  }

  /** A literal string: escapes and balanced parentheses as the PDF syntax has them. */
  literal(): PdfString {
    const b = this.bytes;
    this.pos++;
    let depth = 1;
    let out = '';
    while (this.pos < b.length) {
      let c = b[this.pos++]!;
      if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) return { bytes: out };
      else if (c === 0x5c) {
        c = b[this.pos++] ?? 0;
        const mapped = ESCAPED[c];
        if (mapped !== undefined) c = mapped;
        else if (c >= 0x30 && c <= 0x37) {
          let code = c - 0x30;
          for (let i = 0; i < 2 && b[this.pos]! >= 0x30 && b[this.pos]! <= 0x37; i++) code = code * 8 + (b[this.pos++]! - 0x30);
          c = code & 0xff;
        } else if (c === 0x0d || c === 0x0a) {
          // A backslash at the end of a line continues the string on the next.
          if (c === 0x0d && b[this.pos] === 0x0a) this.pos++;
          continue;
        }
      }
      out += String.fromCharCode(c);
    }
    throw new Unsure();
  }

  hex(): PdfString {
    const end = this.bytes.indexOf(0x3e, this.pos);
    if (end < 0) throw new Unsure();
    const digits = String.fromCharCode(...this.bytes.subarray(this.pos + 1, end)).replace(/[\0\t\n\f\r ]/g, '');
    if (!/^[0-9a-fA-F]*$/.test(digits)) throw new Unsure();
    this.pos = end + 1;
    const even = digits.length % 2 ? `${digits}0` : digits;
    let out = '';
    for (let i = 0; i < even.length; i += 2) out += String.fromCharCode(parseInt(even.slice(i, i + 2), 16));
    return { bytes: out };
  }
}

/** PDFDocEncoding where it differs from Latin-1 (0x18–0x1F, 0x80–0xA0), as pdfjs's table has it. */
const PDF_DOC: Record<number, number> = {
  0x18: 0x2d8, 0x19: 0x2c7, 0x1a: 0x2c6, 0x1b: 0x2d9, 0x1c: 0x2dd, 0x1d: 0x2db, 0x1e: 0x2da, 0x1f: 0x2dc,
  0x80: 0x2022, 0x81: 0x2020, 0x82: 0x2021, 0x83: 0x2026, 0x84: 0x2014, 0x85: 0x2013, 0x86: 0x192, 0x87: 0x2044,
  0x88: 0x2039, 0x89: 0x203a, 0x8a: 0x2212, 0x8b: 0x2030, 0x8c: 0x201e, 0x8d: 0x201c, 0x8e: 0x201d, 0x8f: 0x2018,
  0x90: 0x2019, 0x91: 0x201a, 0x92: 0x2122, 0x93: 0xfb01, 0x94: 0xfb02, 0x95: 0x141, 0x96: 0x152, 0x97: 0x160,
  0x98: 0x178, 0x99: 0x17d, 0x9a: 0x131, 0x9b: 0x142, 0x9c: 0x153, 0x9d: 0x161, 0x9e: 0x17e, 0xa0: 0x20ac,
};

/** A PDF text string as pdfjs's stringToPDFString decodes it (escape sequences, ESC…ESC, dropped). */
export function decodeTextString(raw: string): string {
  const encoding =
    raw.startsWith('\xfe\xff') ? 'utf-16be' : raw.startsWith('\xff\xfe') ? 'utf-16le' : raw.startsWith('\xef\xbb\xbf') ? 'utf-8' : undefined;
  if (encoding) {
    const even = encoding === 'utf-8' || raw.length % 2 === 0 ? raw : raw.slice(0, -1);
    try {
      const decoded = new TextDecoder(encoding, { fatal: true }).decode(Uint8Array.from(even, (ch) => ch.charCodeAt(0)));
      // eslint-disable-next-line no-control-regex
      return decoded.replaceAll(/\x1b[^\x1b]*(?:\x1b|$)/g, '');
    } catch {
      // As pdfjs: a bad sequence falls back to PDFDocEncoding.
    }
  }
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 0x1b) {
      while (++i < raw.length && raw.charCodeAt(i) !== 0x1b);
      continue;
    }
    const mapped = PDF_DOC[code];
    out += mapped ? String.fromCharCode(mapped) : raw.charAt(i);
  }
  return out;
}

interface Section {
  trailer: Map<string, Value>;
  /** Where the section puts an object: its byte offset, `elsewhere` (compressed or free), or undefined (not listed). */
  entry(num: number): number | 'elsewhere' | undefined;
  /** For an object `elsewhere` in an object stream: that stream's number and the object's index in it. */
  packed?(num: number): { stream: number; index: number } | undefined;
}

export const isRef = (value: Value | undefined): value is Ref => typeof value === 'object' && value !== null && 'num' in value;
export const isDict = (value: Value | undefined): value is Map<string, Value> => value instanceof Map;
const intOf = (value: Value | undefined): number => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Unsure();
  return value;
};

/** One entry of a cross-reference table: 20 bytes, `oooooooooo ggggg n` and a two-byte line end. */
const TABLE_ENTRY = /^(\d{10}) \d{5} ([nf])(?:\r\n| \n| \r)$/;
const ENTRY_BYTES = 20;

/** A table's subsections are located, not read: only the two objects asked for are looked up. */
function tableSection(bytes: Uint8Array, at: number): Section {
  const lexer = new Lexer(bytes, at + 4);
  const subsections: { first: number; count: number; start: number }[] = [];
  for (;;) {
    const word = lexer.word();
    if (word === 'trailer') break;
    const first = Number(word);
    const count = Number(lexer.word());
    if (!Number.isInteger(first) || first < 0 || !Number.isInteger(count) || count < 0) throw new Unsure();
    lexer.skipSpace();
    subsections.push({ first, count, start: lexer.pos });
    lexer.pos += count * ENTRY_BYTES;
    if (lexer.pos > bytes.length || subsections.length > 100_000) throw new Unsure();
  }
  const trailer = lexer.value();
  if (!isDict(trailer)) throw new Unsure();
  const entry = (num: number): number | 'elsewhere' | undefined => {
    const sub = subsections.find(({ first, count }) => num >= first && num < first + count);
    if (!sub) return undefined;
    const at = sub.start + (num - sub.first) * ENTRY_BYTES;
    const match = TABLE_ENTRY.exec(latin1(bytes, at, at + ENTRY_BYTES));
    if (!match) throw new Unsure();
    return match[2] === 'n' ? Number(match[1]) : 'elsewhere';
  };
  return { trailer, entry };
}

/** The PNG Up predictor, or none: the two that cross-reference streams are written with. */
function unpredict(data: Buffer, parms: Value | undefined, width: number): Buffer {
  if (!isDict(parms) || (parms.get('Predictor') ?? 1) === 1) return data;
  if (parms.get('Predictor') !== 12 || (parms.get('Columns') ?? 1) !== width) throw new Unsure();
  const rows = Math.floor(data.length / (width + 1));
  const out = Buffer.alloc(rows * width);
  for (let row = 0; row < rows; row++) {
    const filter = data[row * (width + 1)];
    if (filter !== 0 && filter !== 2) throw new Unsure();
    for (let i = 0; i < width; i++) {
      const byte = data[row * (width + 1) + 1 + i]!;
      out[row * width + i] = filter === 2 && row > 0 ? (byte + out[(row - 1) * width + i]!) & 0xff : byte;
    }
  }
  return out;
}

/**
 * The raw bytes of the stream whose dictionary `lexer` has just read (the `stream` keyword next), as long as its
 * direct /Length says, cut at the end of the file.
 */
function streamBytes(bytes: Uint8Array, lexer: Lexer, dict: Map<string, Value>): Buffer {
  if (lexer.word() !== 'stream') throw new Unsure();
  if (bytes[lexer.pos] === 0x0d) lexer.pos++;
  if (bytes[lexer.pos] === 0x0a) lexer.pos++;
  const length = intOf(dict.get('Length'));
  return Buffer.from(bytes.buffer, bytes.byteOffset + lexer.pos, Math.min(length, bytes.length - lexer.pos));
}

/** Whether the stream is Flate-encoded (false: no filter); any other filter is beyond this reader. */
function isFlate(dict: Map<string, Value>): boolean {
  const filter = dict.get('Filter');
  const name = Array.isArray(filter) && filter.length === 1 ? filter[0] : filter;
  if (name === undefined) return false;
  if ((name as Name).name !== 'FlateDecode') throw new Unsure();
  return true;
}

function streamSection(bytes: Uint8Array, at: number): Section {
  const lexer = new Lexer(bytes, at);
  lexer.word();
  lexer.word();
  if (lexer.word() !== 'obj') throw new Unsure();
  const dict = lexer.value();
  if (!isDict(dict) || (dict.get('Type') as Name | undefined)?.name !== 'XRef') throw new Unsure();
  let data = streamBytes(bytes, lexer, dict);
  const widths = dict.get('W');
  if (!Array.isArray(widths) || widths.length !== 3) throw new Unsure();
  const [w0, w1, w2] = widths.map(intOf) as [number, number, number];
  const width = w0 + w1 + w2;
  if (isFlate(dict)) {
    const parms = dict.get('DecodeParms');
    data = unpredict(inflateSync(data, { maxOutputLength: 64 << 20 }), Array.isArray(parms) ? parms[0] : parms, width);
  }
  const index = dict.get('Index') ?? [0, intOf(dict.get('Size'))];
  if (!Array.isArray(index) || index.length % 2) throw new Unsure();
  const field = (row: number, start: number, size: number, fallback: number) => {
    if (size === 0) return fallback;
    let value = 0;
    for (let i = 0; i < size; i++) value = value * 256 + data[row * width + start + i]!;
    return value;
  };
  const offsets = new Map<number, number>();
  const elsewhere = new Set<number>();
  const packed = new Map<number, { stream: number; index: number }>();
  let row = 0;
  for (let k = 0; k < index.length; k += 2) {
    const first = intOf(index[k]);
    const count = intOf(index[k + 1]);
    for (let i = 0; i < count; i++, row++) {
      if ((row + 1) * width > data.length) throw new Unsure();
      const type = field(row, 0, w0, 1);
      if (type === 1) offsets.set(first + i, field(row, w0, w1, 0));
      else elsewhere.add(first + i);
      if (type === 2) packed.set(first + i, { stream: field(row, w0, w1, 0), index: field(row, w0 + w1, w2, 0) });
    }
  }
  return { trailer: dict, entry: (num) => (elsewhere.has(num) ? 'elsewhere' : offsets.get(num)), packed: (num) => packed.get(num) };
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', start, end);
}

/**
 * The cross-reference stream of a hybrid file's table section (/XRefStm: the objects in object streams, which
 * readers of the table alone do not see). pdfjs reads it right after its table and before the sections /Prev leads
 * to, each entry standing where no section read before listed the object: so here it comes next in the list.
 */
function hybridStream(bytes: Uint8Array, table: Section, seen: Set<number>): Section | undefined {
  const offset = table.trailer.get('XRefStm');
  if (offset === undefined) return undefined;
  const at = intOf(offset);
  if (seen.has(at) || at >= bytes.length) throw new Unsure();
  seen.add(at);
  const stream = streamSection(bytes, at);
  // A stream of its own chain would be read after the table's /Prev: not the order this list keeps.
  if (stream.trailer.has('Prev')) throw new Unsure();
  return stream;
}

/**
 * The sections of each document's bytes, read once: the metadata and the outline are both read from them (and an
 * unsure read is not tried twice).
 */
const sectionsRead = new WeakMap<Uint8Array, Section[] | Unsure>();

function sections(bytes: Uint8Array): Section[] {
  let read = sectionsRead.get(bytes);
  if (read === undefined) {
    try {
      read = readSections(bytes);
    } catch (error) {
      if (!(error instanceof Unsure)) throw error;
      read = error;
    }
    sectionsRead.set(bytes, read);
  }
  if (read instanceof Unsure) throw read;
  return read;
}

/** The sections from the last `startxref` on, newest first, a hybrid table's stream just after the table. */
function readSections(bytes: Uint8Array): Section[] {
  const tail = latin1(bytes, Math.max(0, bytes.length - TAIL), bytes.length);
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) throw new Unsure();
  const out: Section[] = [];
  const seen = new Set<number>();
  let at: number | undefined = Number(match[1]);
  while (at !== undefined) {
    if (seen.has(at) || out.length >= MAX_HOPS || at >= bytes.length) throw new Unsure();
    seen.add(at);
    const head = latin1(bytes, at, Math.min(bytes.length, at + 32));
    const section: Section | undefined = head.startsWith('xref') ? tableSection(bytes, at) : /^\d+\s+\d+\s+obj\b/.test(head) ? streamSection(bytes, at) : undefined;
    if (!section || section.trailer.has('Encrypt')) throw new Unsure();
    out.push(section);
    const stream = head.startsWith('xref') ? hybridStream(bytes, section, seen) : undefined;
    if (stream) out.push(stream);
    const prev: Value | undefined = section.trailer.get('Prev');
    at = prev === undefined ? undefined : intOf(prev);
  }
  return out;
}

/** A lexer just after `num gen obj` of the object's definition. */
function objectAt(bytes: Uint8Array, all: Section[], ref: Ref): Lexer {
  for (const section of all) {
    const offset = section.entry(ref.num);
    if (offset === 'elsewhere') throw new Unsure();
    if (offset === undefined) continue;
    const lexer = new Lexer(bytes, offset);
    if (Number(lexer.word()) !== ref.num || Number(lexer.word()) !== ref.gen || lexer.word() !== 'obj') throw new Unsure();
    return lexer;
  }
  throw new Unsure();
}

function resolve(bytes: Uint8Array, all: Section[], ref: Ref): Value {
  return objectAt(bytes, all, ref).value();
}

/** The most an object stream is inflated to for this reader. */
const MAX_OBJECT_STREAM_BYTES = 64 << 20;

/**
 * A resolver that also reads objects packed in object streams (Flate or none, no predictor), each stream inflated
 * once: the newest section listing the object decides where it is.
 */
function packedResolver(bytes: Uint8Array, all: Section[]): (ref: Ref) => Value {
  const streams = new Map<number, { data: Buffer; offsets: Map<number, number> }>();
  const open = (num: number) => {
    let stream = streams.get(num);
    if (stream) return stream;
    const lexer = objectAt(bytes, all, { num, gen: 0 });
    const dict = lexer.value();
    if (!isDict(dict) || (dict.get('Type') as Name | undefined)?.name !== 'ObjStm' || dict.has('DecodeParms')) throw new Unsure();
    let data = streamBytes(bytes, lexer, dict);
    if (isFlate(dict)) data = inflateSync(data, { maxOutputLength: MAX_OBJECT_STREAM_BYTES });
    const count = intOf(dict.get('N'));
    const first = intOf(dict.get('First'));
    const header = new Lexer(data, 0);
    const offsets = new Map<number, number>();
    // By index: the n-th pair names the n-th object.
    for (let i = 0; i < count; i++) {
      header.word();
      offsets.set(i, first + intOf(Number(header.word())));
    }
    stream = { data, offsets };
    streams.set(num, stream);
    return stream;
  };
  return (ref) => {
    for (const section of all) {
      const offset = section.entry(ref.num);
      if (offset === undefined) continue;
      if (offset !== 'elsewhere') return resolve(bytes, all, ref);
      const place = section.packed?.(ref.num);
      if (!place || ref.gen !== 0) throw new Unsure();
      const stream = open(place.stream);
      const at = stream.offsets.get(place.index);
      if (at === undefined || at >= stream.data.length) throw new Unsure();
      return new Lexer(stream.data, at).value();
    }
    throw new Unsure();
  };
}

/**
 * The newest catalogue of a file, and a way to its other objects, those packed in object streams too: `deref` reads
 * a reference's object (any other value as it is). Throws `Unsure` where only pdfjs can tell (encryption, a filter or
 * a damaged part this reader does not read).
 */
export function clearCatalog(bytes: Uint8Array): { catalog: Map<string, Value>; deref: (value: Value | undefined) => Value | undefined } {
  const all = sections(bytes);
  const read = packedResolver(bytes, all);
  const deref = (value: Value | undefined): Value | undefined => (isRef(value) ? read(value) : value);
  const catalog = deref(all[0]!.trailer.get('Root'));
  if (!isDict(catalog)) throw new Unsure();
  return { catalog, deref };
}

/**
 * The data of the stream object `ref`, Flate-decoded (no predictor) or plain, at most `maxBytes`: a page's content,
 * say. Throws `Unsure` for another filter, a stream cut short, or one this reader cannot find in the clear.
 */
export function clearStreamData(bytes: Uint8Array, ref: Ref, maxBytes: number): Buffer {
  const all = sections(bytes);
  const lexer = objectAt(bytes, all, ref);
  const dict = lexer.value();
  if (!isDict(dict) || dict.has('DecodeParms')) throw new Unsure();
  // pdfTeX and others write the length as an object of its own, after the stream.
  const stated = dict.get('Length');
  const length = intOf(isRef(stated) ? resolve(bytes, all, stated) : stated);
  const data = streamBytes(bytes, lexer, new Map([...dict, ['Length', length]]));
  if (data.length < length) throw new Unsure();
  return isFlate(dict) ? inflateSync(data, { maxOutputLength: maxBytes }) : data.subarray(0, Math.min(data.length, maxBytes));
}

/** Page trees (and name trees) are followed this deep, and over this many nodes, at most. */
export const MAX_TREE_DEPTH = 64;
export const MAX_TREE_NODES = 100_000;

/** A page of the catalogue's page tree: its reference, its dictionary, and the entries it has or inherits. */
export interface PageLeaf {
  ref: Ref;
  node: Map<string, Value>;
  /** MediaBox, CropBox and Rotate, the page's own or its nearest parent's, as written (a reference not followed). */
  inherited: ReadonlyMap<string, Value>;
}

const INHERITABLE = ['MediaBox', 'CropBox', 'Rotate'] as const;

/**
 * The catalogue's pages in document order (the first `limit` of them). Throws `Unsure` where the tree is not one
 * this reads: a node that is no dictionary, a page met twice, a tree past the bounds above.
 */
export function pageLeaves(catalog: Map<string, Value>, deref: (value: Value | undefined) => Value | undefined, limit = Infinity): PageLeaf[] {
  const leaves: PageLeaf[] = [];
  const seen = new Set<string>();
  let nodes = 0;
  const visit = (ref: Value | undefined, depth: number, inherited: ReadonlyMap<string, Value>): void => {
    if (leaves.length >= limit) return;
    if (!isRef(ref) || depth > MAX_TREE_DEPTH || ++nodes > MAX_TREE_NODES) throw new Unsure();
    const node = deref(ref);
    if (!isDict(node)) throw new Unsure();
    const own = new Map(inherited);
    for (const key of INHERITABLE) {
      const value = node.get(key);
      if (value !== undefined) own.set(key, value);
    }
    const kids = deref(node.get('Kids'));
    const type = node.get('Type');
    if ((type as Name | undefined)?.name === 'Pages' || (type === undefined && Array.isArray(kids))) {
      if (!Array.isArray(kids)) throw new Unsure();
      for (const kid of kids) visit(kid, depth + 1, own);
      return;
    }
    const key = `${ref.num} ${ref.gen}`;
    if (seen.has(key)) throw new Unsure();
    seen.add(key);
    leaves.push({ ref, node, inherited: own });
  };
  visit(catalog.get('Pages'), 0, new Map());
  return leaves;
}

/** The most an XMP packet is inflated to for this look. */
const MAX_XMP_BYTES = 4 << 20;

/**
 * Whether the XMP packet at `ref` names a title or an author as pdfjs's metadata parser reads them (elements
 * `dc:title` and `dc:creator`, names lowercased): looked for in the stream's text, plain or Flate. A packet without
 * them (Word's: a creator and no title) cannot give pdfjs what the information dictionary lacks.
 */
function xmpNames(bytes: Uint8Array, all: Section[], ref: Value | undefined): { title: boolean; author: boolean } {
  const unknown = { title: true, author: true };
  if (!isRef(ref)) return unknown;
  try {
    const lexer = objectAt(bytes, all, ref);
    const dict = lexer.value();
    if (!isDict(dict)) return unknown;
    let data = streamBytes(bytes, lexer, dict);
    // A packet cut short by the end of the file may have lost the names looked for.
    if (data.length < intOf(dict.get('Length'))) return unknown;
    if (isFlate(dict)) {
      if (dict.has('DecodeParms')) return unknown;
      data = inflateSync(data, { maxOutputLength: MAX_XMP_BYTES });
    }
    const text = data.toString('latin1');
    return { title: /<dc:title[\s/>]/i.test(text), author: /<dc:creator[\s/>]/i.test(text) };
  } catch {
    return unknown;
  }
}

/** A direct text string entry; undefined where there is none, or where pdfjs would not take it as a string. */
function textEntry(dict: Map<string, Value>, key: string): string | undefined {
  const value = dict.get(key);
  if (isRef(value)) throw new Unsure();
  return typeof value === 'object' && value !== null && 'bytes' in value ? decodeTextString(value.bytes) : undefined;
}

/** Title, Author and Lang as pdfjs would read them, or undefined when only pdfjs can tell. */
export function readStatedInfo(bytes: Uint8Array): StatedInfo | undefined {
  try {
    const all = sections(bytes);
    const trailer = all[0]!.trailer;
    const rootRef = trailer.get('Root');
    if (!isRef(rootRef)) return undefined;
    const catalog = resolve(bytes, all, rootRef);
    if (!isDict(catalog)) return undefined;
    const infoRef = trailer.get('Info');
    const info = infoRef === undefined ? new Map<string, Value>() : isRef(infoRef) ? resolve(bytes, all, infoRef) : undefined;
    if (!isDict(info)) return undefined;
    const stated: StatedInfo = { xmp: catalog.has('Metadata'), outlines: catalog.has('Outlines') };
    if (stated.xmp) stated.xmpNames = xmpNames(bytes, all, catalog.get('Metadata'));
    const title = textEntry(info, 'Title');
    const author = textEntry(info, 'Author');
    const language = textEntry(catalog, 'Lang');
    if (title !== undefined) stated.title = title;
    if (author !== undefined) stated.author = author;
    if (language !== undefined) stated.language = language;
    return stated;
  } catch {
    // Unsure, or bytes that do not parse (a damaged cross-reference stream zlib refuses): pdfjs reads them.
    return undefined;
  }
}
