/**
 * Zip archives read straight from the bytes: the central directory (entry names, methods, declared sizes) and,
 * for the sniffer, the first bytes of a small entry. Nothing is inflated whole; a hostile archive cannot make
 * these functions allocate more than the caller's cap.
 */
import { constants as zlibConstants, inflateRawSync } from 'node:zlib';
import { readU16, readU32, readU64, utf8 } from './binary.js';

const ZIP_LOCAL_HEADER = 0x04034b50;
const ZIP_CENTRAL_HEADER = 0x02014b50;
const ZIP_END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
/** A central directory larger than this is not read (a hostile file could claim millions of entries). */
const MAX_ZIP_ENTRIES = 100_000;
/** Compressed bytes inflated first when only a prefix of an entry is wanted (then four times more each time). */
const FIRST_INFLATE_BYTES = 1024;
/** The least output an attempt may reach before it is cut off (a small cap must not refuse ordinary ratios). */
const MIN_OUTPUT_LIMIT = 1024 * 1024;

export interface ZipEntryInfo {
  name: string;
  /** 0 = stored, 8 = deflate. */
  method: number;
  compressedSize: number;
  /** As declared by the archive (a hostile archive may lie; decompressors must still cap their output). */
  uncompressedSize: number;
  localHeaderOffset: number;
}

/**
 * What the central directory says. `problem` is set when it cannot be read whole: `truncated` when the end
 * record is missing (the file was cut short; `entries` are then those found walking the local headers),
 * `damaged` when the end record points at something that is not a directory.
 */
export interface ZipDirectory {
  entries: ZipEntryInfo[];
  problem?: 'truncated' | 'damaged';
}

/** True for a zip local-file header or an empty archive's end record at the start. */
export function isZip(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const signature = readU32(bytes, 0);
  return signature === ZIP_LOCAL_HEADER || signature === ZIP_END_OF_CENTRAL_DIRECTORY;
}

/** The directory of a zip archive (see ZipDirectory), or null when the bytes do not start like one. */
export function readZipDirectory(bytes: Uint8Array): ZipDirectory | null {
  if (!isZip(bytes)) return null;
  const end = findEndOfCentralDirectory(bytes);
  if (end < 0) return { entries: walkLocalHeaders(bytes), problem: 'truncated' };
  const directory = readCentralDirectory(bytes, end);
  // A directory that points nowhere: the local headers still tell what the archive held.
  if (directory.problem === 'damaged' && directory.entries.length === 0) directory.entries = walkLocalHeaders(bytes);
  return directory;
}

/**
 * The entries of a zip archive from its central directory, or, when the end record is missing (a truncated file),
 * from the local headers found walking from the start. Null when the bytes are not a readable zip.
 */
export function zipEntries(bytes: Uint8Array): ZipEntryInfo[] | null {
  const directory = readZipDirectory(bytes);
  if (directory === null || (directory.problem !== undefined && directory.entries.length === 0)) return null;
  return directory.entries;
}

/** Entry names of a zip archive (see zipEntries). */
export function zipEntryNames(bytes: Uint8Array): string[] | null {
  return zipEntries(bytes)?.map((entry) => entry.name) ?? null;
}

/**
 * Up to `maxBytes` of an entry's content (stored or deflated), or null when it cannot be read. Deflated data is
 * inflated from ever longer prefixes of the compressed bytes, each attempt's output capped, so a bomb costs no
 * more than a few times the cap; a stream damaged partway gives what precedes the damage.
 */
export function readEntryPrefix(bytes: Uint8Array, entry: ZipEntryInfo, maxBytes: number): Uint8Array | null {
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || readU32(bytes, at) !== ZIP_LOCAL_HEADER) return null;
  const start = at + 30 + readU16(bytes, at + 26) + readU16(bytes, at + 28);
  const data = bytes.subarray(start, Math.min(bytes.length, start + entry.compressedSize));
  if (entry.method === 0) return data.subarray(0, maxBytes);
  if (entry.method !== 8) return null;
  const maxOutputLength = Math.max(maxBytes, MIN_OUTPUT_LIMIT) * 4;
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

function readCentralDirectory(bytes: Uint8Array, end: number): ZipDirectory {
  let count = readU16(bytes, end + 10);
  let offset = readU32(bytes, end + 16);
  if (count === 0xffff || offset === 0xffffffff) {
    const locator = end - 20;
    if (locator >= 0 && readU32(bytes, locator) === ZIP64_END_LOCATOR) {
      const zip64End = readU64(bytes, locator + 8);
      if (zip64End + 56 <= bytes.length && readU32(bytes, zip64End) === ZIP64_END_OF_CENTRAL_DIRECTORY) {
        count = readU64(bytes, zip64End + 32);
        offset = readU64(bytes, zip64End + 48);
      }
    }
  }
  if (count === 0) return { entries: [] };
  if (count > MAX_ZIP_ENTRIES || offset >= bytes.length) return { entries: [], problem: 'damaged' };
  const entries: ZipEntryInfo[] = [];
  let at = offset;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > bytes.length || readU32(bytes, at) !== ZIP_CENTRAL_HEADER) return { entries, problem: 'damaged' };
    const method = readU16(bytes, at + 10);
    let compressedSize = readU32(bytes, at + 20);
    let uncompressedSize = readU32(bytes, at + 24);
    const nameLength = readU16(bytes, at + 28);
    const extraLength = readU16(bytes, at + 30);
    const commentLength = readU16(bytes, at + 32);
    let localHeaderOffset = readU32(bytes, at + 42);
    const name = utf8(bytes, at + 46, at + 46 + nameLength);
    // Zip64 sizes live in the extra field when the 32-bit ones are saturated.
    if (uncompressedSize === 0xffffffff || compressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      let extra = at + 46 + nameLength;
      const extraEnd = extra + extraLength;
      while (extra + 4 <= extraEnd) {
        const id = readU16(bytes, extra);
        const size = readU16(bytes, extra + 2);
        if (id === 0x0001) {
          let field = extra + 4;
          if (uncompressedSize === 0xffffffff) {
            uncompressedSize = readU64(bytes, field);
            field += 8;
          }
          if (compressedSize === 0xffffffff) {
            compressedSize = readU64(bytes, field);
            field += 8;
          }
          if (localHeaderOffset === 0xffffffff) localHeaderOffset = readU64(bytes, field);
          break;
        }
        extra += 4 + size;
      }
    }
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { entries };
}

function findEndOfCentralDirectory(bytes: Uint8Array): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at -= 1) {
    if (bytes[at] === 0x50 && bytes[at + 1] === 0x4b && readU32(bytes, at) === ZIP_END_OF_CENTRAL_DIRECTORY) {
      return at;
    }
  }
  return -1;
}

/** Local headers from the start, for archives without a readable central directory. */
function walkLocalHeaders(bytes: Uint8Array): ZipEntryInfo[] {
  const entries: ZipEntryInfo[] = [];
  let at = 0;
  while (at + 30 <= bytes.length && readU32(bytes, at) === ZIP_LOCAL_HEADER && entries.length < MAX_ZIP_ENTRIES) {
    const flags = readU16(bytes, at + 6);
    const method = readU16(bytes, at + 8);
    const compressedSize = readU32(bytes, at + 18);
    const uncompressedSize = readU32(bytes, at + 22);
    const nameLength = readU16(bytes, at + 26);
    const extraLength = readU16(bytes, at + 28);
    const name = utf8(bytes, at + 30, Math.min(bytes.length, at + 30 + nameLength));
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset: at });
    // With a data descriptor (flag bit 3) the sizes are unknown here: stop rather than guess.
    if ((flags & 0x08) !== 0 || compressedSize === 0xffffffff) break;
    at += 30 + nameLength + extraLength + compressedSize;
  }
  return entries;
}
