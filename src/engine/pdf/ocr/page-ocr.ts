/**
 * OCR of whole pages of one PDF: render with PDFium, recognise with tesseract.js, lay out like native text.
 * The renderer is opened on the first page to OCR, so a document that needs no OCR never loads PDFium.
 */
import type { PageLayout } from '../page-layout.js';
import { layoutOcrPage } from './ocr-layout.js';
import { PageRenderer, toPgm } from './render-page.js';
import { ocrLanguageFor, type LanguageChoice } from './languages.js';
import { DEFAULT_OCR_LANGUAGE, recogniseLines } from './tesseract.js';

export const FULL_PAGE_SOURCE = 'full_page';

export class PageOcr {
  readonly #bytes: Uint8Array;
  #language: string;
  #renderer: Promise<PageRenderer | undefined> | undefined;
  /** The declared language whose data is missing, once a page was read in English instead. */
  #missingLanguage: string | undefined;
  #pendingMissing: string | undefined;

  constructor(bytes: Uint8Array, language = DEFAULT_OCR_LANGUAGE) {
    this.#bytes = bytes;
    this.#language = language;
  }

  /** Reads in the language the document declares (`metadata.language`) when its data is installed. */
  useDeclaredLanguage(declared: string | undefined): void {
    const choice: LanguageChoice = ocrLanguageFor(declared);
    this.#language = choice.language;
    this.#pendingMissing = choice.missing;
  }

  /** A note for the caller when pages were read in English because the document's language has no data here. */
  get languageWarning(): string | undefined {
    const code = this.#missingLanguage;
    return code
      ? `OCR read the scanned pages in English: the document's language (${code}) has no OCR data here (npm install @tesseract.js-data/${code}).`
      : undefined;
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
    this.#missingLanguage ??= this.#pendingMissing;
    return layoutOcrPage(lines, bitmap.width / width, width, height);
  }

  async close(): Promise<void> {
    const renderer = await this.#renderer;
    renderer?.close();
    this.#renderer = undefined;
  }
}
