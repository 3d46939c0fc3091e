/**
 * Content sniffing shared by the converters: what a file really is, from its bytes, whatever its extension says
 * (a `.doc` that is an OOXML package, a `.xlsx` that is an encrypted OLE container...).
 *
 * Zip packages are told apart by the names in their central directory (and the stored `mimetype` entry of ODF and
 * EPUB), read directly from the bytes: nothing is decompressed. OLE compound files (legacy Office binaries and
 * encrypted OOXML) are recognised by their signature; `oleStreamNames` lists their directory when a converter needs
 * to know more (an `EncryptionInfo` stream means a password-protected Office document).
 */

export type SniffedFormat =
  | 'pdf'
  | 'zip-docx'
  | 'zip-xlsx'
  | 'zip-pptx'
  | 'zip-odf'
  | 'zip-epub'
  | 'zip-other'
  | 'ole'
  | 'html'
  | 'text'
  | 'unknown';

const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_LOCAL_HEADER = 0x04034b50;
const ZIP_CENTRAL_HEADER = 0x02014b50;
const ZIP_END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
/** A central directory larger than this is not read (a hostile file could claim millions of entries). */
const MAX_ZIP_ENTRIES = 100_000;

export function sniffFormat(bytes: Uint8Array): SniffedFormat {
  if (bytes.length === 0) return 'unknown';
  if (isPdf(bytes)) return 'pdf';
  if (startsWith(bytes, OLE_SIGNATURE)) return 'ole';
  if (isZip(bytes)) return classifyZip(bytes);
  if (looksLikeHtml(bytes)) return 'html';
  if (looksLikeText(bytes)) return 'text';
  return 'unknown';
}

/** True for a zip local-file header or an empty archive's end record at the start. */
export function isZip(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const signature = readU32(bytes, 0);
  return signature === ZIP_LOCAL_HEADER || signature === ZIP_END_OF_CENTRAL_DIRECTORY;
}

export function isOle(bytes: Uint8Array): boolean {
  return startsWith(bytes, OLE_SIGNATURE);
}

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
 * The entries of a zip archive from its central directory, or, when the end record is missing (a truncated file),
 * from the local headers found walking from the start. Null when the bytes are not a readable zip.
 */
export function zipEntries(bytes: Uint8Array): ZipEntryInfo[] | null {
  if (!isZip(bytes)) return null;
  return readCentralDirectory(bytes) ?? walkLocalHeaders(bytes);
}

/** Entry names of a zip archive (see zipEntries). */
export function zipEntryNames(bytes: Uint8Array): string[] | null {
  return zipEntries(bytes)?.map((entry) => entry.name) ?? null;
}

/** Names of the streams and storages in an OLE compound file's directory, or null when it cannot be read. */
export function oleStreamNames(bytes: Uint8Array): string[] | null {
  if (!isOle(bytes) || bytes.length < 512) return null;
  const sectorShift = readU16(bytes, 0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) return null;
  const sectorSize = 1 << sectorShift;
  const sectorOffset = (sector: number) => (sector + 1) * sectorSize;

  // The FAT sectors: the first 109 are listed in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i += 1) {
    const sector = readU32(bytes, 0x4c + i * 4);
    if (sector >= 0xfffffffa) break;
    fatSectors.push(sector);
  }
  let difatSector = readU32(bytes, 0x44);
  const perDifat = sectorSize / 4 - 1;
  for (let guard = 0; difatSector < 0xfffffffa && guard < 10_000; guard += 1) {
    const base = sectorOffset(difatSector);
    if (base + sectorSize > bytes.length) break;
    for (let i = 0; i < perDifat; i += 1) {
      const sector = readU32(bytes, base + i * 4);
      if (sector < 0xfffffffa) fatSectors.push(sector);
    }
    difatSector = readU32(bytes, base + perDifat * 4);
  }
  const nextSector = (sector: number): number => {
    const perFat = sectorSize / 4;
    const fatSector = fatSectors[Math.floor(sector / perFat)];
    if (fatSector === undefined) return 0xfffffffe;
    const at = sectorOffset(fatSector) + (sector % perFat) * 4;
    if (at + 4 > bytes.length) return 0xfffffffe;
    return readU32(bytes, at);
  };

  const names: string[] = [];
  let sector = readU32(bytes, 0x30);
  const seen = new Set<number>();
  while (sector < 0xfffffffa && !seen.has(sector) && seen.size < 100_000) {
    seen.add(sector);
    const base = sectorOffset(sector);
    if (base + sectorSize > bytes.length) break;
    for (let entry = 0; entry < sectorSize / 128; entry += 1) {
      const at = base + entry * 128;
      const nameLength = readU16(bytes, at + 0x40);
      const type = bytes[at + 0x42];
      if (type === 0 || nameLength < 2 || nameLength > 64) continue;
      let name = '';
      for (let i = 0; i < nameLength - 2; i += 2) name += String.fromCharCode(readU16(bytes, at + i));
      names.push(name);
    }
    sector = nextSector(sector);
  }
  return names;
}

/**
 * An OLE compound file holding an encrypted OOXML package (what Office writes for a password-protected .docx,
 * .xlsx or .pptx): it has `EncryptionInfo` and `EncryptedPackage` streams.
 */
export function isEncryptedOoxml(bytes: Uint8Array): boolean {
  const names = oleStreamNames(bytes);
  if (names === null) return false;
  return names.some((name) => name === 'EncryptionInfo' || name === 'EncryptedPackage');
}

function classifyZip(bytes: Uint8Array): SniffedFormat {
  const entries = zipEntries(bytes);
  if (entries === null || entries.length === 0) return 'zip-other';
  const mimetype = storedMimetype(bytes, entries);
  if (mimetype !== null) {
    if (mimetype === 'application/epub+zip') return 'zip-epub';
    if (mimetype.startsWith('application/vnd.oasis.opendocument.')) return 'zip-odf';
  }
  const names = new Set(entries.map((entry) => entry.name));
  if (names.has('word/document.xml')) return 'zip-docx';
  if (names.has('xl/workbook.xml') || names.has('xl/workbook.bin')) return 'zip-xlsx';
  if (names.has('ppt/presentation.xml')) return 'zip-pptx';
  if (names.has('META-INF/container.xml') && [...names].some((name) => name.endsWith('.opf'))) return 'zip-epub';
  if (names.has('content.xml') && names.has('META-INF/manifest.xml')) return 'zip-odf';
  if (names.has('[Content_Types].xml')) {
    // An OOXML package whose main part has an unusual name: go by the top-level folder.
    const all = [...names];
    if (all.some((name) => name.startsWith('word/'))) return 'zip-docx';
    if (all.some((name) => name.startsWith('xl/'))) return 'zip-xlsx';
    if (all.some((name) => name.startsWith('ppt/'))) return 'zip-pptx';
  }
  return 'zip-other';
}

/** The content of a stored (uncompressed) `mimetype` entry, as ODF and EPUB require, or null. */
function storedMimetype(bytes: Uint8Array, entries: ZipEntryInfo[]): string | null {
  const entry = entries.find((candidate) => candidate.name === 'mimetype');
  if (entry === undefined || entry.method !== 0 || entry.compressedSize > 200) return null;
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || readU32(bytes, at) !== ZIP_LOCAL_HEADER) return null;
  const start = at + 30 + readU16(bytes, at + 26) + readU16(bytes, at + 28);
  const end = start + entry.compressedSize;
  if (end > bytes.length) return null;
  return latin1(bytes, start, end).trim();
}

function readCentralDirectory(bytes: Uint8Array): ZipEntryInfo[] | null {
  const end = findEndOfCentralDirectory(bytes);
  if (end < 0) return null;
  let count = readU16(bytes, end + 10);
  let offset = readU32(bytes, end + 16);
  if (count === 0xffff || offset === 0xffffffff) {
    const locator = end - 20;
    if (locator >= 0 && readU32(bytes, locator) === ZIP64_END_LOCATOR) {
      const zip64End = Number(readU64(bytes, locator + 8));
      if (zip64End + 56 <= bytes.length && readU32(bytes, zip64End) === ZIP64_END_OF_CENTRAL_DIRECTORY) {
        count = Number(readU64(bytes, zip64End + 32));
        offset = Number(readU64(bytes, zip64End + 48));
      }
    }
  }
  if (count > MAX_ZIP_ENTRIES || offset >= bytes.length) return null;
  const entries: ZipEntryInfo[] = [];
  let at = offset;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > bytes.length || readU32(bytes, at) !== ZIP_CENTRAL_HEADER) return entries.length > 0 ? entries : null;
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
            uncompressedSize = Number(readU64(bytes, field));
            field += 8;
          }
          if (compressedSize === 0xffffffff) {
            compressedSize = Number(readU64(bytes, field));
            field += 8;
          }
          if (localHeaderOffset === 0xffffffff) localHeaderOffset = Number(readU64(bytes, field));
          break;
        }
        extra += 4 + size;
      }
    }
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
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
function walkLocalHeaders(bytes: Uint8Array): ZipEntryInfo[] | null {
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
  return entries.length > 0 ? entries : null;
}

function isPdf(bytes: Uint8Array): boolean {
  // The header may follow some junk; readers accept it within the first kilobyte.
  const head = latin1(bytes, 0, Math.min(bytes.length, 1024));
  return head.includes('%PDF-');
}

/** Decoded start of the file for the text checks: UTF-16 by BOM, otherwise Latin-1 (ASCII markup survives it). */
function textHead(bytes: Uint8Array, length: number): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return new TextDecoder('utf-16le').decode(bytes.subarray(2, Math.min(bytes.length, 2 + length * 2)));
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return new TextDecoder('utf-16be').decode(bytes.subarray(2, Math.min(bytes.length, 2 + length * 2)));
  }
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return latin1(bytes, start, Math.min(bytes.length, start + length));
}

const HTML_START =
  /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body|meta|title|base|link|table|div|p|pre|h[1-6]|br|script|style|section|article|main|ul|ol)[\s>/]/i;

function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = textHead(bytes, 4096);
  if (HTML_START.test(head)) return true;
  // An XML prolog or comments longer than the window, then markup: look for the root element.
  return /^\s*</.test(head) && /<html[\s>]/i.test(head) && /<(?:head|body)[\s>]/i.test(head);
}

function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return true;
  }
  const sample = bytes.subarray(0, Math.min(bytes.length, 8192));
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) control += 1;
  }
  return control <= sample.length * 0.02;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  if (bytes.length < prefix.length) return false;
  return prefix.every((byte, index) => bytes[index] === byte);
}

function readU16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

function readU32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 24)) >>> 0
  );
}

function readU64(bytes: Uint8Array, at: number): bigint {
  return BigInt(readU32(bytes, at)) | (BigInt(readU32(bytes, at + 4)) << 32n);
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i += 1) text += String.fromCharCode(bytes[i] ?? 0);
  return text;
}

function utf8(bytes: Uint8Array, start: number, end: number): string {
  return new TextDecoder('utf-8').decode(bytes.subarray(start, end));
}
