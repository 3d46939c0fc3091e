/**
 * What a file really is, from its bytes, whatever its name says (a `.doc` that is an OOXML package or RTF, an
 * `.xls` that is an HTML table, a `.pdf` that is a PNG...). The router (route.ts) sniffs every file once and hands
 * the result to the converter it picks (`ConvertInput.sniffed`): the verdict, and the container it opened on the
 * way, so no converter reads a directory twice.
 *
 * - Zip packages are told apart by their directory and a few small entries, never inflated whole: the `mimetype`
 *   entry (ODF, EPUB), `[Content_Types].xml` (OOXML: the main part's content type), the ODF manifest (its root
 *   media type, and `encryption-data` for a password-protected file), then part names, then the body element of
 *   an ODF `content.xml`. A zip cut short (no central directory), with no entries, or with a main part missing
 *   is reported as such; a document package whose directory crosses the zip limits (zip.ts) is `too-large`.
 *   A document package comes with its `ZipArchive` (zip.ts), ready to read.
 * - OLE compound files (cfb.ts) by their streams: `WordDocument` (Word 97-2003), `Workbook`/`Book` (Excel),
 *   `PowerPoint Document`, `EncryptionInfo` + `EncryptedPackage` (an encrypted OOXML package). The opened
 *   `CompoundFile` comes with the verdict.
 * - Text: RTF by `{\rtf`, HTML/XHTML and XML spreadsheets by their first element (after a BOM, blanks, an XML
 *   prolog, comments and a doctype), other text by the one detector in text.ts.
 * - Anything else by a known signature (an image, an executable, another archive format) or as unknown binary.
 */
import { latin1, readU16 } from './binary.js';
import { type CompoundFile, cutFileSectors, type CutFileSectors, DamagedCompoundFile, isCompoundFile, openCompoundFile } from './cfb.js';
import { recoverCutWordFile } from './cfb-cut-word.js';
import { recoverCutPresentation } from './cfb-cut-presentation.js';
import { recoverCutWorkbook } from './cfb-cut-workbook.js';
import { binaryLooksLike } from './signatures.js';
import { looksLikeText, textHead } from './text-detect.js';
import { readEntryPrefix, readZipDirectory, ZipArchive, type ZipDirectory, type ZipEntryInfo, zipLimitBreach } from './zip.js';
import { repairCutZip } from './zip-repair.js';

export type DocumentType =
  | 'pdf'
  | 'docx'
  | 'xlsx'
  | 'xlsb'
  | 'pptx'
  | 'odt'
  | 'ods'
  | 'odp'
  | 'epub'
  | 'doc'
  | 'xls'
  | 'ppt'
  | 'rtf'
  | 'html'
  | 'spreadsheet-xml'
  | 'text';

/**
 * The verdict on a file's bytes. `document`: a format the engine has a converter for. `encrypted`, `empty`,
 * `damaged`: a container whose problem is plain from the container alone (`type` when it is known what it held).
 * `too-large`: a document package whose directory crosses the zip limits (`what`: "a Word document (.docx) whose
 * part ... inflates to ..."). `other`: no document the engine reads, with what it looks like.
 */
export type RealType =
  | { kind: 'document'; type: DocumentType }
  | { kind: 'encrypted'; type: DocumentType | null; what: string }
  | { kind: 'empty'; what: string }
  | { kind: 'damaged'; type: DocumentType | null; what: string }
  | { kind: 'too-large'; type: DocumentType; what: string }
  | { kind: 'other'; looksLike: string; xml?: boolean };

/** The verdict, and the container opened to reach it. */
export interface Sniffed {
  real: RealType;
  /**
   * A zip package cut short, repaired (zip-repair.ts): the bytes to convert instead of the file's own, and the
   * warning that says so. `zip` is then the repaired package. A Word 97-2003 document cut short (cfb-cut-word.ts):
   * its own bytes, and `cfb` the streams found in them. An Excel 97-2003 workbook cut short (cfb-cut-workbook.ts): its
   * Workbook stream as far as it was read, a bare BIFF stream, the sheets it names that were lost, and the one read
   * up to the cut.
   */
  repaired?: { bytes: Uint8Array; warning: string; lostSheets?: readonly string[]; cutSheets?: readonly string[] };
  /** A document package, its directory read and checked against the zip limits. */
  zip?: ZipArchive;
  /** An OLE compound file, its header, allocation table and directory read. */
  cfb?: CompoundFile;
}

/** How each type is named in messages: "report.doc is an RTF document". */
export const TYPE_DESCRIPTIONS: Record<DocumentType, string> = {
  pdf: 'a PDF document',
  docx: 'a Word document (.docx)',
  xlsx: 'an Excel workbook (.xlsx)',
  xlsb: 'an Excel binary workbook (.xlsb)',
  pptx: 'a PowerPoint presentation (.pptx)',
  odt: 'an OpenDocument text document (.odt)',
  ods: 'an OpenDocument spreadsheet (.ods)',
  odp: 'an OpenDocument presentation (.odp)',
  epub: 'an EPUB book',
  doc: 'a Word 97-2003 document (.doc)',
  xls: 'an Excel 97-2003 workbook (.xls)',
  ppt: 'a PowerPoint 97-2003 presentation (.ppt)',
  rtf: 'an RTF document',
  html: 'an HTML page',
  'spreadsheet-xml': 'an XML spreadsheet (Excel 2003 XML or flat OpenDocument)',
  text: 'a text file (CSV or plain text)',
};

/** Bytes of a small entry read to classify a package (content types, manifest, mimetype). */
const SMALL_ENTRY_BYTES = 1024 * 1024;
/** Bytes of an ODF content.xml read to find its body element (styles come first and can be long). */
const CONTENT_XML_BYTES = 4 * 1024 * 1024;
const PDF_HEADER_WINDOW = 1024;

export function sniff(bytes: Uint8Array): Sniffed {
  if (bytes.length === 0) return { real: { kind: 'empty', what: 'the file has 0 bytes' } };
  if (findPdfHeader(bytes) === 0) return { real: { kind: 'document', type: 'pdf' } };
  const zip = readZipDirectory(bytes);
  if (zip !== null) return zip.problem === undefined ? sniffZip(bytes, zip) : (sniffRepairedZip(bytes, zip.problem) ?? sniffZip(bytes, zip));
  if (isCompoundFile(bytes)) return sniffCompoundFile(bytes);
  if (isBareBiff(bytes)) return { real: { kind: 'document', type: 'xls' } };
  const looksLike = binaryLooksLike(bytes, looksLikeText(bytes));
  if (looksLike !== null) return { real: { kind: 'other', looksLike } };
  // The PDF header may follow some junk; readers accept it within the first kilobyte.
  if (findPdfHeader(bytes) > 0) return { real: { kind: 'document', type: 'pdf' } };
  return { real: sniffText(bytes) };
}

/** The verdict alone (see `sniff`). */
export function sniffBytes(bytes: Uint8Array): RealType {
  return sniff(bytes).real;
}

/**
 * What the router learned about a converter's input, or, for a converter called directly (outside the engine),
 * the sniff of its bytes.
 */
export function sniffedOf(input: { bytes: Uint8Array; sniffed?: Sniffed | undefined }): Sniffed {
  return input.sniffed ?? sniff(input.bytes);
}

/** Byte offset of `%PDF-` within the first KiB (the spec tolerates leading junk), or -1. */
export function findPdfHeader(bytes: Uint8Array): number {
  const limit = Math.min(bytes.length - 5, PDF_HEADER_WINDOW);
  for (let i = 0; i <= limit; i++) {
    if (bytes[i] === 0x25 && bytes[i + 1] === 0x50 && bytes[i + 2] === 0x44 && bytes[i + 3] === 0x46 && bytes[i + 4] === 0x2d) {
      return i;
    }
  }
  return -1;
}

/**
 * A package cut short, read through a new directory of the parts that are whole, when they make a document;
 * undefined when they do not (the damaged verdict then says what the file is). A package whose end record points
 * nowhere (or is one of two) is repaired only when it was cut short (inside a part or inside its directory): a
 * package cut short can end in the end record of a zip stored inside it (a workbook embedded in a deck), where one
 * whose parts and directory are whole but point at each other wrongly is one that readers could read differently,
 * and stays refused.
 */
function sniffRepairedZip(bytes: Uint8Array, problem: 'truncated' | 'damaged'): Sniffed | undefined {
  const repaired = repairCutZip(bytes);
  if (!repaired || (problem === 'damaged' && !repaired.cutShort)) return undefined;
  const directory = readZipDirectory(repaired.bytes);
  if (!directory || directory.problem !== undefined) return undefined;
  const sniffed = sniffZip(repaired.bytes, directory);
  const { real } = sniffed;
  // Its kind is known, but the part that holds its text came after the cut, or the cut went through it.
  if (real.kind === 'damaged' && real.type !== null && repaired.cutShort) {
    const before = repaired.parts === 1 ? 'the one whole part before the cut does' : `the ${repaired.parts} whole parts before the cut do`;
    return { real: { ...real, what: `${real.what}, cut short before that part ended (${before} not hold it)` } };
  }
  if (real.kind !== 'document') return undefined;
  const warning =
    `The file was cut short (${TYPE_DESCRIPTIONS[real.type]} whose zip directory, at its end, is missing): ` +
    `its ${repaired.parts === 1 ? 'one whole part was' : `${repaired.parts} whole parts were`} read, and what came after them is missing.`;
  return { ...sniffed, repaired: { bytes: repaired.bytes, warning } };
}

function sniffZip(bytes: Uint8Array, directory: ZipDirectory): Sniffed {
  const { entries, problem } = directory;
  if (problem !== undefined) {
    const held = entries.length > 0 ? zipContentType(bytes, entries) : null;
    const type = held?.kind === 'document' ? held.type : null;
    const what =
      problem === 'truncated' ? 'a zip package cut short: its central directory (at the end of the file) is missing' : 'a zip package whose central directory is damaged';
    return { real: { kind: 'damaged', type, what: type === null ? what : `${what} (its parts are those of ${TYPE_DESCRIPTIONS[type]})` } };
  }
  if (entries.length === 0) return { real: { kind: 'empty', what: 'a zip archive with no entries' } };
  if (entries.every((entry) => entry.uncompressedSize === 0)) {
    return { real: { kind: 'empty', what: `a zip archive whose ${entries.length === 1 ? 'one entry is' : `${entries.length} entries are all`} empty` } };
  }
  const real = zipContentType(bytes, entries);
  if (real.kind !== 'document') return { real };
  const breach = zipLimitBreach(directory);
  if (breach !== null) return { real: { kind: 'too-large', type: real.type, what: `${TYPE_DESCRIPTIONS[real.type]} ${breach}` } };
  return { real, zip: new ZipArchive(bytes, entries, TYPE_DESCRIPTIONS[real.type]) };
}

const ODF_MIMETYPES: Record<string, DocumentType> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.text-template': 'odt',
  'application/vnd.oasis.opendocument.text-master': 'odt',
  'application/vnd.oasis.opendocument.text-web': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.spreadsheet-template': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.presentation-template': 'odp',
};

const OTHER_ODF: Record<string, string> = {
  graphics: 'an OpenDocument drawing',
  chart: 'an OpenDocument chart',
  formula: 'an OpenDocument formula',
  database: 'an OpenDocument database',
  image: 'an OpenDocument image',
};

/** Main-part content types of OOXML packages ([Content_Types].xml), by the part's type. */
const OOXML_MAIN_TYPES: [RegExp, DocumentType][] = [
  [/^application\/vnd\.openxmlformats-officedocument\.wordprocessingml\.(?:document|template)\.main\+xml$/, 'docx'],
  [/^application\/vnd\.ms-word\.(?:document|template)\.macroEnabled(?:Template)?\.main\+xml$/i, 'docx'],
  [/^application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.(?:sheet|template)\.main\+xml$/, 'xlsx'],
  [/^application\/vnd\.ms-excel\.(?:sheet|template|addin)\.macroEnabled(?:Template)?\.main\+xml$/i, 'xlsx'],
  [/^application\/vnd\.ms-excel\.sheet\.binary\.macroEnabled\.main$/i, 'xlsb'],
  [/^application\/vnd\.openxmlformats-officedocument\.presentationml\.(?:presentation|slideshow|template)\.main\+xml$/, 'pptx'],
  [/^application\/vnd\.ms-powerpoint\.(?:presentation|slideshow|template)\.macroEnabled(?:Template)?\.main\+xml$/i, 'pptx'],
];

/** Other OOXML-style packages, by a content type they declare. */
const OTHER_OPC: [RegExp, string][] = [
  [/^application\/vnd\.ms-visio\.drawing/i, 'a Visio drawing'],
  [/^application\/vnd\.ms-package\.xps-fixeddocumentsequence\+xml$/i, 'an XPS document'],
];

function zipContentType(bytes: Uint8Array, entries: ZipEntryInfo[]): RealType {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const mimetypeEntry = byName.get('mimetype');
  const mimetype = mimetypeEntry ? entryText(bytes, mimetypeEntry, 200)?.trim() ?? null : null;
  if (mimetype === 'application/epub+zip') return { kind: 'document', type: 'epub' };

  const manifestEntry = byName.get('META-INF/manifest.xml');
  const manifest = manifestEntry ? entryText(bytes, manifestEntry, SMALL_ENTRY_BYTES) : null;
  const odfMediaType =
    mimetype?.startsWith('application/vnd.oasis.opendocument.') === true ? mimetype : manifest === null ? null : manifestRootMediaType(manifest);
  if (odfMediaType !== null || (byName.has('content.xml') && manifest !== null)) {
    const type = odfMediaType === null ? null : (ODF_MIMETYPES[odfMediaType] ?? null);
    const odf = type ?? odfBodyType(bytes, byName.get('content.xml'));
    if (manifest !== null && /<manifest:encryption-data\b/.test(manifest)) {
      const what = odf === null ? 'an OpenDocument file' : TYPE_DESCRIPTIONS[odf];
      return { kind: 'encrypted', type: odf, what: `${what} whose content is encrypted` };
    }
    const kind = odfMediaType?.replace('application/vnd.oasis.opendocument.', '').replace(/-template$/, '');
    if (kind !== undefined && OTHER_ODF[kind] !== undefined) return { kind: 'other', looksLike: OTHER_ODF[kind] };
    if (!byName.has('content.xml')) {
      const what = odf === null ? 'an OpenDocument package' : TYPE_DESCRIPTIONS[odf];
      return { kind: 'damaged', type: odf, what: `${what} without its content (content.xml)` };
    }
    if (odf !== null) return { kind: 'document', type: odf };
  }

  const contentTypesEntry = byName.get('[Content_Types].xml');
  if (contentTypesEntry !== undefined) {
    const declared = ooxmlMainPart(entryText(bytes, contentTypesEntry, SMALL_ENTRY_BYTES) ?? '');
    if (declared !== null && 'type' in declared) {
      // Part names are case-insensitive (OPC); some writers also keep a leading slash in entry names.
      const parts = new Set([...byName.keys()].map((name) => name.replace(/^\/+/, '').toLowerCase()));
      if (!parts.has(declared.part.toLowerCase())) {
        return {
          kind: 'damaged',
          type: declared.type,
          what: `${TYPE_DESCRIPTIONS[declared.type]} without its main part (${declared.part})`,
        };
      }
      return { kind: 'document', type: declared.type };
    }
    if (declared !== null) return { kind: 'other', looksLike: declared.other };
  }

  const names = [...byName.keys()];
  if (byName.has('word/document.xml')) return { kind: 'document', type: 'docx' };
  if (byName.has('xl/workbook.xml')) return { kind: 'document', type: 'xlsx' };
  if (byName.has('xl/workbook.bin')) return { kind: 'document', type: 'xlsb' };
  if (byName.has('ppt/presentation.xml')) return { kind: 'document', type: 'pptx' };
  if (byName.has('META-INF/container.xml') && names.some((name) => name.endsWith('.opf'))) return { kind: 'document', type: 'epub' };
  if (contentTypesEntry !== undefined) {
    // An OOXML package whose main part has an unusual name and no declared type: go by the top-level folder.
    if (names.some((name) => name.startsWith('word/'))) return { kind: 'document', type: 'docx' };
    if (names.some((name) => name.startsWith('xl/'))) return { kind: 'document', type: 'xlsx' };
    if (names.some((name) => name.startsWith('ppt/'))) return { kind: 'document', type: 'pptx' };
  }
  return { kind: 'other', looksLike: otherZip(names) };
}

function otherZip(names: string[]): string {
  if (names.includes('META-INF/MANIFEST.MF')) return 'a Java archive (JAR)';
  if (names.includes('AndroidManifest.xml')) return 'an Android app (APK)';
  if (names.some((name) => name.startsWith('Index/') && name.endsWith('.iwa'))) return 'an Apple iWork document (Pages, Numbers or Keynote)';
  const files = names.filter((name) => !name.endsWith('/'));
  const shown = files.slice(0, 3).map((name) => `"${name}"`).join(', ');
  const more = files.length > 3 ? ` and ${files.length - 3} more` : '';
  return `a zip archive of other files (${shown}${more})`;
}

/** The main part of an OOXML package as [Content_Types].xml declares it, or another package kind, or null. */
function ooxmlMainPart(contentTypes: string): { part: string; type: DocumentType } | { other: string } | null {
  let other: string | null = null;
  for (const [tag] of contentTypes.matchAll(/<(?:\w+:)?Override\b[^>]*>/g)) {
    const part = /\bPartName\s*=\s*["']([^"']+)["']/.exec(tag)?.[1];
    const contentType = /\bContentType\s*=\s*["']([^"']+)["']/.exec(tag)?.[1]?.trim();
    if (part === undefined || contentType === undefined) continue;
    const main = OOXML_MAIN_TYPES.find(([pattern]) => pattern.test(contentType));
    if (main !== undefined) return { part: decodeURIComponentSafe(part.replace(/^\//, '')), type: main[1] };
    other ??= OTHER_OPC.find(([pattern]) => pattern.test(contentType))?.[1] ?? null;
  }
  return other === null ? null : { other };
}

/** The media type of the manifest's root entry (`full-path="/"`), or null. */
function manifestRootMediaType(manifest: string): string | null {
  for (const [tag] of manifest.matchAll(/<manifest:file-entry\b[^>]*>/g)) {
    if (!/\bmanifest:full-path\s*=\s*["']\/["']/.test(tag)) continue;
    return /\bmanifest:media-type\s*=\s*["']([^"']+)["']/.exec(tag)?.[1]?.trim() ?? null;
  }
  return null;
}

/** The kind of an ODF document from the first element of `<office:body>` in content.xml. */
function odfBodyType(bytes: Uint8Array, entry: ZipEntryInfo | undefined): DocumentType | null {
  if (entry === undefined) return null;
  const content = entryText(bytes, entry, CONTENT_XML_BYTES);
  const body = content === null ? null : /<office:body\b[^>]*>\s*<office:(\w+)/.exec(content)?.[1];
  if (body === 'text') return 'odt';
  if (body === 'spreadsheet') return 'ods';
  if (body === 'presentation') return 'odp';
  return null;
}

function entryText(bytes: Uint8Array, entry: ZipEntryInfo, maxBytes: number): string | null {
  const data = readEntryPrefix(bytes, entry, maxBytes);
  return data === null ? null : new TextDecoder('utf-8').decode(data);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const OLE_FILE = 'an OLE compound file (the legacy Office container)';

function sniffCompoundFile(bytes: Uint8Array): Sniffed {
  let cfb: CompoundFile;
  try {
    cfb = openCompoundFile(bytes);
  } catch (error) {
    if (!(error instanceof DamagedCompoundFile)) throw error;
    const cut = error.damage.startsWith('cut short');
    const damage = cut ? error.damage : `damaged: ${error.damage}`;
    return (cut && sniffCutFile(bytes)) || { real: { kind: 'damaged', type: null, what: `${OLE_FILE} ${damage}` } };
  }
  if (cfb.cutShort) {
    return sniffCutFile(bytes) ?? { real: { kind: 'damaged', type: null, what: `${OLE_FILE} cut short: sectors it uses lie beyond the end of the file` } };
  }
  return { real: sniffOle(cfb.entries.map((entry) => entry.name)), cfb };
}

/**
 * A legacy Office file cut short, read from the streams found by their content; undefined when they are lost too.
 * Its surviving sectors and allocation table are read once, for the three readers.
 */
function sniffCutFile(bytes: Uint8Array): Sniffed | undefined {
  const sectors = cutFileSectors(bytes);
  if (!sectors) return undefined;
  return sniffCutWordFile(bytes, sectors) ?? sniffCutWorkbook(bytes, sectors) ?? sniffCutPresentation(bytes, sectors);
}

/** A Word document cut short, read from the streams that hold its text (cfb-cut-word.ts); undefined when they are lost too. */
function sniffCutWordFile(bytes: Uint8Array, sectors: CutFileSectors): Sniffed | undefined {
  const recovered = recoverCutWordFile(bytes, sectors);
  if (!recovered) return undefined;
  const read = {
    streams: 'its text was read from the streams before the cut, without its title, author or pictures.',
    'plain-text': 'its text was read as plain paragraphs (its styles, tables, notes and headers were in the part lost), without its title, author or pictures.',
    'text-cut': 'its text up to the cut was read as plain paragraphs; the rest of it, its styles, tables, notes, headers, title, author and pictures are lost.',
  }[recovered.read];
  const warning = `The file was cut short (a Word 97-2003 document whose allocation table and directory, at its end, are missing): ${read}`;
  return { real: { kind: 'document', type: 'doc' }, cfb: recovered.cfb, repaired: { bytes, warning } };
}

/** Sheets a warning names at most in each list (a workbook can have hundreds). */
const NAMED_SHEETS = 5;

/**
 * An Excel 97-2003 workbook cut short, read from its Workbook stream (cfb-cut-workbook.ts), converted as the bare
 * BIFF stream it is; damaged, saying why, when its sheets cannot be read from it; undefined when no workbook is found.
 */
function sniffCutWorkbook(bytes: Uint8Array, sectors: CutFileSectors): Sniffed | undefined {
  const recovered = recoverCutWorkbook(bytes, sectors);
  if (!recovered) return undefined;
  if ('unread' in recovered) return { real: { kind: 'damaged', type: null, what: `${TYPE_DESCRIPTIONS.xls} ${recovered.unread}` } };
  const { whole, cut, lost } = recovered;
  const names = (list: string[]) =>
    list.slice(0, NAMED_SHEETS).map((name) => `"${name}"`).join(', ') + (list.length > NAMED_SHEETS ? ` and ${list.length - NAMED_SHEETS} more` : '');
  const read =
    whole.length === 0
      ? `its sheet ${names(cut)} was read up to the cut`
      : `its ${whole.length === 1 ? 'sheet' : 'sheets'} ${names(whole)} ${whole.length === 1 ? 'was' : 'were'} read whole${cut.length > 0 ? ` and ${names(cut)} up to the cut` : ''}`;
  const rest = lost.length > 0 ? `; ${names(lost)}, after the cut, ${lost.length === 1 ? 'is' : 'are'} lost` : '';
  const warning =
    'The file was cut short (an Excel 97-2003 workbook whose allocation table or directory, at its end, is missing): ' +
    `${read}${rest}; its document properties (title, author) are not read.`;
  return { real: { kind: 'document', type: 'xls' }, repaired: { bytes: recovered.stream, warning, lostSheets: lost, cutSheets: cut } };
}

/**
 * A PowerPoint 97-2003 presentation cut short after its slides (cfb-cut-presentation.ts); damaged, saying why, when
 * they were cut; undefined when no presentation is found.
 */
function sniffCutPresentation(bytes: Uint8Array, sectors: CutFileSectors): Sniffed | undefined {
  const cfb = recoverCutPresentation(bytes, sectors);
  if (!cfb) return undefined;
  if ('unread' in cfb) return { real: { kind: 'damaged', type: null, what: `${TYPE_DESCRIPTIONS.ppt} ${cfb.unread}` } };
  const warning =
    'The file was cut short (a PowerPoint 97-2003 presentation whose allocation table and directory, at its end, are missing): ' +
    'its slides were read from its PowerPoint Document stream, as saved last before the cut; its document properties (author, dates) are not read.';
  return { real: { kind: 'document', type: 'ppt' }, cfb, repaired: { bytes, warning } };
}

function sniffOle(names: string[]): RealType {
  const has = (name: string) => names.includes(name);
  if (has('EncryptionInfo') && has('EncryptedPackage')) {
    return { kind: 'encrypted', type: null, what: 'an encrypted Office document: an OOXML package inside an OLE (CDFV2) container' };
  }
  if (has('WordDocument')) return { kind: 'document', type: 'doc' };
  if (has('Workbook') || has('Book')) return { kind: 'document', type: 'xls' };
  if (has('PowerPoint Document')) return { kind: 'document', type: 'ppt' };
  // SheetJS's writer adds a placeholder stream to a container it was given nothing for.
  if (names.every((name) => name === '\u0001Sh33tJ5')) return { kind: 'empty', what: 'an OLE compound file with no streams' };
  if (names.some((name) => name.startsWith('__substg1.0_'))) return { kind: 'other', looksLike: 'an Outlook message (.msg)' };
  if (has('VisioDocument')) return { kind: 'other', looksLike: 'a Visio drawing (.vsd)' };
  if (has('Quill')) return { kind: 'other', looksLike: 'a Publisher document (.pub)' };
  if (has('Contents') && has('CONTENTS')) return { kind: 'other', looksLike: 'a Works document' };
  const shown = names.slice(0, 3).map((name) => `"${[...name].filter((char) => char >= ' ').join('')}"`).join(', ');
  return { kind: 'other', looksLike: `an OLE compound file of another kind (streams ${shown})` };
}

/**
 * A bare BIFF2-4 worksheet (Excel 2.x-4.x, no OLE container): a BOF record, type 0x0009/0x0209/0x0409/0x0809 and
 * a length of 4, 6, 8 or 16 bytes (so a UTF-16 text starting with a tab is not taken for one).
 */
function isBareBiff(bytes: Uint8Array): boolean {
  return (
    bytes[0] === 0x09 &&
    [0x00, 0x02, 0x04, 0x08].includes(bytes[1] ?? -1) &&
    [4, 6, 8, 16].includes(readU16(bytes, 2))
  );
}

/** Markup prolog: blanks, an XML declaration, processing instructions, comments and a doctype, in any order. */
const PROLOG = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!doctype\b[^>]*>)*/i;
const PROLOG_BEFORE_DOCTYPE = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*/;
const HTML_ELEMENTS =
  /^<(?:html|head|body|meta|title|base|link|table|div|p|pre|h[1-6]|br|hr|script|style|section|article|main|header|nav|ul|ol|dl|span|a|b|i|em|strong|font|center|form|img|blockquote|iframe)[\s>/]/i;

function sniffText(bytes: Uint8Array): RealType {
  const head = textHead(bytes, 8192).replace(/^\uFEFF/, '');
  const start = head.trimStart();
  if (start.startsWith('{\\rtf')) return { kind: 'document', type: 'rtf' };
  if (start.startsWith('<')) {
    const markup = sniffMarkup(head);
    if (markup !== null) return markup;
  }
  if (looksLikeText(bytes)) return { kind: 'document', type: 'text' };
  return { kind: 'other', looksLike: describeUnknownBinary(bytes) };
}

function sniffMarkup(head: string): RealType | null {
  if (/^<!doctype\s+html\b/i.test(head.replace(PROLOG_BEFORE_DOCTYPE, ''))) return { kind: 'document', type: 'html' };
  const root = head.replace(PROLOG, '');
  if (HTML_ELEMENTS.test(root)) return { kind: 'document', type: 'html' };
  if (/^<(?:ss:)?Workbook\b[^>]*urn:schemas-microsoft-com:office:spreadsheet/.test(root) || /progid\s*=\s*["']Excel\.Sheet["']/i.test(head)) {
    return { kind: 'document', type: 'spreadsheet-xml' };
  }
  const flat = /^<office:document\b[^>]*office:mimetype\s*=\s*["']application\/vnd\.oasis\.opendocument\.([\w-]+)["']/.exec(root)?.[1];
  if (flat === 'spreadsheet' || flat === 'spreadsheet-template') return { kind: 'document', type: 'spreadsheet-xml' };
  if (flat === 'text' || flat === 'text-template') return { kind: 'document', type: 'odt' };
  const element = /^<([A-Za-z_][\w.:-]*)/.exec(root)?.[1];
  // A prolog or comments longer than the window, then markup: look for the root and body elements.
  if (element === undefined) {
    return /<html[\s>]/i.test(head) && /<(?:head|body)[\s>]/i.test(head) ? { kind: 'document', type: 'html' } : null;
  }
  if (/^<html\b/i.test(root)) return { kind: 'document', type: 'html' };
  if (/progid\s*=\s*["']Word\.Document["']/i.test(head) || element === 'w:wordDocument') {
    return { kind: 'other', looksLike: 'a Word 2003 XML document', xml: true };
  }
  if (/^<office:document\b/.test(root)) {
    return { kind: 'other', looksLike: `a flat (single XML) OpenDocument ${flat ?? 'file'}, which is read only for text and spreadsheets`, xml: true };
  }
  if (element === 'svg' || element.endsWith(':svg')) return { kind: 'other', looksLike: 'an SVG image', xml: true };
  // A CSV whose first cell is "<Name>" is no XML: call it XML only with a declaration, namespaces or a closing tag.
  const xmlish = /^\s*<\?xml\b/.test(head) || /\bxmlns(?::\w+)?\s*=/.test(root) || root.includes(`</${element}`) || /^<[^>]*\/>/.test(root);
  if (!xmlish) return null;
  return { kind: 'other', looksLike: `an XML document (root element <${element}>)`, xml: true };
}

function describeUnknownBinary(bytes: Uint8Array): string {
  const head = latin1(bytes, 0, 8).replace(/[^\x20-\x7e]/g, '.');
  return `binary data of no known document type (it starts with "${head}")`;
}
