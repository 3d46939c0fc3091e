/**
 * Opening a slide deck's zip package with the true cause of failure, and reading its XML parts with bounded
 * decompression through the shared package reader (zip-package.ts: per-part and per-package caps on declared
 * sizes, which are also the most fflate will write). Only the parts a converter asks for are inflated, never
 * media or embedded files. Crossing a limit is DOCUMENT_TOO_COMPLEX; a damaged or cut zip is CORRUPT_DOCUMENT.
 */
import { strFromU8 } from 'fflate';
import { EngineError } from '../engine-error.js';
import { isEncryptedOoxml, sniffFormat, type SniffedFormat, zipEntries } from '../sniff.js';
import { openZipPackage, type ZipPackage } from '../zip-package.js';
/** Slides in one deck. */
export const MAX_SLIDES = 10_000;
/** Shapes read on one slide (group members included). */
export const MAX_SHAPES_PER_SLIDE = 20_000;
/**
 * Shapes and comments read in one deck, repeats included: a slide part listed for every slide, or a master with
 * thousands of text boxes shown on every slide, cannot multiply the work without bound.
 */
export const MAX_DECK_ELEMENTS = 2_000_000;
/** Cells of one table (rows × columns). */
export const MAX_TABLE_CELLS = 250_000;

export type DeckKind = 'pptx' | 'odp';

const DESCRIPTIONS: Partial<Record<SniffedFormat, string>> = {
  'zip-docx': 'a Word document',
  'zip-xlsx': 'an Excel workbook',
  'zip-epub': 'an EPUB e-book',
};

/** The zip package when the bytes are a deck of the expected kind; the right EngineError otherwise. */
export function openDeck(bytes: Uint8Array, kind: DeckKind): ZipPackage {
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
  return openZipPackage(bytes, 'the presentation');
}

/** The parts whose names `wanted` accepts, decoded as UTF-8 text. */
export function readDeckParts(deck: ZipPackage, wanted: (name: string) => boolean): Map<string, string> {
  const parts = new Map<string, string>();
  for (const [name, data] of deck.read(deck.names.filter(wanted))) parts.set(name, strFromU8(data));
  return parts;
}

/** Counts the elements a deck's conversion reads against MAX_DECK_ELEMENTS. */
export class DeckBudget {
  private left = MAX_DECK_ELEMENTS;

  spend(count = 1): void {
    this.left -= count;
    if (this.left < 0) throw tooComplex(`it has more than ${MAX_DECK_ELEMENTS.toLocaleString('en-US')} shapes and comments in all`);
  }
}

export function tooComplex(what: string): EngineError {
  return new EngineError('DOCUMENT_TOO_COMPLEX', `the presentation is too complex to convert: ${what}`);
}

