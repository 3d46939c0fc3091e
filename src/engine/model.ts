/**
 * The one intermediate model every format converter produces. Converters know their format; the renderer
 * (render.ts) alone knows how the contract wants Markdown, pages, blocks, spans and page markers spelled.
 */
import type { PictureRendering } from '../backend/parse-backend.js';
import type { ParseOptions } from '../contract/options.js';
import type { KnownBlockType, PageStatus } from '../contract/response.js';
import type { Sniffed } from './bytes/sniff.js';

export type Bbox = [x0: number, y0: number, x1: number, y1: number];

export interface ModelBlock {
  /** A contract block type. Lists and code are `text` with label `list` / `code`. */
  type: KnownBlockType;
  /** A finer label passed through as `label` (list, code, heading-2...). */
  label?: string | null;
  /** The Markdown this block contributes, already formatted (`## Heading`, a GFM table, `- item`...). */
  markdown: string;
  /** [x0, y0, x1, y1], normalised 0..1 against the page; null when the format has no geometry. */
  bbox?: Bbox | null;
  /** The pipeline path that produced the block: native_text, html, docx, sheet, csv... */
  source: string;
  confidence?: { layout: number | null; ocr: number | null };
  /**
   * Page furniture (running headers, footers, page numbers): kept in blocks, left out of the document Markdown
   * when `onlyMainContent` is true.
   */
  furniture?: boolean;
  /** A `figure` block's picture (the URI its Markdown links to), passed through as the block's `image`. */
  image?: string;
  /** A `figure` block's caption as plain text (also its alt text), passed through as the block's `caption`. */
  caption?: string;
  /**
   * Running text that carries on the block before it (a paragraph broken by a page or column break): the Markdown
   * joins the two with a space (`sentence`), or with nothing where the break cut a word at its hyphen (`word`: the
   * hyphen stays, `Tues-day`, as each block keeps its text); across a page break, each page's own Markdown keeps
   * its part. `row`: the rows of a GFM table continued from the table block before it, joined by a line break.
   */
  carriesOn?: 'sentence' | 'word' | 'row';
  /**
   * With `carriesOn: 'row'`: the table's header and delimiter rows, written before the rows where what comes just
   * before them in the Markdown is not the table they continue (a running footer kept in the text).
   */
  tableHead?: string;
}

/** See ModelPage.drawing. */
export interface PageDrawing {
  paths: number;
  /** Undefined when the images were not looked for. */
  images?: number;
}

export interface ModelPage {
  /** 1-based physical page. */
  pageNumber: number;
  /** Page size in points/pixels, the anchor for bbox; null when the format has no pages. */
  width: number | null;
  height: number | null;
  status: PageStatus;
  /** In reading order. */
  blocks: ModelBlock[];
  /** The whole page rendered (a PDF's, when page images are asked): the URI of its picture, the entries' `image`. */
  image?: string;
  /**
   * A PDF page read by LiteParse with its pictures kept: the vector paths and images it saw the page draw, for the
   * picture reader to leave alone a page that cannot hold one (pdf/figures/pictureless.ts). Not rendered.
   */
  drawing?: PageDrawing;
}

export type MetadataValue = string | string[] | number | boolean;

export interface DocumentModel {
  pages: ModelPage[];
  /** title, description, keywords, language, author, ogTitle..., numPages, totalPages (PDF). contentType is added by the engine. */
  metadata: Record<string, MetadataValue>;
  /** Cleaned HTML (HTML-based formats), for the `html` format. */
  html?: string;
  /** The HTML exactly as uploaded, for the `rawHtml` format. */
  rawHtml?: string;
  /** Absolute link URLs, for the `links` format. */
  links?: string[];
  /** Image URLs, for the `images` format. */
  images?: string[];
  /** Problems worth telling the caller that did not stop the parse (pages without text...). */
  warnings?: string[];
}

/** What a converter gets: the whole file (at most 50 MiB) and the validated options. */
export interface ConvertInput {
  bytes: Uint8Array;
  fileName: string;
  /** Lower-case, with the dot. */
  extension: string;
  options: ParseOptions;
  /** Tesseract languages OCR reads scanned pages in ('deu', 'eng'), when the caller chose them. PDF only. */
  ocrLanguages?: readonly string[] | undefined;
  /** How a PDF's pictures are rendered when the options keep them (`removeBase64Images: false`). PDF only. */
  pictures?: PictureRendering | undefined;
  /**
   * What the router's sniffer learned from the bytes (bytes/sniff.ts): the real type, and the zip archive or
   * compound file it opened. The engine always sets it; a converter called directly reads it with `sniffedOf`.
   */
  sniffed?: Sniffed | undefined;
}

export type Converter = (input: ConvertInput) => Promise<DocumentModel>;
