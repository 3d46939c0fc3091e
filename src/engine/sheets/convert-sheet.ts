/**
 * Spreadsheets (.xlsx .xlsm .xlsb .xls .ods) → the document model, through SheetJS 0.20 (`@e965/xlsx`).
 *
 * Each sheet, in workbook order, is one page (pageNumber 1, 2...; no size) holding a `## <sheet name>` section
 * header, then the sheet laid out as its author did (cells as the spreadsheet shows them: cell-text.ts,
 * sheet-grid.ts):
 * - each region of cells that empty rows and columns keep apart is its own GFM table, in reading order
 *   (regions.ts; in .xlsx narrow, short and hidden empty rows and columns are spacers, not gaps: sheet-geometry.ts),
 *   its first row the header; a title cell above a table and a lone cell are lines (sheet-layout.ts);
 * - the charts on the sheet (.xlsx, .xlsm) follow, each a caption ("Line chart: Sales") and a table of its series
 *   (charts.ts);
 * - the comments and notes on its cells close it, under `**Comments:**` (comments.ts).
 * A sheet with no text gets "(empty sheet)" ("(chart sheet)" for a chart sheet whose chart is unreadable). Blocks
 * have source `sheet`.
 *
 * Sheet visibility: hidden sheets are kept (their data is real and often what the workbook computes from) and
 * listed in `metadata.hiddenSheets`; "very hidden" sheets, which only a macro can show, are skipped (a workbook of
 * nothing else converts empty, with a warning saying so). A workbook in which SheetJS finds no sheet at all is
 * CORRUPT_DOCUMENT: every workbook has one, so its main part was not read. Page numbers
 * count the sheets converted, so they stay consecutive; `metadata.sheetNames` lists those sheets in page order.
 * Metadata also carries `title`, `author` and `language` from the workbook properties when present.
 *
 * Hostile and broken files: the router's sniffer has identified the bytes before SheetJS reads them
 * (container.ts); a zip package is within the zip limits (bytes/zip.ts), and every entry is inflated and counted
 * against them before SheetJS, which inflates them all itself, gets the bytes (zip bombs); sheets are held to
 * cell limits (limits.ts); password protection gives ENCRYPTED_DOCUMENT, anything SheetJS cannot read
 * CORRUPT_DOCUMENT with the cause.
 * Delimited text saved with a spreadsheet extension is converted as CSV, with a warning.
 */
import * as XLSX from '@e965/xlsx';
import * as codepages from '@e965/xlsx/dist/cpexcel.full.mjs';
import { EngineError } from '../engine-error.js';
import type { ConvertInput, Converter, DocumentModel, MetadataValue, ModelBlock, ModelPage } from '../model.js';
import { sniffedOf } from '../bytes/sniff.js';
import type { ZipArchive } from '../bytes/zip.js';
import { csvBytesToModel } from '../csv/csv-document.js';
import { packageXmlInspector } from '../package-xml.js';
import { enterStage } from '../stage.js';
import { encrypted, messageOf, workbookContainer } from './container.js';
import { renderGfmTable } from '../gfm-table.js';
import { type SheetChart, workbookCharts } from './charts.js';
import { type SheetPicture, workbookPictures } from './pictures.js';
import { commentsMarkdown } from './comments.js';
import { DEFAULT_SHEET_LIMITS, type SheetLimits } from './limits.js';
import { lineMarkdown } from './markdown-text.js';
import { escapeRunText } from '../markdown-text.js';
import { findRegions, type Region, type Spacers } from './regions.js';
import { workbookSpacers } from './sheet-geometry.js';
import { missingSheetParts } from './ooxml-workbook.js';
import { describeRange, regionCellCount, sheetCells } from './sheet-grid.js';
import { layoutRegion } from './sheet-layout.js';

// Legacy .xls files (BIFF2-5) store text in the author's Windows code page; without the tables SheetJS reads
// every byte as Latin-1.
XLSX.set_cptable(codepages);

const SOURCE = 'sheet';
export const EMPTY_SHEET_TEXT = '(empty sheet)';
const MISSING_SHEET_TEXT = '(missing: its part is not in the file)';
const LOST_SHEET_TEXT = '(missing: the file was cut short before this sheet)';
const CUT_SHEET_TEXT = '(cut short: the file ends before any of its cells)';

const READ_OPTIONS: XLSX.ParsingOptions = {
  type: 'buffer',
  cellDates: true,
  cellNF: true,
  cellFormula: false,
  cellHTML: false,
  dense: true,
  WTF: false,
};

export const convertSpreadsheet: Converter = async (input: ConvertInput): Promise<DocumentModel> => {
  if (input.bytes.length === 0) throw new EngineError('EMPTY_DOCUMENT', 'the file is empty (0 bytes)');
  const sniffed = sniffedOf(input);
  // A package cut short is read through its repaired directory (zip-repair.ts), SheetJS included.
  const bytes = sniffed.repaired?.bytes ?? input.bytes;
  const container = workbookContainer(sniffed);
  let zip: ZipArchive | undefined;
  switch (container.kind) {
    case 'refused':
      throw container.error;
    case 'other':
      throw new EngineError(
        'CORRUPT_DOCUMENT',
        `the file is not a spreadsheet${container.looksLike ? ` (it looks like ${container.looksLike})` : ''}: ` +
          'it is neither an OOXML/ODF zip, an Excel binary file, nor spreadsheet XML or text',
      );
    case 'text':
      return textWorkbook(input);
    case 'zip':
      zip = container.zip;
      enterStage('checking the workbook package');
      // SheetJS inflates every entry of the package itself, with an inflater that zlib must vouch for first
      // (ZipArchive.check), and reads every XML part, which must be well-formed (package-xml.ts).
      zip.check(undefined, packageXmlInspector(zip, 'office'));
      break;
    default:
      break;
  }
  enterStage('reading the workbook');
  const lostStrings = zip !== undefined && lostSharedStrings(zip);
  const workbook = readWorkbook(zip === undefined ? bytes : (withOdsStyles(zip) ?? withContentTypes(zip, lostStrings) ?? bytes));
  // Every workbook has a sheet: none means its main part (xl/workbook.xml, content.xml) was not read.
  if (workbook.SheetNames.length === 0) throw new EngineError('CORRUPT_DOCUMENT', 'the workbook is damaged: no sheet can be read from it');
  enterStage('reading the charts');
  const charts = workbookCharts(zip);
  enterStage('laying out the sheets');
  const spacers = workbookSpacers(zip);
  const pictures = input.options.removeBase64Images === false ? readPictures(zip) : { bySheet: new Map<string, SheetPicture[]>(), warnings: [] };
  const missing = zip === undefined ? [] : missingSheetParts(zip);
  // An Excel 97-2003 workbook cut short lists sheets that came after the cut (cfb-cut-workbook.ts); its warning names them.
  const lost = sniffed.repaired?.lostSheets ?? [];
  const model = workbookModel(workbook, DEFAULT_SHEET_LIMITS, {
    charts: charts.bySheet,
    spacers,
    pictures: pictures.bySheet,
    missing: new Map([...missing.map((sheet) => [sheet.name, MISSING_SHEET_TEXT] as const), ...lost.map((name) => [name, LOST_SHEET_TEXT] as const)]),
    cut: new Set(sniffed.repaired?.cutSheets),
  });
  if (lostStrings) {
    model.warnings = [...(model.warnings ?? []), `The workbook's shared strings (${SHARED_STRINGS}) are not in the file: its cells of text are left empty.`];
  }
  if (missing.length > 0) {
    const names = missing.map((sheet) => `"${sheet.name}"`).join(', ');
    const parts = missing.map((sheet) => sheet.part).join(', ');
    model.warnings = [...(model.warnings ?? []), `Sheet(s) ${names}: not in the file (${parts}); left empty.`];
  }
  if (pictures.warnings.length > 0) model.warnings = [...(model.warnings ?? []), ...pictures.warnings];
  if (charts.warnings.length > 0) model.warnings = [...(model.warnings ?? []), ...charts.warnings];
  return model;
};

/**
 * An OpenDocument spreadsheet need not have a styles part (content.xml alone is a valid package, and some exporters
 * write no other), but SheetJS refuses a package without one. Such a package is given an empty styles part: the
 * cells' own text says how they are shown. So is one without its manifest, which SheetJS tells an OpenDocument
 * package by (LibreOffice writes it last: a file cut short loses it first). Null when the package needs nothing added.
 */
function withOdsStyles(zip: ZipArchive): Uint8Array | null {
  if (!zip.has('content.xml') || zip.has('xl/workbook.xml') || zip.has('xl/workbook.bin')) return null;
  const added = new Map<string, string>();
  if (!zip.has('styles.xml')) added.set('styles.xml', EMPTY_ODS_STYLES);
  if (!zip.has('META-INF/manifest.xml')) added.set('META-INF/manifest.xml', ODS_MANIFEST);
  return added.size === 0 ? null : zip.rewrite(added);
}

/** SheetJS finds a workbook's parts by their declared content types: these, by where Excel puts each part. */
const EXCEL_PART_TYPES: [RegExp, string][] = [
  [/^xl\/workbook\.xml$/, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'],
  [/^xl\/worksheets\/[^/]+\.xml$/, 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml'],
  [/^xl\/chartsheets\/[^/]+\.xml$/, 'application/vnd.openxmlformats-officedocument.spreadsheetml.chartsheet+xml'],
  [/^xl\/sharedStrings\.xml$/, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml'],
  [/^xl\/styles\.xml$/, 'application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml'],
  [/^xl\/theme\/[^/]+\.xml$/, 'application/vnd.openxmlformats-officedocument.theme+xml'],
];

const SHARED_STRINGS = 'xl/sharedStrings.xml';

/**
 * A shared strings part of empty strings, one for each index the sheets use: a workbook whose own was lost still has
 * its numbers read (SheetJS reads no cell of a sheet that points at a string it does not have).
 */
function emptySharedStrings(zip: ZipArchive): string {
  let count = 0;
  for (const name of zip.names) {
    if (!/^xl\/worksheets\/[^/]+\.xml$/.test(name)) continue;
    for (const match of (zip.readText(name) ?? '').matchAll(/<c\b[^>]*\bt="s"[^>]*>\s*<v>(\d{1,9})<\/v>/g)) count = Math.max(count, Number(match[1]) + 1);
  }
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${count}" uniqueCount="${count}">${'<si><t></t></si>'.repeat(count)}</sst>`
  );
}

/** Whether the workbook names a shared strings part the package does not hold (a file cut short lost it). */
function lostSharedStrings(zip: ZipArchive): boolean {
  return zip.has('xl/workbook.xml') && !zip.has(SHARED_STRINGS) && /sharedStrings\.xml/.test(zip.readText('xl/_rels/workbook.xml.rels') ?? '');
}

/**
 * An Excel package as SheetJS needs it when a file cut short lost parts. Its lost shared strings (`lostStrings`,
 * lostSharedStrings) become empty ones
 * (without them SheetJS reads no cell at all: so the numbers are kept, the text cells are empty). Its
 * `[Content_Types].xml`: when lost (some writers put it last, so that it is lost first), one declaring each part by
 * where Excel puts it, as SheetJS reads no workbook without it; else without the parts it declares that are gone, as
 * SheetJS fails on the first it cannot find (the styles). Null when nothing needs changing, or for no Excel package.
 */
function withContentTypes(zip: ZipArchive, lostStrings: boolean): Uint8Array | null {
  if (!zip.has('xl/workbook.xml')) return null;
  const added = new Map<string, string>();
  if (lostStrings) added.set(SHARED_STRINGS, emptySharedStrings(zip));
  const names = [...zip.names, ...added.keys()];
  const declared = zip.readText('[Content_Types].xml');
  if (declared !== undefined) {
    const parts = new Set(names.map((name) => name.toLowerCase()));
    const kept = declared.replace(/<(?:\w+:)?Override\b[^>]*>/g, (tag) => {
      const part = /\bPartName\s*=\s*["']\/?([^"']+)["']/.exec(tag)?.[1];
      return part === undefined || parts.has(decodedPartName(part).toLowerCase()) ? tag : '';
    });
    if (kept !== declared) added.set('[Content_Types].xml', kept);
    return added.size === 0 ? null : zip.rewrite(added);
  }
  const overrides = names.flatMap((name) => {
    const type = EXCEL_PART_TYPES.find(([pattern]) => pattern.test(name))?.[1];
    return type === undefined ? [] : [`<Override PartName="/${name}" ContentType="${type}"/>`];
  });
  const contentTypes =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    `<Default Extension="xml" ContentType="application/xml"/>${overrides.join('')}</Types>`;
  added.set('[Content_Types].xml', contentTypes);
  return zip.rewrite(added);
}

/** A part name as its entry is named (`%20` for a space, and so on); as it stands when it is no valid escape. */
function decodedPartName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

const ODS_MANIFEST =
  '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
  '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/></manifest:manifest>';

const EMPTY_ODS_STYLES =
  '<?xml version="1.0" encoding="UTF-8"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.2"/>';

function readWorkbook(bytes: Uint8Array): XLSX.WorkBook {
  try {
    return XLSX.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), READ_OPTIONS);
  } catch (error) {
    const message = messageOf(error);
    if (/password|encrypt/i.test(message)) throw encrypted(error);
    if (error instanceof RangeError) {
      throw new EngineError('DOCUMENT_TOO_COMPLEX', `the workbook is too large or complex to read (${message})`, {
        cause: error,
      });
    }
    throw new EngineError('CORRUPT_DOCUMENT', `the workbook is damaged and cannot be read (${message})`, {
      cause: error,
    });
  }
}

/** What the package says beyond SheetJS's cells, by sheet name (charts.ts, sheet-geometry.ts). */
export interface SheetLayoutHints {
  charts?: ReadonlyMap<string, readonly SheetChart[]>;
  spacers?: ReadonlyMap<string, Spacers>;
  /** Pictures kept in the result (pictures.ts), after the sheet's cells and charts. */
  pictures?: ReadonlyMap<string, readonly SheetPicture[]>;
  /** Sheets the workbook names whose content is not in the file, each with what its page says instead of being shown as empty. */
  missing?: ReadonlyMap<string, string>;
  /** Sheets read only up to where the file was cut short: their pages are partial. */
  cut?: ReadonlySet<string>;
}

/**
 * Builds the model from a workbook SheetJS has read (exported for callers and tests that hold a workbook in
 * memory; `limits` tightens the size limits).
 */
export function workbookModel(
  workbook: XLSX.WorkBook,
  limits: SheetLimits = DEFAULT_SHEET_LIMITS,
  layout: SheetLayoutHints = {},
): DocumentModel {
  const charts = layout.charts ?? new Map<string, readonly SheetChart[]>();
  const pages: ModelPage[] = [];
  const sheetNames: string[] = [];
  const hiddenSheets: string[] = [];
  let workbookCells = 0;
  workbook.SheetNames.forEach((name, index) => {
    const visibility = workbook.Workbook?.Sheets?.[index]?.Hidden ?? 0;
    if (visibility === 2) return;
    if (visibility === 1) hiddenSheets.push(name);
    const sheet = workbook.Sheets[name];
    const blocks: ModelBlock[] = [
      { type: 'section_header', label: 'heading-2', markdown: `## ${headingText(name)}`, bbox: null, source: SOURCE },
    ];
    const sheetCharts = charts.get(name) ?? [];
    // SheetJS fills a chart sheet with cells of its own making from the chart cache; the chart read from the
    // package says the same properly.
    const useCells = sheet !== undefined && !(sheet['!type'] === 'chart' && sheetCharts.length > 0);
    const content = useCells ? sheetCells(sheet, name, limits) : { cells: [], comments: [], ref: null };
    const regions = findRegions(content.cells, layout.spacers?.get(name));
    workbookCells += regionCellCount(regions, name, content.ref, limits.maxSheetCells);
    if (workbookCells > limits.maxWorkbookCells) {
      throw new EngineError(
        'DOCUMENT_TOO_COMPLEX',
        `the workbook is too large to convert: its sheets up to "${name}"` +
          `${content.ref ? ` (used range ${describeRange(content.ref)})` : ''} hold more than ` +
          `${limits.maxWorkbookCells.toLocaleString('en-US')} table cells`,
      );
    }
    regions.forEach((region, index) => blocks.push(...regionBlocks(layoutRegion(region), titlesTable(regions, index))));
    for (const chart of sheetCharts) blocks.push(...chartBlocks(chart));
    for (const picture of layout.pictures?.get(name) ?? []) {
      blocks.push({ type: 'figure', label: null, markdown: `![${escapeRunText(picture.description)}](${picture.uri})`, bbox: null, source: SOURCE });
    }
    const missing = layout.missing?.get(name);
    const cut = layout.cut?.has(name) === true;
    if (blocks.length === 1) {
      blocks.push({
        type: 'text',
        label: null,
        markdown: missing ?? (cut ? CUT_SHEET_TEXT : sheet?.['!type'] === 'chart' ? '(chart sheet)' : EMPTY_SHEET_TEXT),
        bbox: null,
        source: SOURCE,
      });
    }
    if (content.comments.length > 0) {
      blocks.push({ type: 'text', label: 'comments', markdown: commentsMarkdown(content.comments), bbox: null, source: SOURCE });
    }
    sheetNames.push(name);
    pages.push({ pageNumber: pages.length + 1, width: null, height: null, status: missing !== undefined ? 'failed' : cut ? 'partial' : 'ok', blocks });
  });

  const metadata: Record<string, MetadataValue> = {};
  const props = workbook.Props;
  const title = cleanProperty(props?.Title);
  const author = cleanProperty(props?.Author);
  const language = cleanProperty((props as XLSX.FullProperties | undefined)?.Language);
  if (title) metadata.title = title;
  if (author) metadata.author = author;
  if (language) metadata.language = language;
  metadata.sheetNames = sheetNames;
  if (hiddenSheets.length > 0) metadata.hiddenSheets = hiddenSheets;
  const model: DocumentModel = { pages, metadata };
  if (pages.length === 0 && workbook.SheetNames.length > 0) {
    model.warnings = [`the workbook has no text to convert: its ${workbook.SheetNames.length} sheet(s) are all "very hidden" (only a macro can show them)`];
  }
  return model;
}

/** Regions looked at after a one-cell region for a table it may be the title of. */
const MAX_TITLE_LOOKAHEAD = 64;

/**
 * Whether a one-cell region is the title of a table right under it (one or two empty rows between, the cell
 * within the table's columns): then it is labelled like a title row inside the table's region. Regions are in
 * reading order, so the candidates follow it.
 */
function titlesTable(regions: readonly Region[], index: number): boolean {
  const region = regions[index];
  if (region === undefined || region.cells.length !== 1) return false;
  const end = Math.min(regions.length, index + 1 + MAX_TITLE_LOOKAHEAD);
  for (let next = index + 1; next < end; next += 1) {
    const below = regions[next] as Region;
    if (below.top > region.bottom + 3) break;
    if (below.top > region.bottom && below.cells.length > 1 && region.left >= below.left && region.left <= below.right) return true;
  }
  return false;
}

function regionBlocks(parts: ReturnType<typeof layoutRegion>, isTitle: boolean): ModelBlock[] {
  return parts.map((part): ModelBlock => {
    switch (part.kind) {
      case 'title':
        return { type: 'text', label: 'table-title', markdown: lineMarkdown(part.text), bbox: null, source: SOURCE };
      case 'line':
        return { type: 'text', label: isTitle ? 'table-title' : null, markdown: lineMarkdown(part.text), bbox: null, source: SOURCE };
      default:
        return { type: 'table', label: null, markdown: renderGfmTable(part.rows), bbox: null, source: SOURCE };
    }
  });
}

/** A caption naming the chart ("Line chart: Sales") and, when it has data, a table of its series. */
function chartBlocks(chart: SheetChart): ModelBlock[] {
  const kind = chart.kind === '' ? 'Chart' : `${chart.kind.charAt(0).toUpperCase()}${chart.kind.slice(1)} chart`;
  const caption = chart.title === '' ? kind : `${kind}: ${chart.title}`;
  const blocks: ModelBlock[] = [{ type: 'caption', label: 'chart', markdown: lineMarkdown(caption), bbox: null, source: SOURCE }];
  if (chart.rows.length > 1) {
    blocks.push({ type: 'table', label: 'chart', markdown: renderGfmTable(chart.rows), bbox: null, source: SOURCE });
  }
  return blocks;
}

function cleanProperty(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

/**
 * A sheet name as ATX heading text: line breaks become spaces; characters Markdown would read as emphasis, code,
 * links or HTML are backslash-escaped, as is a trailing `#` (it would be taken for a closing sequence). An
 * underscore is only escaped where it could start or end emphasis, so `missing_header_head` stays readable.
 */
export function headingText(name: string): string {
  const text = name.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();
  if (text === '') return '(unnamed sheet)';
  return text
    .replace(/[\\`*[\]<>]/g, (character) => `\\${character}`)
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
    .replace(/#$/, '\\#');
}

/** A spreadsheet extension whose bytes are delimited text: read as CSV, and say so. */
function textWorkbook(input: ConvertInput): DocumentModel {
  const model = csvBytesToModel(input.bytes, { source: SOURCE });
  const note = `The ${input.extension || 'spreadsheet'} file holds delimited text, not a workbook; it was read as CSV.`;
  model.warnings = [note, ...(model.warnings ?? [])];
  return model;
}

/** A workbook's pictures, or none and a warning when its drawings cannot be read: the cells still convert. */
function readPictures(zip: ZipArchive | undefined): { bySheet: Map<string, SheetPicture[]>; warnings: string[] } {
  try {
    return { bySheet: workbookPictures(zip), warnings: [] };
  } catch (error) {
    return { bySheet: new Map(), warnings: [`The workbook's pictures could not all be read (${messageOf(error)}).`] };
  }
}
