/**
 * Where this thread's pages are read when not by tesseract workers of its own: an engine thread relays them to its
 * pool (ocr-relay.ts), and tesseract.ts asks here before reading a page itself.
 */
import type { OcrLine } from './ocr-line.js';

/** Reads an image file (PGM, PNG...) in a language set ('deu+eng'); `invert` as recogniseLines' option. */
export type Recogniser = (image: Uint8Array, languages: string, invert: boolean) => Promise<OcrLine[]>;

let relayed: Recogniser | undefined;

/** The recogniser pages go to (undefined: this thread reads them itself). */
export function relayedRecogniser(): Recogniser | undefined {
  return relayed;
}

export function relayPagesTo(recogniser: Recogniser | undefined): void {
  relayed = recogniser;
}
