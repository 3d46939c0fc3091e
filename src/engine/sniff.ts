/**
 * The coarse container verdict some converters check their input with (`zip-docx`, `ole`, `html`...), derived from
 * the one sniffer in bytes/sniff.ts, and the zip / OLE directory readers re-exported from bytes/. New code reads
 * `sniffBytes` (the real type, with the cause for encrypted, empty and damaged files) instead.
 */
import { isOle } from './bytes/ole.js';
import { type DocumentType, sniffBytes } from './bytes/sniff.js';
import { isZip } from './bytes/zip.js';

export { isEncryptedOoxml, isOle, oleStreamNames } from './bytes/ole.js';
export { isZip, zipEntries, zipEntryNames, type ZipEntryInfo } from './bytes/zip.js';

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

const ZIP_FORMATS: Partial<Record<DocumentType, SniffedFormat>> = {
  docx: 'zip-docx',
  xlsx: 'zip-xlsx',
  xlsb: 'zip-xlsx',
  pptx: 'zip-pptx',
  odt: 'zip-odf',
  ods: 'zip-odf',
  odp: 'zip-odf',
  epub: 'zip-epub',
};

export function sniffFormat(bytes: Uint8Array): SniffedFormat {
  const real = sniffBytes(bytes);
  if (isOle(bytes)) return 'ole';
  if (isZip(bytes)) {
    const type = real.kind === 'document' || real.kind === 'encrypted' || real.kind === 'damaged' ? real.type : null;
    return (type === null ? undefined : ZIP_FORMATS[type]) ?? 'zip-other';
  }
  if (real.kind === 'document') {
    if (real.type === 'pdf' || real.type === 'html') return real.type;
    if (real.type === 'rtf' || real.type === 'text' || real.type === 'spreadsheet-xml') return 'text';
  }
  if (real.kind === 'other' && real.xml === true) return 'text';
  return 'unknown';
}
