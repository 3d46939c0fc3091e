/**
 * Delimited text (bytes) → the document model: one page holding one GFM table whose header is the first row.
 *
 * - Encoding: detected from the bytes (bytes/text.ts); a guessed legacy encoding is reported as a warning.
 * - Delimiter: Excel's `sep=X` first line when present (the line is dropped), otherwise detected (csv-parser.ts).
 * - Rows: blank lines and rows whose fields are all empty are skipped; ragged rows are padded with empty cells to
 *   the widest row, the header included (as docling does: a header of 4 over rows of 5 gets an empty 5th title).
 * - Size: the text is parsed twice, once to find the widest row (and refuse a table of more than MAX_CSV_CELLS
 *   padded cells, DOCUMENT_TOO_COMPLEX, before rendering anything: a few very long rows would otherwise pad every
 *   other row), then to render rows as they are read; only the Markdown is kept, in chunks of flat strings, so
 *   memory stays close to the size of the output and work is linear in the input.
 * - An empty file gives one page with no blocks and a warning.
 */
import { EngineError } from '../engine-error.js';
import type { DocumentModel, ModelBlock } from '../model.js';
import { escapeGfmCell, gfmDelimiterRow, gfmRow } from '../gfm-table.js';
import { detectDelimiter, parseCsv } from './csv-parser.js';
import { decodeText, decodingWarnings } from '../bytes/text.js';

/** Padded cells (rows × widest row) one CSV table may have. */
export const MAX_CSV_CELLS = 25_000_000;

export interface CsvToModelOptions {
  /** The block `source`. @default 'csv' */
  source?: string;
  /** Delimiter to use instead of detecting one. */
  delimiter?: string;
}

export interface CsvTable {
  /** The GFM table, '' when there are no rows. */
  markdown: string;
  /** Rows in the table, header included. */
  rows: number;
  /** Columns (the widest row). */
  columns: number;
  delimiter: string;
  /** 1-based line of the first quote that was never closed (read as a plain character), or null. */
  unterminatedQuoteLine: number | null;
}

const SEP_HINT = /^sep=(.)(?:\r\n|\r|\n|$)/i;

/** Renders delimited text as one GFM table (first row as header); see the module comment. */
export function csvTextToTable(input: string, options: { delimiter?: string } = {}): CsvTable {
  let text = input;
  let delimiter = options.delimiter;
  let firstLine = 1;
  const hint = SEP_HINT.exec(text);
  if (hint?.[1] && hint[1] !== '"') {
    delimiter ??= hint[1];
    text = text.slice(hint[0].length);
    firstLine = 2;
  }
  delimiter ??= detectDelimiter(text);

  // Pass 1: the widest row, so that every row can be padded as it is rendered, and the size guard before
  // anything is rendered.
  let columns = 0;
  let rows = 0;
  parseCsv(text, delimiter, (fields) => {
    if (isBlank(fields)) return;
    rows += 1;
    if (fields.length > columns) columns = fields.length;
    if (rows * columns > MAX_CSV_CELLS) throw tooLarge(rows, columns);
  });
  if (rows === 0) {
    return { markdown: '', rows: 0, columns: 0, delimiter, unterminatedQuoteLine: null };
  }

  // Pass 2: render. Lines are joined into chunks as they come, so the table is held as a few thousand flat strings
  // rather than one string per row (which costs more in garbage collection than the parse itself).
  const chunks: string[] = [];
  let pending: string[] = [];
  const { unterminatedQuoteAt } = parseCsv(text, delimiter, (fields) => {
    if (isBlank(fields)) return;
    pending.push(gfmRow(fields.map(escapeGfmCell), columns));
    if (chunks.length === 0 && pending.length === 1) pending.push(gfmDelimiterRow(columns));
    if (pending.length >= LINES_PER_CHUNK) {
      chunks.push(pending.join('\n'));
      pending = [];
    }
  });
  if (pending.length > 0) chunks.push(pending.join('\n'));
  const unterminatedQuoteLine =
    unterminatedQuoteAt === null ? null : firstLine - 1 + lineOf(text, unterminatedQuoteAt);
  return { markdown: chunks.join('\n'), rows, columns, delimiter, unterminatedQuoteLine };
}

const LINES_PER_CHUNK = 1024;

/** A blank line, or a row whose fields are all empty once escaped. */
function isBlank(fields: readonly string[]): boolean {
  return fields.every((field) => escapeGfmCell(field) === '');
}

/** Bytes of a delimited-text file → a one-page document model. */
export function csvBytesToModel(bytes: Uint8Array, options: CsvToModelOptions = {}): DocumentModel {
  const source = options.source ?? 'csv';
  const decoded = decodeText(bytes);
  const warnings = decodingWarnings(decoded);
  const table = csvTextToTable(decoded.text, options.delimiter ? { delimiter: options.delimiter } : {});
  if (table.unterminatedQuoteLine !== null) {
    warnings.push(
      `A quoted field opened on line ${table.unterminatedQuoteLine} is never closed; ` +
        'its quote was read as a plain character.',
    );
  }
  const blocks: ModelBlock[] = [];
  if (table.rows === 0) {
    warnings.push('The file is empty: it holds no rows of data.');
  } else {
    blocks.push({ type: 'table', label: null, markdown: table.markdown, bbox: null, source });
  }
  const model: DocumentModel = {
    pages: [{ pageNumber: 1, width: null, height: null, status: 'ok', blocks }],
    metadata: {},
  };
  if (warnings.length > 0) model.warnings = warnings;
  return model;
}

function tooLarge(rows: number, columns: number): EngineError {
  return new EngineError(
    'DOCUMENT_TOO_COMPLEX',
    `the CSV table is too large to convert: ${rows.toLocaleString('en-US')}+ rows × ` +
      `${columns.toLocaleString('en-US')} columns exceeds ${MAX_CSV_CELLS.toLocaleString('en-US')} cells`,
  );
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 10 || (code === 13 && text.charCodeAt(index + 1) !== 10)) line += 1;
  }
  return line;
}
