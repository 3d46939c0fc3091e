/**
 * Pages the picture reader need not load: PDFium's WebAssembly loading a page (its content parsed, its fonts
 * loaded again) cost about half of `--images`' CPU, and most pages of most documents draw no picture. A page is
 * left alone only when the text pass (LiteParse, the native PDFium) saw it draw no raster image and fewer vector
 * paths than a drawing has (figure-regions.ts), and when nothing in the file can hide one from that pass: an image
 * XObject (LiteParse's placeholders may miss one painted in a form) or a form XObject (whose paths and inline
 * images it may not see), both found by their subtypes in the clear (stream-subtypes.ts).
 */
import type { ModelPage } from '../../model.js';
import { subtypesNamed } from '../stream-subtypes.js';
import { MIN_PATHS } from './figure-regions.js';

/**
 * The file has no image or form XObject (nor a subtype spelt with a #-escape, which is not looked into): what
 * LiteParse saw of a page is then all it draws.
 */
export function drawsOnlyWhatTextPassSees(bytes: Uint8Array): boolean {
  return ![...subtypesNamed(bytes)].some((name) => name === 'Image' || name === 'Form' || name.includes('#'));
}

/** The text pass saw the page draw no image and too few paths for a drawing (see the module comment). */
export function pagePictureless(page: ModelPage): boolean {
  const drawing = page.drawing;
  return drawing !== undefined && drawing.images === 0 && drawing.paths < MIN_PATHS;
}
