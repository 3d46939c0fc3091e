/**
 * What a spreadsheet file really is, read from its bytes before SheetJS sees it. SheetJS reads almost anything
 * (a PDF or random bytes come back as a one-sheet "CSV" workbook of garbage), so the converter decides first:
 *
 * - `zip`: xlsx, xlsm, xlsb, ods. The central directory is read (no entry is inflated) to refuse zip bombs by their
 *   declared sizes, to tell an encrypted ODS (META-INF/manifest.xml names encryption data) and to name what a
 *   zip that is no workbook holds (a Word document saved as .xlsx...).
 * - `cfb`: an OLE compound file: BIFF5/BIFF8 .xls, or an encrypted OOXML workbook.
 * - `biff`: a bare BIFF2-4 worksheet stream (Excel 2.x-4.x).
 * - `markup`: XML or HTML: SpreadsheetML 2003, flat ODS, an HTML table saved as .xls.
 * - `text`: delimited text saved with a spreadsheet extension (a common "export to Excel").
 * - `empty`, or `other` with what it looks like when that is known (a PDF, an image...).
 */
import { strFromU8, unzipSync } from 'fflate';
import { EngineError } from '../engine-error.js';
import { looksLikeText } from '../csv/decode-text.js';
import { MAX_ZIP_ENTRIES, MAX_ZIP_ENTRY_BYTES, MAX_ZIP_TOTAL_BYTES } from './limits.js';

export type ContainerKind = 'zip' | 'cfb' | 'biff' | 'markup' | 'text' | 'empty' | 'other';

export interface Sniffed {
  kind: ContainerKind;
  /** For `other`: what the bytes look like ("a PDF document"), when known. */
  looksLike?: string;
}

const MAGIC: { bytes: number[]; kind: ContainerKind; looksLike?: string }[] = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], kind: 'zip' },
  { bytes: [0x50, 0x4b, 0x05, 0x06], kind: 'zip' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], kind: 'cfb' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], kind: 'other', looksLike: 'a PDF document' },
  { bytes: [0x7b, 0x5c, 0x72, 0x74, 0x66], kind: 'other', looksLike: 'an RTF document' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], kind: 'other', looksLike: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], kind: 'other', looksLike: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], kind: 'other', looksLike: 'a GIF image' },
  { bytes: [0x1f, 0x8b], kind: 'other', looksLike: 'a gzip archive' },
];

export function sniffContainer(bytes: Uint8Array): Sniffed {
  if (bytes.length === 0) return { kind: 'empty' };
  for (const magic of MAGIC) {
    if (magic.bytes.every((byte, index) => bytes[index] === byte)) {
      return magic.looksLike ? { kind: magic.kind, looksLike: magic.looksLike } : { kind: magic.kind };
    }
  }
  // A bare BIFF stream starts with a BOF record: type 0x0009 / 0x0209 / 0x0409 / 0x0809 (little-endian) and a
  // length of 4, 6, 8 or 16 bytes (so a UTF-16 text starting with a tab is not taken for one).
  if (
    bytes[0] === 0x09 &&
    [0x00, 0x02, 0x04, 0x08].includes(bytes[1] ?? -1) &&
    [4, 6, 8, 16].includes(bytes[2] ?? -1) &&
    bytes[3] === 0x00
  ) {
    return { kind: 'biff' };
  }
  if (startsWithMarkup(bytes)) return { kind: 'markup' };
  if (looksLikeText(bytes)) return { kind: 'text' };
  return { kind: 'other' };
}

/** `<` as the first non-blank character, after an optional UTF-8 BOM (UTF-16 markup is rare enough to skip). */
function startsWithMarkup(bytes: Uint8Array): boolean {
  let index = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (index < bytes.length && index < 1024) {
    const byte = bytes[index];
    if (byte === 0x3c) return true;
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
    index += 1;
  }
  return false;
}

export interface ZipSummary {
  /** Entry names, in directory order. */
  names: string[];
  /** Sum of the declared uncompressed sizes. */
  totalBytes: number;
  /** True when the ODF manifest lists encryption data (a password-protected OpenDocument file). */
  odfEncrypted: boolean;
}

const ODF_MANIFEST = 'META-INF/manifest.xml';
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/**
 * Reads a zip's central directory (and only the small ODF manifest): refuses a container whose declared sizes
 * exceed the limits (DOCUMENT_TOO_COMPLEX) or whose directory cannot be read (CORRUPT_DOCUMENT).
 */
export function inspectZip(bytes: Uint8Array): ZipSummary {
  const names: string[] = [];
  let totalBytes = 0;
  let tooLarge: string | null = null;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter(file) {
        names.push(file.name);
        totalBytes += file.originalSize;
        if (tooLarge === null && file.originalSize > MAX_ZIP_ENTRY_BYTES) {
          tooLarge = `its part ${file.name} expands to ${megabytes(file.originalSize)}`;
        }
        return file.name === ODF_MANIFEST && file.originalSize <= MAX_MANIFEST_BYTES && tooLarge === null;
      },
    });
  } catch (error) {
    throw new EngineError(
      'CORRUPT_DOCUMENT',
      `the workbook is damaged or truncated: its zip container cannot be read (${messageOf(error)})`,
      { cause: error },
    );
  }
  if (tooLarge === null && names.length > MAX_ZIP_ENTRIES) {
    tooLarge = `it holds ${names.length.toLocaleString('en-US')} parts`;
  }
  if (tooLarge === null && totalBytes > MAX_ZIP_TOTAL_BYTES) tooLarge = `it expands to ${megabytes(totalBytes)}`;
  if (tooLarge !== null) {
    throw new EngineError(
      'DOCUMENT_TOO_COMPLEX',
      `the workbook is too large to convert: ${tooLarge} (limits: ${megabytes(MAX_ZIP_ENTRY_BYTES)} per part, ` +
        `${megabytes(MAX_ZIP_TOTAL_BYTES)} in all)`,
    );
  }
  const manifest = files[ODF_MANIFEST];
  const odfEncrypted = manifest !== undefined && /<manifest:encryption-data\b/.test(strFromU8(manifest));
  return { names, totalBytes, odfEncrypted };
}

/** What a zip that holds no workbook is, from its part names ("a Word document"), or null. */
export function describeNonWorkbookZip(names: readonly string[]): string | null {
  const has = (name: string) => names.includes(name);
  if (has('xl/workbook.xml') || has('xl/workbook.bin') || has('content.xml')) return null;
  if (has('word/document.xml')) return 'a Word document';
  if (has('ppt/presentation.xml')) return 'a PowerPoint presentation';
  if (has('META-INF/container.xml') && names.some((name) => name.endsWith('.opf'))) return 'an EPUB book';
  return 'a zip archive with no workbook in it';
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-US')} MiB`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
