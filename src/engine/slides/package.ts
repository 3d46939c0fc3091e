/**
 * Opening a slide deck's zip package with the true cause of failure, and reading its XML parts with bounded
 * decompression.
 *
 * Only the parts a converter asks for are inflated (never media or embedded files), each one capped by the Word
 * package reader's per-part limit (docx/package.ts, whose fflate reader allocates the declared size and never
 * more), and all of them together by MAX_DECK_XML_BYTES of declared size. Crossing a limit is DOCUMENT_TOO_COMPLEX.
 */
import { PackageTooLargeError, readParts } from '../docx/package.js';
import { EngineError } from '../engine-error.js';
import { isEncryptedOoxml, sniffFormat, type SniffedFormat, zipEntries, type ZipEntryInfo } from '../sniff.js';

/** Declared size of all the XML parts of one deck that are read. */
export const MAX_DECK_XML_BYTES = 256 * 1024 * 1024;
/** Slides in one deck. */
export const MAX_SLIDES = 10_000;
/** Shapes read on one slide (group members included). */
export const MAX_SHAPES_PER_SLIDE = 20_000;
/** Cells of one table (rows × columns). */
export const MAX_TABLE_CELLS = 250_000;

export type DeckKind = 'pptx' | 'odp';

const DESCRIPTIONS: Partial<Record<SniffedFormat, string>> = {
  'zip-docx': 'a Word document',
  'zip-xlsx': 'an Excel workbook',
  'zip-epub': 'an EPUB e-book',
};

/** The zip's entries when the bytes are a deck of the expected kind; the right EngineError otherwise. */
export function openDeck(bytes: Uint8Array, kind: DeckKind): ZipEntryInfo[] {
  const name = kind === 'pptx' ? 'PowerPoint' : 'OpenDocument';
  const sniffed = sniffFormat(bytes);
  if (sniffed === 'ole') {
    if (isEncryptedOoxml(bytes)) {
      throw new EngineError('ENCRYPTED_DOCUMENT', 'the presentation is password-protected (an encrypted Office file); remove the password and try again');
    }
    throw new EngineError(
      'UNSUPPORTED_FILE',
      `the file is a legacy Office binary (OLE compound file, such as a PowerPoint 97-2003 .ppt), not a ${kind === 'pptx' ? '.pptx/.pptm package' : '.odp package'}`,
    );
  }
  if (!sniffed.startsWith('zip-')) {
    throw new EngineError('CORRUPT_DOCUMENT', `not a ${name} presentation: the file is not a zip package`);
  }
  const entries = zipEntries(bytes);
  if (entries === null || entries.length === 0) throw new EngineError('CORRUPT_DOCUMENT', 'the zip package is empty or unreadable');
  const expected: SniffedFormat = kind === 'pptx' ? 'zip-pptx' : 'zip-odf';
  if (sniffed !== expected) {
    const other = DESCRIPTIONS[sniffed] ?? (sniffed === 'zip-pptx' ? 'a PowerPoint presentation' : sniffed === 'zip-odf' ? 'an OpenDocument file' : undefined);
    if (other !== undefined) throw new EngineError('UNSUPPORTED_FILE', `the file is ${other}, not ${kind === 'pptx' ? 'a PowerPoint' : 'an OpenDocument'} presentation`);
    throw new EngineError(
      'CORRUPT_DOCUMENT',
      kind === 'pptx' ? 'the zip package has no PowerPoint presentation part (ppt/presentation.xml)' : 'the zip package is not an OpenDocument file (no content.xml and manifest)',
    );
  }
  return entries;
}

/**
 * Inflates the entries whose names `wanted` accepts, as text. Refuses (DOCUMENT_TOO_COMPLEX) when their declared
 * sizes add up to more than MAX_DECK_XML_BYTES or one is over the per-part cap; a damaged or cut zip is
 * CORRUPT_DOCUMENT.
 */
export function readDeckParts(bytes: Uint8Array, entries: readonly ZipEntryInfo[], wanted: (name: string) => boolean): Map<string, string> {
  const selected = entries.filter((entry) => wanted(entry.name));
  const total = selected.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (total > MAX_DECK_XML_BYTES) {
    throw new EngineError(
      'DOCUMENT_TOO_COMPLEX',
      `the presentation's XML would inflate to ${mebibytes(total)} (more than ${mebibytes(MAX_DECK_XML_BYTES)})`,
    );
  }
  try {
    return readParts(bytes, selected.map((entry) => entry.name));
  } catch (error) {
    if (error instanceof PackageTooLargeError) {
      throw new EngineError('DOCUMENT_TOO_COMPLEX', `a part of the presentation is too large: ${error.message}`, { cause: error });
    }
    throw new EngineError('CORRUPT_DOCUMENT', `the zip package is damaged or cut short and cannot be read (${messageOf(error)})`, { cause: error });
  }
}

/** The text of a small stored or deflated entry (the ODF `mimetype`), or null. */
export function entryText(bytes: Uint8Array, entries: readonly ZipEntryInfo[], name: string): string | null {
  if (!entries.some((entry) => entry.name === name)) return null;
  const parts = readDeckParts(bytes, entries, (entry) => entry === name);
  return parts.get(name) ?? null;
}

export function tooComplex(what: string): EngineError {
  return new EngineError('DOCUMENT_TOO_COMPLEX', `the presentation is too complex to convert: ${what}`);
}

function mebibytes(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MiB`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
