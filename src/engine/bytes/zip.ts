/**
 * The engine's one zip reader, for every format that is a zip package (DOCX, XLSX/XLSB, PPTX, ODT/ODS/ODP, EPUB).
 * The central directory is read straight from the bytes; entries are inflated one by one, only when a converter
 * asks for them, each with its output capped, so a hostile archive costs at most what the limits below allow.
 *
 * The limits, one set for every format (`ZIP_LIMITS`). Crossing one is DOCUMENT_TOO_COMPLEX, "the file is too
 * large to convert: it is <what the file is> whose ...", whatever the format:
 * - 20,000 entries. Office and ODF packages hold tens to hundreds (the largest test fixture, 78); each entry costs
 *   a directory record and a name, and a hostile end record can claim billions. The package and spreadsheet
 *   readers this module replaced had this limit.
 * - 64 MiB inflated per entry. A part is decoded to a string and parsed whole: 64 MiB of XML already fills a good
 *   share of an engine thread's 1 GiB heap once parsed (a worksheet at the 1,000,000-cell sheet limit is 20 to
 *   50 MiB of XML). The Word, OpenDocument, EPUB and slide readers had this cap; the spreadsheet reader's 256 MiB
 *   was more than a thread can parse.
 * - 256 MiB inflated in all (each entry counted once, however often it is read). Those readers had this cap too;
 *   the spreadsheet reader allowed 512 MiB.
 * - An inflate ratio of at most 100 per entry, for entries that inflate to more than 1 MiB. Real XML compresses
 *   10 to 30 times (the test fixtures: at most 32; a worksheet of 200,000 styled cells: 11), deflate reaches 1,032 on
 *   repeated bytes: a large part far beyond 100 is a bomb. The ratio is Apache POI's long-standing rule for OOXML
 *   (`ZipSecureFile`, minimum ratio 0.01); its grace size is raised from 100 KiB to 1 MiB because small parts of
 *   repeated markup compress several hundred times (a content.xml of 20,000 identical style entries: 371), and
 *   what the grace lets through is bounded by the total anyway.
 * - One level of nesting: only the engine's sniffer opens an archive, and only on the uploaded bytes; an archive
 *   inside an archive (a workbook embedded in a deck, a .docx attached to an EPUB) is never opened.
 *
 * The directory's declared sizes are checked when the archive is opened (before anything is inflated), and every
 * inflation is capped again at the limits, so an entry whose directory record lies about its size is stopped as
 * soon as it inflates past them. Libraries that read the bytes themselves (SheetJS, mammoth) get them only after
 * `check` has inflated and counted every entry they will read: each entry's deflate stream must end inside its
 * compressed bytes and within the limits, and its local header must not declare more than the per-entry limit
 * (SheetJS allocates what the local header declares), so what they inflate is what was checked.
 */
import { constants as zlibConstants, inflateRawSync } from 'node:zlib';
import { zipSync, type Zippable } from 'fflate';
import { EngineError } from '../engine-error.js';
import { readU16, readU32, readU64, utf8 } from './binary.js';

export const ZIP_LIMITS = {
  entries: 20_000,
  entryBytes: 64 * 1024 * 1024,
  totalBytes: 256 * 1024 * 1024,
  ratio: 100,
  /** Entries inflating to at most this many bytes are not held to the ratio (small parts compress oddly). */
  ratioGraceBytes: 1024 * 1024,
} as const;

export const ZIP_LOCAL_HEADER = 0x04034b50;
export const ZIP_CENTRAL_HEADER = 0x02014b50;
export const ZIP_END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
export const END_RECORD_BYTES = 22;
export const LOCAL_HEADER_BYTES = 30;
export const CENTRAL_HEADER_BYTES = 46;
const ZIP64_EXTRA = 0x0001;
/** A 32-bit size or offset whose real value is in the Zip64 extra field. */
export const SATURATED = 0xffffffff;
/** Compressed bytes inflated first when only a prefix of an entry is wanted (then four times more each time). */
const FIRST_INFLATE_BYTES = 1024;
/** The least output a prefix attempt may reach before it is cut off (a small cap must not refuse ordinary ratios). */
const MIN_PREFIX_OUTPUT = 1024 * 1024;
export const STORED = 0;
export const DEFLATED = 8;

export interface ZipEntryInfo {
  name: string;
  /** 0 = stored, 8 = deflate. */
  method: number;
  /** General-purpose flags (bit 0: encrypted). */
  flags: number;
  compressedSize: number;
  /** As declared by the directory (a hostile archive may lie: inflation is capped anyway). */
  uncompressedSize: number;
  localHeaderOffset: number;
}

/**
 * What the central directory says. `problem` is set when it cannot be read whole: `truncated` when the end
 * record is missing (the file was cut short; `entries` are then those found walking the local headers),
 * `damaged` when the end record points at something that is not a directory. `tooMany`: the directory lists
 * more than `ZIP_LIMITS.entries` entries (only the first ones past the limit are read).
 */
export interface ZipDirectory {
  entries: ZipEntryInfo[];
  problem?: 'truncated' | 'damaged';
  tooMany?: boolean;
}

/** True for a zip local-file header or an empty archive's end record at the start. */
function isZip(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const signature = readU32(bytes, 0);
  return signature === ZIP_LOCAL_HEADER || signature === ZIP_END_OF_CENTRAL_DIRECTORY;
}

/** The directory of a zip archive (see ZipDirectory), or null when the bytes do not start like one. */
export function readZipDirectory(bytes: Uint8Array): ZipDirectory | null {
  if (!isZip(bytes)) return null;
  const end = findEndOfCentralDirectory(bytes);
  if (end === 'missing') return withoutDirectory(bytes, 'truncated');
  if (end === 'ambiguous') return withoutDirectory(bytes, 'damaged');
  const directory = readCentralDirectory(bytes, end);
  // A directory that points nowhere: the local headers still tell what the archive held.
  if (directory.problem === 'damaged' && directory.entries.length === 0) return withoutDirectory(bytes, 'damaged');
  return directory;
}

function withoutDirectory(bytes: Uint8Array, problem: 'truncated' | 'damaged'): ZipDirectory {
  const entries = walkLocalHeaders(bytes);
  return { entries, problem, ...(entries.length > ZIP_LIMITS.entries ? { tooMany: true } : {}) };
}

/**
 * Why a directory crosses the limits, worded to follow "it is <what>" ("whose part content.xml inflates to
 * 100 MiB (limit 64 MiB per part)"), or null when it does not. Declared sizes only: nothing is inflated.
 */
export function zipLimitBreach(directory: ZipDirectory): string | null {
  const { entries } = directory;
  if (directory.tooMany === true || entries.length > ZIP_LIMITS.entries) {
    return `whose zip package has more than ${count(ZIP_LIMITS.entries)} parts`;
  }
  const total = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (total > ZIP_LIMITS.totalBytes) return totalBreach(mebibytes(total));
  for (const entry of entries) {
    if (entry.uncompressedSize > ZIP_LIMITS.entryBytes) return entryBreach(entry.name, mebibytes(entry.uncompressedSize));
  }
  for (const entry of entries) {
    if (entry.uncompressedSize > ratioCap(entry)) {
      const ratio = Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize));
      return ratioBreach(entry.name, `${mebibytes(entry.uncompressedSize)}, ${count(ratio)} times its compressed size`);
    }
  }
  return null;
}

/** DOCUMENT_TOO_COMPLEX for a package crossing the limits: `what` says what it is and how ("an EPUB book whose..."). */
export function tooLarge(what: string): EngineError {
  return new EngineError('DOCUMENT_TOO_COMPLEX', `the file is too large to convert: it is ${what}`);
}

/**
 * A zip package opened for reading by name. Entries are inflated when asked for, never all at once; every
 * inflation is capped (see the module comment), and the inflated bytes of each entry count once against the
 * package's total.
 */
export class ZipArchive {
  /** Entry names in directory order (folders included, as the archive lists them). */
  readonly names: readonly string[];
  /** What the package is, for messages: "a Word document (.docx)". */
  readonly what: string;
  readonly #bytes: Uint8Array;
  /** Every directory record, a name listed twice included (libraries that read the bytes read both). */
  readonly #records: readonly ZipEntryInfo[];
  readonly #entries = new Map<string, ZipEntryInfo>();
  /** Records inflated so far: each counts once against the total, however often it is read. */
  readonly #counted = new Set<ZipEntryInfo>();
  #inflated = 0;

  /** `what` names the package in errors: "a Word document (.docx)". */
  constructor(bytes: Uint8Array, entries: readonly ZipEntryInfo[], what: string) {
    this.#bytes = bytes;
    this.what = what;
    this.#records = [...entries];
    this.names = entries.map((entry) => entry.name);
    // As other readers do, a name listed twice is its last entry.
    for (const entry of entries) this.#entries.set(entry.name, entry);
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** Declared uncompressed size of an entry, or undefined when there is no such entry. */
  sizeOf(name: string): number | undefined {
    return this.#entries.get(name)?.uncompressedSize;
  }

  /** The named entries that exist, inflated. */
  read(names: Iterable<string>): Map<string, Uint8Array> {
    const parts = new Map<string, Uint8Array>();
    for (const name of names) {
      const entry = this.#entries.get(name);
      if (entry !== undefined && !parts.has(name)) parts.set(name, this.#inflate(entry));
    }
    return parts;
  }

  /** One entry decoded as UTF-8, or undefined when it is absent. */
  readText(name: string): string | undefined {
    const data = this.read([name]).get(name);
    return data === undefined ? undefined : UTF8.decode(data);
  }

  /** The named entries that exist, decoded as UTF-8. */
  readTexts(names: Iterable<string>): Map<string, string> {
    const texts = new Map<string, string>();
    for (const [name, data] of this.read(names)) texts.set(name, UTF8.decode(data));
    return texts;
  }

  /**
   * Inflates (and drops) every entry `wanted` accepts, so that a library reading the bytes itself meets nothing
   * the limits would refuse: each deflate stream must end inside its compressed bytes, within the limits, and
   * the local header must not declare more than the per-entry limit.
   *
   * It is also the guard SheetJS needs (docs/limits-and-retries.md, "Damaged documents"): its own inflater does
   * not stop at the end of its input (the rest of the file; bits past it read as zeros: endless empty stored
   * blocks, or an endless run of one symbol) and ends a block only on the end-of-block symbol, which a damaged
   * block's code (the reserved type 3 read as dynamic, in both workbooks that hung) may not hold, so a deflate
   * stream that is cut short or damaged can keep it busy for ever. zlib refuses both here first. SheetJS
   * inflates every record of the directory (a name listed twice, twice) with the compression method of its local
   * header, so every record is checked, and a local header whose method differs from the directory's is refused.
   * `inspect` is given each record's bytes as they are checked (package-xml.ts checks the XML parts there, in the
   * same pass).
   */
  check(wanted: (name: string) => boolean = () => true, inspect?: (name: string, data: Uint8Array) => void): void {
    for (const entry of this.#records) {
      if (!wanted(entry.name)) continue;
      const local = localHeader(this.#bytes, entry);
      if (local !== null && local.uncompressedSize > ZIP_LIMITS.entryBytes) throw tooLarge(`${this.what} ${entryBreach(entry.name, mebibytes(local.uncompressedSize))}`);
      if (local !== null && local.method !== entry.method) {
        throw this.#damaged(entry, `its local header gives compression method ${local.method}, the directory ${entry.method}`);
      }
      const data = this.#inflate(entry);
      inspect?.(entry.name, data);
    }
  }

  /**
   * The package with some entries' text replaced (the others copied as they inflate), as new zip bytes; a
   * replacement naming no entry is added.
   */
  rewrite(replacements: ReadonlyMap<string, string>): Uint8Array {
    const files: Zippable = {};
    for (const entry of this.#entries.values()) {
      const replacement = replacements.get(entry.name);
      files[entry.name] = replacement === undefined ? this.#inflate(entry) : new TextEncoder().encode(replacement);
    }
    for (const [name, text] of replacements) if (!this.#entries.has(name)) files[name] = new TextEncoder().encode(text);
    return zipSync(files, { level: 1 });
  }

  #inflate(entry: ZipEntryInfo): Uint8Array {
    const data = entryData(this.#bytes, entry);
    if (typeof data === 'string') throw this.#damaged(entry, data);
    if ((entry.flags & 0x01) !== 0) {
      throw new EngineError(
        'ENCRYPTED_DOCUMENT',
        `the file is password-protected: it is ${this.what} whose part ${entry.name} is encrypted; remove the password and convert it again`,
      );
    }
    const counted = this.#counted.has(entry);
    const cap = inflateCap(entry, counted ? ZIP_LIMITS.totalBytes : ZIP_LIMITS.totalBytes - this.#inflated);
    let out: Uint8Array;
    if (entry.method === STORED) {
      out = data;
    } else if (entry.method === DEFLATED) {
      try {
        out = inflateRawSync(data, { maxOutputLength: Math.max(1, cap.bytes), chunkSize: chunkSizeFor(entry) });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(`${this.what} ${capBreach(entry, cap)}`);
        throw this.#damaged(entry, messageOf(error), error);
      }
    } else {
      throw this.#damaged(entry, `it uses compression method ${entry.method}, which is not supported`);
    }
    if (out.length > cap.bytes) throw tooLarge(`${this.what} ${capBreach(entry, cap)}`);
    if (!counted) {
      this.#counted.add(entry);
      this.#inflated += out.length;
    }
    return out;
  }

  #damaged(entry: ZipEntryInfo, reason: string, cause?: unknown): EngineError {
    return new EngineError(
      'CORRUPT_DOCUMENT',
      `the file is damaged or truncated: it is ${this.what} whose part ${entry.name} cannot be inflated (${reason})`,
      cause === undefined ? undefined : { cause },
    );
  }
}

/**
 * Up to `maxBytes` of an entry's content (stored or deflated), or null when it cannot be read: what the sniffer
 * reads of small entries (mimetype, manifest, content types). Deflated data is inflated from ever longer prefixes
 * of the compressed bytes, each attempt's output capped, so a bomb costs no more than a few times the cap; a
 * stream damaged partway gives what precedes the damage.
 */
export function readEntryPrefix(bytes: Uint8Array, entry: ZipEntryInfo, maxBytes: number): Uint8Array | null {
  const data = entryData(bytes, entry, true);
  if (typeof data === 'string') return null;
  if (entry.method === STORED) return data.subarray(0, maxBytes);
  if (entry.method !== DEFLATED) return null;
  const maxOutputLength = Math.max(maxBytes, MIN_PREFIX_OUTPUT) * 4;
  let best: Uint8Array | null = null;
  for (let length = Math.min(data.length, FIRST_INFLATE_BYTES); ; length = Math.min(data.length, length * 4)) {
    let out: Buffer;
    try {
      // SYNC_FLUSH: a prefix of the stream is not an error, it inflates to what it holds.
      out = inflateRawSync(data.subarray(0, length), { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength });
    } catch {
      // Too large an expansion for this prefix (a bomb), or damaged data: keep what the shorter prefix gave.
      return best;
    }
    best = out.subarray(0, maxBytes);
    if (out.length >= maxBytes || length >= data.length) return best;
  }
}

/**
 * A path inside a package from a reference in one of its parts: relative to `folder` (ending in `/`, or '' for
 * the root), or absolute from the root with a leading `/`; `.` and `..` segments resolved.
 */
export function resolveEntryPath(folder: string, reference: string): string {
  const segments = (reference.startsWith('/') ? reference.slice(1) : folder + reference).split('/');
  const resolved: string[] = [];
  for (const segment of segments) {
    if (segment === '..') resolved.pop();
    else if (segment !== '.' && segment !== '') resolved.push(segment);
  }
  return resolved.join('/');
}

const UTF8 = new TextDecoder('utf-8');

/** The most an entry may inflate to by the ratio rule. */
function ratioCap(entry: ZipEntryInfo): number {
  return Math.max(ZIP_LIMITS.ratioGraceBytes, entry.compressedSize * ZIP_LIMITS.ratio);
}

interface InflateCap {
  bytes: number;
  /** The limit that sets it. */
  rule: 'entry' | 'ratio' | 'total';
}

/** The most an entry may inflate to now: the per-entry limit, its ratio limit, or what is left of the total. */
function inflateCap(entry: ZipEntryInfo, left: number): InflateCap {
  const caps: InflateCap[] = [
    { bytes: ZIP_LIMITS.entryBytes, rule: 'entry' },
    { bytes: ratioCap(entry), rule: 'ratio' },
    { bytes: Math.max(0, left), rule: 'total' },
  ];
  return caps.reduce((least, cap) => (cap.bytes < least.bytes ? cap : least));
}

function capBreach(entry: ZipEntryInfo, cap: InflateCap): string {
  switch (cap.rule) {
    case 'entry':
      return entryBreach(entry.name, `more than ${mebibytes(cap.bytes)}`);
    case 'ratio':
      return ratioBreach(entry.name, `more than ${count(ZIP_LIMITS.ratio)} times its compressed size`);
    case 'total':
      return totalBreach(`more than ${mebibytes(ZIP_LIMITS.totalBytes)}`);
  }
}

function entryBreach(name: string, size: string): string {
  return `whose part ${name} inflates to ${size} (limit ${mebibytes(ZIP_LIMITS.entryBytes)} per part)`;
}

function totalBreach(size: string): string {
  return `whose parts inflate to ${size} in all (limit ${mebibytes(ZIP_LIMITS.totalBytes)})`;
}

function ratioBreach(name: string, size: string): string {
  return `whose part ${name} inflates to ${size} (limit ${ZIP_LIMITS.ratio} times for a part over ${mebibytes(ZIP_LIMITS.ratioGraceBytes)})`;
}

/** Output chunks of zlib: larger for large entries (fewer copies), small for small ones. */
function chunkSizeFor(entry: ZipEntryInfo): number {
  return Math.min(4 * 1024 * 1024, Math.max(64 * 1024, entry.uncompressedSize + 1));
}

/**
 * The compressed bytes of an entry, or what is wrong with it. `clip`: data running past the end of the file is
 * cut there (a prefix is all the sniffer wants) rather than refused.
 */
function entryData(bytes: Uint8Array, entry: ZipEntryInfo, clip = false): Uint8Array | string {
  const at = entry.localHeaderOffset;
  if (at + LOCAL_HEADER_BYTES > bytes.length || readU32(bytes, at) !== ZIP_LOCAL_HEADER) return 'its local header is missing';
  const start = at + LOCAL_HEADER_BYTES + readU16(bytes, at + 26) + readU16(bytes, at + 28);
  if (start + entry.compressedSize > bytes.length && !clip) return 'its data runs past the end of the file';
  return bytes.subarray(start, Math.min(bytes.length, start + entry.compressedSize));
}

/** What an entry's local header declares (sizes 0 with a data descriptor), or null without a header. */
function localHeader(bytes: Uint8Array, entry: ZipEntryInfo): ZipEntryInfo | null {
  const at = entry.localHeaderOffset;
  if (at + LOCAL_HEADER_BYTES > bytes.length || readU32(bytes, at) !== ZIP_LOCAL_HEADER) return null;
  return readHeader(bytes, at, 'local').entry;
}

function readCentralDirectory(bytes: Uint8Array, end: number): ZipDirectory {
  let declared = readU16(bytes, end + 10);
  let offset = readU32(bytes, end + 16);
  if (declared === 0xffff || offset === SATURATED) {
    const locator = end - 20;
    if (locator >= 0 && readU32(bytes, locator) === ZIP64_END_LOCATOR) {
      const zip64End = readU64(bytes, locator + 8);
      if (zip64End + 56 <= bytes.length && readU32(bytes, zip64End) === ZIP64_END_OF_CENTRAL_DIRECTORY) {
        declared = readU64(bytes, zip64End + 32);
        offset = readU64(bytes, zip64End + 48);
      }
    }
  }
  if (declared === 0) return { entries: [] };
  if (offset >= bytes.length) return { entries: [], problem: 'damaged' };
  // A hostile end record can claim billions of entries: read one past the limit, enough to refuse the package.
  const count = Math.min(declared, ZIP_LIMITS.entries + 1);
  const entries: ZipEntryInfo[] = [];
  let at = offset;
  for (let i = 0; i < count; i += 1) {
    if (at + CENTRAL_HEADER_BYTES > bytes.length || readU32(bytes, at) !== ZIP_CENTRAL_HEADER) return { entries, problem: 'damaged' };
    const header = readHeader(bytes, at, 'central');
    entries.push(header.entry);
    at = header.next;
  }
  return declared > ZIP_LIMITS.entries ? { entries, tooMany: true } : { entries };
}

/**
 * The end record: the last one in the file, as every zip reader looks for it (SheetJS and JSZip scan back from
 * the very end). `ambiguous` when that last signature has no room for a whole record after it (the real record
 * hides a second one in its comment): readers would not agree on the directory, so none is trusted.
 */
function findEndOfCentralDirectory(bytes: Uint8Array): number | 'missing' | 'ambiguous' {
  const lowest = Math.max(0, bytes.length - END_RECORD_BYTES - 0xffff);
  for (let at = bytes.length - 4; at >= lowest; at -= 1) {
    if (bytes[at] === 0x50 && bytes[at + 1] === 0x4b && readU32(bytes, at) === ZIP_END_OF_CENTRAL_DIRECTORY) {
      return at + END_RECORD_BYTES <= bytes.length ? at : 'ambiguous';
    }
  }
  return 'missing';
}

/** Local headers from the start, for archives without a readable central directory. */
function walkLocalHeaders(bytes: Uint8Array): ZipEntryInfo[] {
  const entries: ZipEntryInfo[] = [];
  let at = 0;
  while (at + LOCAL_HEADER_BYTES <= bytes.length && readU32(bytes, at) === ZIP_LOCAL_HEADER && entries.length <= ZIP_LIMITS.entries) {
    const { entry, next } = readHeader(bytes, at, 'local');
    entries.push(entry);
    // With a data descriptor (flag bit 3) the sizes are unknown here: stop rather than guess.
    if ((entry.flags & 0x08) !== 0 || entry.compressedSize === SATURATED) break;
    at = next + entry.compressedSize;
  }
  return entries;
}

/**
 * A local or central file header: the entry it describes (Zip64 sizes resolved) and where the next thing starts
 * (the data after a local header, the next record after a central one). Both kinds share the fields from
 * "version needed" on, two bytes further into a central header (which starts with "version made by").
 */
function readHeader(bytes: Uint8Array, at: number, kind: 'local' | 'central'): { entry: ZipEntryInfo; next: number } {
  const shared = at + (kind === 'local' ? 4 : 6);
  const nameLength = readU16(bytes, shared + 22);
  const extraLength = readU16(bytes, shared + 24);
  const nameStart = at + (kind === 'local' ? LOCAL_HEADER_BYTES : CENTRAL_HEADER_BYTES);
  const entry: ZipEntryInfo = {
    name: utf8(bytes, nameStart, Math.min(bytes.length, nameStart + nameLength)),
    method: readU16(bytes, shared + 4),
    flags: readU16(bytes, shared + 2),
    compressedSize: readU32(bytes, shared + 14),
    uncompressedSize: readU32(bytes, shared + 18),
    localHeaderOffset: kind === 'local' ? at : readU32(bytes, at + 42),
  };
  resolveZip64(bytes, nameStart + nameLength, extraLength, entry);
  const commentLength = kind === 'local' ? 0 : readU16(bytes, at + 32);
  return { entry, next: nameStart + nameLength + extraLength + commentLength };
}

/** Zip64 values live in the extra field, in this order, for the 32-bit fields that are saturated. */
function resolveZip64(bytes: Uint8Array, extraStart: number, extraLength: number, entry: ZipEntryInfo): void {
  if (entry.uncompressedSize !== SATURATED && entry.compressedSize !== SATURATED && entry.localHeaderOffset !== SATURATED) return;
  for (let extra = extraStart; extra + 4 <= extraStart + extraLength; extra += 4 + readU16(bytes, extra + 2)) {
    if (readU16(bytes, extra) !== ZIP64_EXTRA) continue;
    let field = extra + 4;
    if (entry.uncompressedSize === SATURATED) {
      entry.uncompressedSize = readU64(bytes, field);
      field += 8;
    }
    if (entry.compressedSize === SATURATED) {
      entry.compressedSize = readU64(bytes, field);
      field += 8;
    }
    if (entry.localHeaderOffset === SATURATED) entry.localHeaderOffset = readU64(bytes, field);
    return;
  }
}

function mebibytes(bytes: number): string {
  return `${count(Math.max(1, Math.round(bytes / (1024 * 1024))))} MiB`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
