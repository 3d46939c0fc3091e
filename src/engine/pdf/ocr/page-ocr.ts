/**
 * OCR of whole pages of one PDF: render with PDFium, recognise with tesseract.js, lay out like native text.
 * The renderer is opened on the first page to OCR, so a document that needs no OCR never loads PDFium.
 */
import type { PageLayout } from '../page-layout.js';
import { layoutOcrPage } from './ocr-layout.js';
import { PageRenderer, toPgm } from './render-page.js';
import { DEFAULT_OCR_LANGUAGE, recogniseLines } from './tesseract.js';

export const FULL_PAGE_SOURCE = 'full_page';

export class PageOcr {
  readonly #bytes: Uint8Array;
  readonly #language: string;
  #renderer: Promise<PageRenderer | undefined> | undefined;

  constructor(bytes: Uint8Array, language = DEFAULT_OCR_LANGUAGE) {
    this.#bytes = bytes;
    this.#language = language;
  }

  /**
   * The page's text by OCR, laid out in a page of `width` × `height` units (the text layer's viewport); null
   * when no word was found. Throws with the reason when the page cannot be rendered or recognised.
   */
  async readPage(pageNumber: number, width: number, height: number): Promise<PageLayout | null> {
    this.#renderer ??= PageRenderer.open(this.#bytes);
    const renderer = await this.#renderer;
    if (!renderer) throw new Error('the PDF could not be opened for rendering');
    const bitmap = renderer.render(pageNumber);
    if (!bitmap) throw new Error('the page could not be rendered');
    const lines = await recogniseLines(toPgm(bitmap), this.#language);
    return layoutOcrPage(lines, bitmap.width / width, width, height);
  }

  async close(): Promise<void> {
    const renderer = await this.#renderer;
    renderer?.close();
    this.#renderer = undefined;
  }
}
