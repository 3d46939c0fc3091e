/**
 * A slide deck's zip package, as the router's sniffer opened it (bytes/sniff.ts), and its XML parts read through
 * the engine's zip reader (bytes/zip.ts: bounded inflation, one set of limits). Only the parts a converter asks
 * for are inflated, never media or embedded files. Another document type is UNSUPPORTED_FILE, an encrypted deck
 * ENCRYPTED_DOCUMENT, a damaged or cut zip CORRUPT_DOCUMENT (bytes/verdict.ts), as is an XML part that is not
 * well-formed (package-xml.ts); crossing a limit is DOCUMENT_TOO_COMPLEX.
 */
import { sniffedOf } from '../bytes/sniff.js';
import { requirePackage } from '../bytes/verdict.js';
import type { ZipArchive } from '../bytes/zip.js';
import { EngineError } from '../engine-error.js';
import type { ConvertInput } from '../model.js';
import { checkPackageXml } from '../package-xml.js';

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

const CLAIMS: Record<DeckKind, string> = {
  pptx: 'a PowerPoint presentation (.pptx)',
  odp: 'an OpenDocument presentation (.odp)',
};

/**
 * The zip package when the input is a deck of the expected kind, its XML parts well-formed (package-xml.ts); the
 * right EngineError otherwise.
 */
export function openDeck(input: ConvertInput, kind: DeckKind): ZipArchive {
  const deck = requirePackage(sniffedOf(input), [kind], CLAIMS[kind]);
  checkPackageXml(deck, 'office');
  return deck;
}

/** The parts whose names `wanted` accepts, decoded as UTF-8 text. */
export function readDeckParts(deck: ZipArchive, wanted: (name: string) => boolean): Map<string, string> {
  return deck.readTexts(deck.names.filter(wanted));
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

