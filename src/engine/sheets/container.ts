/**
 * What a spreadsheet file really is (the engine's sniffer, bytes/sniff.ts, sorted into what SheetJS is given),
 * read from its bytes before SheetJS sees it. SheetJS reads almost anything
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
import { isOle } from '../bytes/ole.js';
import { sniffBytes, TYPE_DESCRIPTIONS } from '../bytes/sniff.js';
import { isZip } from '../bytes/zip.js';
import { MAX_ZIP_ENTRIES, MAX_ZIP_ENTRY_BYTES, MAX_ZIP_TOTAL_BYTES } from './limits.js';

export type ContainerKind = 'zip' | 'cfb' | 'biff' | 'markup' | 'text' | 'empty' | 'other';

export interface Sniffed {
  kind: ContainerKind;
  /** For `other`: what the bytes look like ("a PDF document"), when known. */
  looksLike?: string;
}

export function sniffContainer(bytes: Uint8Array): Sniffed {
  if (bytes.length === 0) return { kind: 'empty' };
  if (isZip(bytes)) return { kind: 'zip' };
  if (isOle(bytes)) return { kind: 'cfb' };
  const real = sniffBytes(bytes);
  if (real.kind === 'document') {
    if (real.type === 'xls') return { kind: 'biff' };
    if (real.type === 'html' || real.type === 'spreadsheet-xml') return { kind: 'markup' };
    if (real.type === 'text') return { kind: 'text' };
    return { kind: 'other', looksLike: TYPE_DESCRIPTIONS[real.type] };
  }
  if (real.kind === 'other') return real.xml === true ? { kind: 'markup' } : { kind: 'other', looksLike: real.looksLike };
  return { kind: 'other' };
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
