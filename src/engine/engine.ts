/**
 * The local parse engine: picks a converter by extension, checked against the file's content (extensions lie),
 * converts to the DocumentModel, renders the contract's `data`. Converters load on first use, so a thread that
 * only sees spreadsheets never loads pdfjs.
 */
import { CONTENT_TYPE_BY_EXTENSION, extensionOf, isSupportedExtension, SUPPORTED_EXTENSIONS } from '../contract/extensions.js';
import type { ParseOptions } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { EngineError } from './engine-error.js';
import type { Converter } from './model.js';
import { renderDocument } from './render.js';
import { sniffFormat } from './sniff.js';

export interface EngineRequest {
  bytes: Uint8Array;
  fileName: string;
  options: ParseOptions;
}

type ConverterName = 'pdf' | 'html' | 'docx' | 'sheet' | 'csv' | 'pptx' | 'odp' | 'odt' | 'epub' | 'rtf' | 'doc' | 'ppt';

const LOADERS: Record<ConverterName, () => Promise<Converter>> = {
  pdf: async () => (await import('./pdf/convert-pdf.js')).convertPdf,
  html: async () => (await import('./html/convert-html.js')).convertHtml,
  docx: async () => (await import('./docx/convert-docx.js')).convertDocx,
  sheet: async () => (await import('./sheets/convert-sheet.js')).convertSpreadsheet,
  csv: async () => (await import('./csv/convert-csv.js')).convertCsv,
  pptx: async () => (await import('./slides/convert-pptx.js')).convertPptx,
  odp: async () => (await import('./slides/convert-odp.js')).convertOdp,
  odt: async () => (await import('./odt/convert-odt.js')).convertOdt,
  epub: async () => (await import('./epub/convert-epub.js')).convertEpub,
  rtf: async () => (await import('./rtf/convert-rtf.js')).convertRtf,
  doc: async () => (await import('./legacy/convert-doc.js')).convertDoc,
  ppt: async () => (await import('./legacy/convert-ppt.js')).convertPpt,
};

const BY_EXTENSION: Partial<Record<string, ConverterName>> = {
  '.pdf': 'pdf',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.docx': 'docx',
  '.docm': 'docx',
  '.xlsx': 'sheet',
  '.xlsm': 'sheet',
  '.xlsb': 'sheet',
  '.xls': 'sheet',
  '.ods': 'sheet',
  '.csv': 'csv',
  '.pptx': 'pptx',
  '.pptm': 'pptx',
  '.odp': 'odp',
  '.odt': 'odt',
  '.epub': 'epub',
  '.rtf': 'rtf',
  '.doc': 'doc',
  '.ppt': 'ppt',
};

/** The extensions the local engine converts today (the contract lists more; the rest need a remote API). */
export const LOCAL_ENGINE_EXTENSIONS = Object.keys(BY_EXTENSION);

interface Route {
  converter: ConverterName;
  extension: string;
}

function route(fileName: string, bytes: Uint8Array): Route {
  const extension = extensionOf(fileName);
  if (!isSupportedExtension(extension)) {
    throw new EngineError(
      'UNSUPPORTED_FILE',
      `extension "${extension || '(none)'}" is not supported; supported: ${SUPPORTED_EXTENSIONS.join(' ')}`,
    );
  }
  if (bytes.byteLength === 0) throw new EngineError('EMPTY_DOCUMENT', 'the file is empty (0 bytes)');
  const sniffed = sniffFormat(bytes);
  // A Word or PowerPoint name on an OOXML package of another kind: trust the content.
  if (sniffed === 'zip-docx' && extension !== '.docx' && extension !== '.docm') return { converter: 'docx', extension: '.docx' };
  if (sniffed === 'pdf' && extension !== '.pdf') return { converter: 'pdf', extension: '.pdf' };
  const converter = BY_EXTENSION[extension];
  if (!converter) {
    throw new EngineError(
      'UNSUPPORTED_FILE',
      `the local engine does not convert ${extension} files yet (it converts ${LOCAL_ENGINE_EXTENSIONS.join(' ')}); ` +
        'use a remote parse API (--api-url) for this one',
    );
  }
  if (converter === 'pdf' && sniffed !== 'pdf') {
    throw new EngineError('CORRUPT_DOCUMENT', 'not a PDF: the file does not start with %PDF');
  }
  return { converter, extension };
}

export async function parseDocument(request: EngineRequest): Promise<ParseData> {
  const { bytes, fileName, options } = request;
  const { converter, extension } = route(fileName, bytes);
  const convert = await LOADERS[converter]();
  const model = await convert({ bytes, fileName, extension, options });
  const contentType = CONTENT_TYPE_BY_EXTENSION[extension as keyof typeof CONTENT_TYPE_BY_EXTENSION] ?? 'application/octet-stream';
  return renderDocument(model, options, { contentType });
}
