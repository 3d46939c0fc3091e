/**
 * What a spreadsheet file really is, as the router's sniffer found it (bytes/sniff.ts), sorted into what SheetJS
 * is given. SheetJS reads almost anything (a PDF or random bytes come back as a one-sheet "CSV" workbook of
 * garbage), so the converter decides first, from the sniff result, without reading the bytes again:
 *
 * - `zip`: xlsx, xlsm, xlsb, ods: the package the sniffer opened, its directory within the zip limits
 *   (bytes/zip.ts); SheetJS inflates every entry itself, so the converter checks them all before it reads.
 * - `cfb`: an OLE compound file: BIFF5/BIFF8 .xls, or another Office binary SheetJS refuses with its cause.
 * - `biff`: a bare BIFF2-4 worksheet stream (Excel 2.x-4.x).
 * - `markup`: XML or HTML: SpreadsheetML 2003, flat ODS, an HTML table saved as .xls.
 * - `text`: delimited text saved with a spreadsheet extension (a common "export to Excel").
 * - `refused`: what is plain from the container alone (encrypted, empty, damaged, beyond the zip limits, or a zip
 *   package of another document, "a Word document (.docx)"), with its error.
 * - `other`, with what it looks like when that is known (a PDF, an image...).
 */
import { type Sniffed, TYPE_DESCRIPTIONS } from '../bytes/sniff.js';
import { refusal } from '../bytes/verdict.js';
import type { ZipArchive } from '../bytes/zip.js';
import { EngineError } from '../engine-error.js';

export type Container =
  | { kind: 'zip'; zip: ZipArchive }
  | { kind: 'cfb' | 'biff' | 'markup' | 'text' }
  | { kind: 'refused'; error: EngineError }
  | { kind: 'other'; looksLike?: string };

const CLAIM = 'a spreadsheet';

/** The container of a file that has bytes (a caller says what 0 bytes mean for it). */
export function workbookContainer(sniffed: Sniffed): Container {
  const { real } = sniffed;
  if (sniffed.cfb !== undefined && real.kind !== 'encrypted') return { kind: 'cfb' };
  switch (real.kind) {
    case 'encrypted':
      return { kind: 'refused', error: encrypted() };
    case 'empty':
    case 'damaged':
    case 'too-large':
      return { kind: 'refused', error: refusal(real, CLAIM) };
    case 'other':
      return real.xml === true ? { kind: 'markup' } : { kind: 'other', looksLike: real.looksLike };
    case 'document':
      break;
  }
  if (sniffed.zip !== undefined) {
    if (real.type === 'xlsx' || real.type === 'xlsb' || real.type === 'ods') return { kind: 'zip', zip: sniffed.zip };
    return { kind: 'refused', error: new EngineError('CORRUPT_DOCUMENT', `the file is not a spreadsheet: it is ${TYPE_DESCRIPTIONS[real.type]}`) };
  }
  if (real.type === 'xls') return { kind: 'biff' };
  if (real.type === 'html' || real.type === 'spreadsheet-xml') return { kind: 'markup' };
  if (real.type === 'text') return { kind: 'text' };
  return { kind: 'other', looksLike: TYPE_DESCRIPTIONS[real.type] };
}

export function encrypted(cause?: unknown): EngineError {
  return new EngineError(
    'ENCRYPTED_DOCUMENT',
    'the workbook is password-protected; remove the password and convert it again',
    cause === undefined ? undefined : { cause },
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
