/**
 * A document made of several HTML documents, one per page (the pages of an OpenDocument text, the chapters of an
 * EPUB book), through the HTML path (`htmlToModel`): each page's blocks on its own ModelPage, the cleaned HTML of
 * the pages joined into one document, links and images gathered in order. Across the whole document only the
 * first `h1` is the `title` block; later ones are `section_header` blocks. An empty page is a page without blocks.
 * A document without any block gets the HTML path's "no text" warning once.
 */
import { htmlToModel, type HtmlPathOptions, NO_TEXT_WARNING } from './html/convert-html.js';
import type { DomDocument } from './html/dom.js';
import type { TableOrigin } from './html/tables.js';
import type { DocumentModel, MetadataValue, ModelPage } from './model.js';

export interface HtmlPagesExtra {
  source: string;
  /** Recognise mammoth-style footnote markup (`li#footnote-N`, `a#footnote-ref-N`). */
  footnotes?: boolean;
  /** Where the pages' tables were made (html/tables.ts): 'document' for OpenDocument text, 'web' for EPUB. */
  tables?: TableOrigin;
  /** The document's metadata (the pages' own `<head>` metadata is returned per page, not merged in). */
  metadata: Record<string, MetadataValue>;
  warnings?: string[];
  /** Called on each page's parsed document before any cleaning, with the page's index. */
  transform?: (document: DomDocument, index: number) => void;
}

export interface HtmlPagesResult {
  model: DocumentModel;
  /** What each page's `<head>` said (its `<title>`...), by page index; empty for an empty page. */
  pageMetadata: Record<string, MetadataValue>[];
}

export function htmlPagesToModel(documents: readonly string[], options: HtmlPathOptions, extra: HtmlPagesExtra): HtmlPagesResult {
  const pages: ModelPage[] = [];
  const pageMetadata: Record<string, MetadataValue>[] = [];
  const bodies: string[] = [];
  const links = new Set<string>();
  const images = new Set<string>();
  const warnings = new Set<string>(extra.warnings ?? []);
  let titleSeen = false;
  documents.forEach((html, index) => {
    const page: ModelPage = { pageNumber: index + 1, width: null, height: null, status: 'ok', blocks: [] };
    pages.push(page);
    if (html.trim() === '') {
      pageMetadata.push({});
      return;
    }
    const model = htmlToModel(html, options, {
      source: extra.source,
      mainContent: 'none',
      footnotes: extra.footnotes ?? false,
      tables: extra.tables ?? 'web',
      rawHtml: false,
      ...(extra.transform ? { transform: (document: DomDocument) => extra.transform?.(document, index) } : {}),
    });
    pageMetadata.push(model.metadata);
    for (const block of model.pages.flatMap((modelPage) => modelPage.blocks)) {
      if (block.type === 'title') {
        if (titleSeen) block.type = 'section_header';
        titleSeen = true;
      }
      page.blocks.push(block);
    }
    const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(model.html ?? '');
    if (body?.[1] !== undefined && body[1].trim() !== '') bodies.push(body[1]);
    for (const link of model.links ?? []) links.add(link);
    for (const image of model.images ?? []) images.add(image);
    for (const warning of model.warnings ?? []) if (warning !== NO_TEXT_WARNING) warnings.add(warning);
  });
  if (pages.every((page) => page.blocks.length === 0)) warnings.add(NO_TEXT_WARNING);
  const model: DocumentModel = {
    pages,
    metadata: { ...extra.metadata },
    html: `<html><body>${bodies.join('\n')}</body></html>`,
    links: [...links],
    images: [...images],
  };
  if (warnings.size > 0) model.warnings = [...warnings];
  return { model, pageMetadata };
}

/** Wraps body content in a minimal HTML document. */
export function htmlDocument(body: string): string {
  return `<!DOCTYPE html><html><head></head><body>${body}</body></html>`;
}
