/**
 * The HTML converter (.html, .htm, .xhtml), and `htmlToModel`, the HTML path other converters reuse (DOCX).
 *
 * bytes → text (decode.ts: BOM, declared charset, UTF-8 check, jschardet) → linkedom document → streamed-in content
 * moved into place (streamed.ts), a script-drawn page's `<noscript>` content shown (noscript.ts) → metadata from the head → cleaning (clean.ts) → `includeTags`/`excludeTags` →
 * `onlyMainContent` (main-content.ts) → blocks (blocks.ts, turndown per block) on one page with no geometry. `rawHtml` is the decoded text exactly as uploaded;
 * `html` is the cleaned document; `links` and `images` come from the cleaned document, so they follow
 * `onlyMainContent` and the tag filters, as the hosted API's do.
 *
 * With `includeTags`, the caller has said what the content is: `onlyMainContent` is not applied on top of it.
 * A page with no text gives a model without blocks and the warning "the document has no text", not an error.
 */
import type { ParseOptions } from '../../contract/options.js';
import { EngineError } from '../engine-error.js';
import type { Converter, DocumentModel, MetadataValue } from '../model.js';
import { type DocumentType, sniffedOf, TYPE_DESCRIPTIONS } from '../bytes/sniff.js';
import { refusal } from '../bytes/verdict.js';
import { splitBlocks } from './blocks.js';
import { authorBiographies, authorNames } from './author-bio.js';
import { jsonLdArticleBody, jsonLdNodes } from './boilerplate.js';
import { jsonLdFaq } from './faq.js';
import { applyTagFilters, baseUrlOf, collectImages, collectLinks, removeHead, removeNonContent, rewriteUrls } from './clean.js';
import { decodeHtmlBytes } from './decode.js';
import { FLATTENED_WARNING, wasFlattened } from './depth-cap.js';
import { decodingWarnings } from '../bytes/text.js';
import { repairEntityDoubleEncoding } from './double-encoding.js';
import { type DomDocument, type DomElement, parseDocument } from './dom.js';
import { keepMainContent, stripMainContentIds } from './main-content.js';
import { showNoscriptContent } from './noscript.js';
import { applyStreamedContent } from './streamed.js';
import { createMarkdownConverter } from './markdown.js';
import { writeMathAsLatex } from './mathml.js';
import type { TableOrigin } from './tables.js';
import { extractHtmlMetadata } from './metadata.js';

/** The options the HTML path acts on (a full ParseOptions object fits). */
export type HtmlPathOptions = Partial<Pick<ParseOptions, 'onlyMainContent' | 'includeTags' | 'excludeTags' | 'removeBase64Images'>>;

export interface HtmlToModelExtra {
  /** `source` of every block: 'html' (default), 'docx'... */
  source?: string;
  /**
   * How `onlyMainContent` finds the main content: 'readability' (web pages, the default) or 'none' (documents
   * converted to HTML, such as DOCX, which have no page chrome to remove).
   */
  mainContent?: 'readability' | 'none';
  /** Recognise mammoth's footnote markup (DOCX path). */
  footnotes?: boolean;
  /** Where the tables were made: 'document' for a word processor's (DOCX, ODT), 'web' (default) otherwise. */
  tables?: TableOrigin;
  /** Metadata merged over what the HTML head gives (a DOCX's core properties). */
  metadata?: Record<string, MetadataValue>;
  /** Whether to set `rawHtml` (default true: the input string). */
  rawHtml?: boolean;
  /** Warnings to carry into the model. */
  warnings?: string[];
  /** Called on the parsed document before any cleaning (the DOCX path repairs mammoth's links here). */
  transform?: (document: DomDocument) => void;
}

export const NO_TEXT_WARNING = 'the document has no text';

export function htmlToModel(html: string, options: HtmlPathOptions = {}, extra: HtmlToModelExtra = {}): DocumentModel {
  const onlyMainContent = options.onlyMainContent ?? true;
  const removeBase64Images = options.removeBase64Images ?? true;
  const warnings = [...(extra.warnings ?? [])];

  const document = parseDocument(html);
  if (wasFlattened(document)) warnings.push(FLATTENED_WARNING);
  extra.transform?.(document);
  // Equations in MathML read as LaTeX, not as their tokens run together (mathml.ts).
  writeMathAsLatex(document);
  // Before scripts go: their moves put the streamed-in article where a browser shows it.
  applyStreamedContent(document);
  // A page drawn by scripts that gives readers without scripts its content in <noscript> (noscript.ts).
  showNoscriptContent(document);
  // Once every text the page shows is in its tree (streamed in, or parsed out of <noscript>).
  warnings.push(...decodingWarnings({ repairedRuns: repairEntityDoubleEncoding(html, document) }));
  const metadata: Record<string, MetadataValue> = { ...extractHtmlMetadata(document), ...(extra.metadata ?? {}) };
  const base = baseUrlOf(document);
  // The page's JSON-LD, parsed once, before scripts are removed.
  const jsonLd = jsonLdNodes(document);
  const articleBody = jsonLdArticleBody(jsonLd);
  const biographies = authorBiographies(jsonLd);
  const faq = jsonLdFaq(jsonLd);

  removeNonContent(document);
  const body = document.body as DomElement;
  rewriteUrls(body, base, removeBase64Images);
  warnings.push(...applyTagFilters(document, options.includeTags, options.excludeTags));
  const hasInclude = (options.includeTags ?? []).some((selector) => selector.trim() !== '');
  if (onlyMainContent && !hasInclude && (extra.mainContent ?? 'readability') === 'readability') {
    keepMainContent(document, articleBody, biographies, faq, authorNames(metadata['author']));
    stripMainContentIds(body);
  }
  removeHead(document);

  // The parser gives each entity a text node of its own (`a &lt; b` is three); escaping reads a text whole.
  if (html.includes('&')) body.normalize();
  const markdown = createMarkdownConverter(document);
  const blocks = splitBlocks(body, markdown, { source: extra.source ?? 'html', footnotes: extra.footnotes ?? false, tables: extra.tables ?? 'web' });
  if (blocks.length === 0 && !warnings.includes(NO_TEXT_WARNING)) warnings.push(NO_TEXT_WARNING);

  const model: DocumentModel = {
    pages: [{ pageNumber: 1, width: null, height: null, status: 'ok', blocks }],
    metadata,
    html: serialise(document.documentElement),
    links: collectLinks(body),
    images: collectImages(body),
  };
  if (extra.rawHtml ?? true) model.rawHtml = html;
  if (warnings.length > 0) model.warnings = warnings;
  return model;
}

export const convertHtml: Converter = async (input) => {
  const { real } = sniffedOf(input);
  if (real.kind === 'document' && CONTAINERS.includes(real.type)) {
    throw new EngineError('UNSUPPORTED_FILE', `the file is not a web page: its content is ${TYPE_DESCRIPTIONS[real.type]}`);
  }
  if (real.kind === 'encrypted' || real.kind === 'damaged' || real.kind === 'too-large') throw refusal(real, 'a web page');
  const decoded = decodeHtmlBytes(input.bytes);
  // Not the guess of a page's encoding, which browsers make without a word: only characters encoded twice.
  const warnings = decodingWarnings({ repairedRuns: decoded.repairedRuns });
  return htmlToModel(decoded.text, input.options, warnings.length > 0 ? { warnings } : {});
};

/** Documents that are no text: a web page's converter never decodes them as one. */
const CONTAINERS: readonly DocumentType[] = ['pdf', 'docx', 'xlsx', 'xlsb', 'pptx', 'odt', 'ods', 'odp', 'epub', 'doc', 'xls', 'ppt'];

function serialise(root: DomElement | null): string {
  if (root === null) return '';
  return root.outerHTML;
}
