/**
 * Which converter gets a file: the one for what its bytes are (bytes/sniff.ts), whatever its name says. The file is
 * sniffed here, once; the verdict and the container opened to reach it go to the converter with the route. The
 * extension must still be one the contract lists; a name that lies about a document the engine reads converts by
 * the real type with a warning naming both ("report.doc is an RTF document; converted as RTF."). What the
 * container alone shows to be wrong is refused here, before any converter loads (bytes/verdict.ts): no bytes or
 * no entries (EMPTY_DOCUMENT), an encrypted OOXML or ODF package (ENCRYPTED_DOCUMENT), a zip whose directory is
 * damaged or a damaged OLE file (CORRUPT_DOCUMENT), a package crossing the zip limits (DOCUMENT_TOO_COMPLEX), and a
 * file that is no document at all, with what it looks like (CORRUPT_DOCUMENT). A zip cut short is converted from
 * the parts before the cut (bytes/zip-repair.ts): the route then carries the repaired bytes and a warning.
 *
 * Text under another format's name, one rule: it is a table only when it reads as one. Text that one delimiter
 * splits consistently into columns is converted as CSV (an .xls exported as CSV is common); any other text (prose
 * named .odt, a list of lines) is converted as plain text, paragraph by paragraph; either way with the warning.
 * A `.csv` is always CSV, and text named as a web page is HTML.
 *
 * Error messages do not repeat the file name: every caller puts it in front ("report.pdf: the file is...").
 */
import { CONTENT_TYPE_BY_EXTENSION, extensionOf, isSupportedExtension, SUPPORTED_EXTENSIONS, type SupportedExtension } from '../contract/extensions.js';
import { type DocumentType, sniff, type Sniffed, TYPE_DESCRIPTIONS } from './bytes/sniff.js';
import { textHead } from './bytes/text-detect.js';
import { refusal } from './bytes/verdict.js';
import { isDelimitedText } from './csv/csv-parser.js';
import { EngineError } from './engine-error.js';

export type ConverterName = 'pdf' | 'html' | 'docx' | 'sheet' | 'csv' | 'text' | 'pptx' | 'odp' | 'odt' | 'epub' | 'rtf' | 'doc' | 'ppt';

export interface Route {
  converter: ConverterName;
  /** The extension the converter is told: the file's own, or the real type's when the name lies. */
  extension: SupportedExtension;
  /** What the bytes are. */
  realType: DocumentType;
  /** The content type of what is converted (`metadata.contentType`). */
  contentType: string;
  /** Set when the name lies about the content, or when the file was repaired to be read. */
  warning?: string;
  /** The sniff result, for the converter. */
  sniffed: Sniffed;
  /** The bytes to convert: the file's own, or the package repaired (`sniffed.repaired`). */
  bytes: Uint8Array;
}

const CONVERTERS: Record<DocumentType, ConverterName> = {
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'sheet',
  xlsb: 'sheet',
  pptx: 'pptx',
  odt: 'odt',
  ods: 'sheet',
  odp: 'odp',
  epub: 'epub',
  doc: 'doc',
  xls: 'sheet',
  ppt: 'ppt',
  rtf: 'rtf',
  html: 'html',
  'spreadsheet-xml': 'sheet',
  text: 'csv',
};

/** The extensions that tell the truth about each type; the first is the one a liar is converted under. */
const HONEST_EXTENSIONS: Record<DocumentType, readonly SupportedExtension[]> = {
  pdf: ['.pdf'],
  docx: ['.docx', '.docm'],
  xlsx: ['.xlsx', '.xlsm', '.xlsb'],
  xlsb: ['.xlsb', '.xlsx', '.xlsm'],
  pptx: ['.pptx', '.pptm'],
  odt: ['.odt'],
  ods: ['.ods'],
  odp: ['.odp'],
  epub: ['.epub'],
  doc: ['.doc'],
  xls: ['.xls'],
  ppt: ['.ppt'],
  rtf: ['.rtf'],
  html: ['.html', '.htm', '.xhtml'],
  // Excel's "XML Spreadsheet 2003" is commonly saved under .xls, and Excel opens it so.
  'spreadsheet-xml': ['.xls', '.ods'],
  text: ['.csv'],
};

/** "converted as ..." in a warning. */
const CONVERTED_AS: Record<DocumentType, string> = {
  pdf: 'PDF',
  docx: 'DOCX',
  xlsx: 'XLSX',
  xlsb: 'XLSB',
  pptx: 'PPTX',
  odt: 'ODT',
  ods: 'ODS',
  odp: 'ODP',
  epub: 'EPUB',
  doc: 'a Word 97-2003 document',
  xls: 'an Excel 97-2003 workbook',
  ppt: 'a PowerPoint 97-2003 presentation',
  rtf: 'RTF',
  html: 'HTML',
  'spreadsheet-xml': 'an XML spreadsheet',
  text: 'CSV',
};

/** What an extension claims, for "the file is not a PDF document". */
const CLAIMS: Record<SupportedExtension, string> = {
  '.pdf': 'a PDF document',
  '.html': 'an HTML page',
  '.htm': 'an HTML page',
  '.xhtml': 'an XHTML page',
  '.docx': 'a Word document',
  '.docm': 'a Word document',
  '.doc': 'a Word document',
  '.odt': 'an OpenDocument text document',
  '.ods': 'an OpenDocument spreadsheet',
  '.odp': 'an OpenDocument presentation',
  '.rtf': 'an RTF document',
  '.xlsx': 'an Excel workbook',
  '.xlsm': 'an Excel workbook',
  '.xlsb': 'an Excel workbook',
  '.xls': 'an Excel workbook',
  '.pptx': 'a PowerPoint presentation',
  '.pptm': 'a PowerPoint presentation',
  '.ppt': 'a PowerPoint presentation',
  '.epub': 'an EPUB book',
  '.csv': 'a CSV file',
};

const HTML_EXTENSIONS: readonly string[] = HONEST_EXTENSIONS.html;

/** The converter a file's name says it needs (its bytes decide in the end: routeDocument); undefined for an unsupported one. */
export function converterNamedBy(fileName: string): ConverterName | undefined {
  const extension = extensionOf(fileName);
  if (!isSupportedExtension(extension)) return undefined;
  const type = (Object.keys(HONEST_EXTENSIONS) as DocumentType[]).find((candidate) => HONEST_EXTENSIONS[candidate].includes(extension));
  return type === undefined ? undefined : CONVERTERS[type];
}

/** Characters of a text file looked at to tell a table from prose. */
const TABLE_SAMPLE_CHARS = 64 * 1024;

export function routeDocument(fileName: string, bytes: Uint8Array): Route {
  const route = routeBySniff(fileName, bytes);
  const repaired = route.sniffed.repaired;
  if (!repaired) return { ...route, bytes };
  return { ...route, bytes: repaired.bytes, warning: route.warning === undefined ? repaired.warning : `${route.warning} ${repaired.warning}` };
}

function routeBySniff(fileName: string, bytes: Uint8Array): Omit<Route, 'bytes'> {
  const extension = extensionOf(fileName);
  if (!isSupportedExtension(extension)) {
    throw new EngineError(
      'UNSUPPORTED_FILE',
      `extension "${extension || '(none)'}" is not supported; supported: ${SUPPORTED_EXTENSIONS.join(' ')}`,
    );
  }
  if (bytes.byteLength === 0) throw new EngineError('EMPTY_DOCUMENT', 'the file is empty (0 bytes)');
  const sniffed = sniff(bytes);
  const real = sniffed.real;
  if (real.kind !== 'document') {
    // Markup a browser would render (an XHTML fragment, a page starting with text) is a web page by its name.
    if (HTML_EXTENSIONS.includes(extension) && real.kind === 'other' && real.xml === true) {
      return { converter: 'html', extension, realType: 'html', contentType: CONTENT_TYPE_BY_EXTENSION[extension], sniffed };
    }
    throw refusal(real, CLAIMS[extension]);
  }
  const type = real.type === 'text' && HTML_EXTENSIONS.includes(extension) ? 'html' : real.type;
  const honest = HONEST_EXTENSIONS[type];
  if (honest.includes(extension)) return { converter: CONVERTERS[type], extension, realType: type, contentType: CONTENT_TYPE_BY_EXTENSION[extension], sniffed };
  if (type === 'text' && !isDelimitedText(textHead(bytes, TABLE_SAMPLE_CHARS))) {
    return {
      converter: 'text',
      extension,
      realType: type,
      contentType: 'text/plain',
      warning: `${baseName(fileName)} is ${TYPE_DESCRIPTIONS[type]}; converted as plain text.`,
      sniffed,
    };
  }
  const converted = honest[0] ?? extension;
  return {
    converter: CONVERTERS[type],
    extension: converted,
    realType: type,
    contentType: CONTENT_TYPE_BY_EXTENSION[converted],
    warning: `${baseName(fileName)} is ${TYPE_DESCRIPTIONS[type]}; converted as ${CONVERTED_AS[type]}.`,
    sniffed,
  };
}

function baseName(fileName: string): string {
  return fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
}
