/**
 * The local parse engine: picks a converter by what the file's bytes are (route.ts: extensions lie; a lie is
 * converted by the real type with a warning), converts to the DocumentModel, renders the contract's `data`.
 * Converters load on first use, so a thread that only sees spreadsheets never loads pdfjs.
 */
import { CONTENT_TYPE_BY_EXTENSION } from '../contract/extensions.js';
import type { ParseOptions } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import type { Converter } from './model.js';
import { redactionOf } from './redact/entities.js';
import { renderDocument } from './render.js';
import { type ConverterName, routeDocument } from './route.js';

export interface EngineRequest {
  bytes: Uint8Array;
  fileName: string;
  options: ParseOptions;
  /** Tesseract languages OCR reads in; absent: the document's declared language when installed, else English. */
  ocrLanguages?: readonly string[] | undefined;
}

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

export async function parseDocument(request: EngineRequest): Promise<ParseData> {
  const { bytes, fileName, options, ocrLanguages } = request;
  const { converter, extension, warning } = routeDocument(fileName, bytes);
  const convert = await LOADERS[converter]();
  const model = await convert({ bytes, fileName, extension, options, ...(ocrLanguages ? { ocrLanguages } : {}) });
  if (warning !== undefined) model.warnings = [warning, ...(model.warnings ?? [])];
  const redaction = redactionOf(options.redactPII);
  // The redactor (and its language model) loads only when a parse asks for redaction.
  const output = redaction ? await (await import('./redact/redact-document.js')).redactDocument(model, redaction) : model;
  return renderDocument(output, options, { contentType: CONTENT_TYPE_BY_EXTENSION[extension] });
}
