/**
 * .csv → the document model: one page with one GFM table, first row as header, blocks with source `csv`
 * (csv-document.ts: encoding and delimiter detection, RFC 4180 parsing, ragged rows padded).
 *
 * A file whose extension lies is handled by what the router's sniffer found its bytes to be: a workbook (zip or OLE
 * container) saved as .csv is converted as a spreadsheet, with a warning; other binary content is a
 * CORRUPT_DOCUMENT error.
 */
import { sniffedOf } from '../bytes/sniff.js';
import { EngineError } from '../engine-error.js';
import type { ConvertInput, Converter, DocumentModel } from '../model.js';
import { workbookContainer } from '../sheets/container.js';
import { convertSpreadsheet } from '../sheets/convert-sheet.js';
import { csvBytesToModel } from './csv-document.js';

export const convertCsv: Converter = async (input: ConvertInput): Promise<DocumentModel> => {
  if (input.bytes.length === 0) return csvBytesToModel(input.bytes);
  const sniffed = workbookContainer(sniffedOf(input));
  if (sniffed.kind === 'refused') throw sniffed.error;
  if (sniffed.kind === 'zip' || sniffed.kind === 'cfb' || sniffed.kind === 'biff') {
    const model = await convertSpreadsheet(input);
    model.warnings = ['The .csv file is a spreadsheet workbook, not text; it was converted as one.', ...(model.warnings ?? [])];
    return model;
  }
  if (sniffed.kind === 'other') {
    throw new EngineError(
      'CORRUPT_DOCUMENT',
      `the file is not delimited text${sniffed.looksLike ? ` (it looks like ${sniffed.looksLike})` : ''}: ` +
        'it holds binary data',
    );
  }
  return csvBytesToModel(input.bytes);
};
