/**
 * The local parse engine: picks a converter by what the file's bytes are (route.ts: extensions lie; a lie is
 * converted by the real type with a warning), hands it what the sniffer learned (so it reads no directory twice),
 * converts to the DocumentModel, holds it to the rule for empty results (empty-result.ts), renders the contract's
 * `data`. Each step is a stage (stage.ts), named when a document overruns its time.
 * Converters load on first use, so a thread that only sees spreadsheets never loads pdfjs.
 */
import type { PictureRendering } from '../backend/parse-backend.js';
import type { ParseOptions } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { checkEmptyResult } from './empty-result.js';
import type { Converter } from './model.js';
import { redactionOf } from './redact/entities.js';
import { renderDocument } from './render.js';
import { type ConverterName, routeDocument } from './route.js';
import { enterStage } from './stage.js';

export interface EngineRequest {
  bytes: Uint8Array;
  fileName: string;
  options: ParseOptions;
  /** Tesseract languages OCR reads in; absent: the document's declared language when installed, else English. */
  ocrLanguages?: readonly string[] | undefined;
  /** How a PDF's kept pictures are rendered; absent: 150 dpi, no page images. */
  pictures?: PictureRendering | undefined;
}

const LOADERS: Record<ConverterName, () => Promise<Converter>> = {
  pdf: async () => (await import('./pdf/figures/pdf-figures.js')).convertPdfWithFigures,
  html: async () => (await import('./html/convert-html.js')).convertHtml,
  docx: async () => (await import('./docx/convert-docx.js')).convertDocx,
  sheet: async () => (await import('./sheets/convert-sheet.js')).convertSpreadsheet,
  csv: async () => (await import('./csv/convert-csv.js')).convertCsv,
  text: async () => (await import('./text/convert-text.js')).convertText,
  pptx: async () => (await import('./slides/convert-pptx.js')).convertPptx,
  odp: async () => (await import('./slides/convert-odp.js')).convertOdp,
  odt: async () => (await import('./odt/convert-odt.js')).convertOdt,
  epub: async () => (await import('./epub/convert-epub.js')).convertEpub,
  rtf: async () => (await import('./rtf/convert-rtf.js')).convertRtf,
  doc: async () => (await import('./legacy/convert-doc.js')).convertDoc,
  ppt: async () => (await import('./legacy/convert-ppt.js')).convertPpt,
};

/**
 * Converters loaded, kept for the thread's life: a dynamic import of a module already loaded still goes through the
 * module loader's resolution and jobs each time (a tenth of a millisecond a document, on a PDF page's few).
 */
const loaded = new Map<ConverterName, Converter>();

/** The converter `name`, loaded on its first use; a failed load is not kept, so the next document tries again. */
async function converterFor(name: ConverterName): Promise<Converter> {
  const convert = loaded.get(name);
  if (convert) return convert;
  const fresh = await LOADERS[name]();
  loaded.set(name, fresh);
  return fresh;
}

/** Loads a converter ahead of the documents that will need it (a thread started before its first document). */
export async function loadConverter(name: ConverterName): Promise<void> {
  await converterFor(name);
}

/** The stage each converter works in, unless it names a finer one (stage.ts). */
const CONVERTING: Record<ConverterName, string> = {
  pdf: 'converting the PDF',
  html: 'converting the web page',
  docx: 'converting the Word document',
  sheet: 'converting the spreadsheet',
  csv: 'reading the CSV',
  text: 'reading the text',
  pptx: 'converting the presentation',
  odp: 'converting the presentation',
  odt: 'converting the OpenDocument text',
  epub: 'converting the EPUB book',
  rtf: 'converting the RTF document',
  doc: 'converting the Word 97-2003 document',
  ppt: 'converting the PowerPoint 97-2003 presentation',
};

export async function parseDocument(request: EngineRequest): Promise<ParseData> {
  const { bytes, fileName, options, ocrLanguages, pictures } = request;
  enterStage('identifying the file');
  const { converter, extension, contentType, warning, sniffed, bytes: converted } = routeDocument(fileName, bytes);
  enterStage('loading the converter');
  const convert = await converterFor(converter);
  enterStage(CONVERTING[converter]);
  const model = await convert({ bytes: converted, fileName, extension, options, sniffed, ...(ocrLanguages ? { ocrLanguages } : {}), ...(pictures ? { pictures } : {}) });
  // Before the router's warning joins the converter's: only a converter's warning can say why there is no text.
  checkEmptyResult(model, options);
  if (warning !== undefined) model.warnings = [warning, ...(model.warnings ?? [])];
  const redaction = redactionOf(options.redactPII);
  // The redactor (and its language model) loads only when a parse asks for redaction.
  enterStage(redaction ? 'redacting' : 'rendering the result');
  const output = redaction ? await (await import('./redact/redact-document.js')).redactDocument(model, redaction) : model;
  if (redaction) enterStage('rendering the result');
  return renderDocument(output, options, { contentType });
}
