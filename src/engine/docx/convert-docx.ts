/**
 * The Word converter (.docx, .docm, and any file whose content is a Word package, such as a .docx saved as .doc).
 *
 * The file is what the router's sniffer says it is (bytes/verdict.ts): another document type (a legacy binary
 * .doc, another Office package) is UNSUPPORTED_FILE; an encrypted Office file is ENCRYPTED_DOCUMENT; a zip cut
 * short or no Word package at all is CORRUPT_DOCUMENT; a package crossing the zip limits (bytes/zip.ts) is
 * DOCUMENT_TOO_COMPLEX. mammoth reads the package itself, so every part it may inflate is checked against the
 * zip limits before it gets the bytes, and every XML part must be well-formed (package-xml.ts: CORRUPT_DOCUMENT
 * naming the part and the line).
 *
 * mammoth turns the body into HTML with a style map that keeps heading levels (Heading 1-6, Title, Subtitle),
 * quotes and code styles; table rows marked "repeat as header row" (`w:tblHeader`) come out of mammoth as
 * `<thead>`/`<th>`, and a table without one gets its first row as the GFM header (tables.ts). Equations, which
 * mammoth drops, are converted to LaTeX first (equations.ts). Footnotes and endnotes come out of mammoth as a list
 * at the end, which the HTML path writes as GFM footnotes (`[^1]` and `[^1]: text`). Then the HTML path
 * (`htmlToModel`) makes the model with `source: 'docx'`; readability is not used (a Word document has no page
 * chrome), includeTags/excludeTags still apply to mammoth's HTML.
 *
 * Page headers and footers, which mammoth ignores, are read from their parts and added as `page_header` blocks
 * before the body and `page_footer` blocks after it (`page_number` when one is only a page number; identical ones
 * once), marked as furniture (left out of the Markdown when
 * onlyMainContent is on, the default). Metadata: title, author, subject, description, keywords, language,
 * lastModifiedBy, created, modified from docProps/core.xml. `rawHtml` is mammoth's HTML before cleaning.
 *
 * An empty document is not an error: the model has no blocks and the warning "the document has no text".
 */
import mammoth from 'mammoth';
import { sniffedOf } from '../bytes/sniff.js';
import { requirePackage } from '../bytes/verdict.js';
import type { ZipArchive } from '../bytes/zip.js';
import { EngineError } from '../engine-error.js';
import { htmlToModel } from '../html/convert-html.js';
import { TEXT_NODE, type DomDocument } from '../html/dom.js';
import { BASE64_IMAGE_PLACEHOLDER } from '../html/markdown.js';
import type { Converter, DocumentModel, ModelBlock } from '../model.js';
import { commentsSection, markCommentReferences, readComments, unescapeCommentMarkers } from './comments.js';
import { fillGridBefore, hasEquations, MATH_STYLE_MAP, replaceEquations } from './equations.js';
import { packageXmlInspector } from '../package-xml.js';
import { exposeTextBoxes } from './text-boxes.js';
import { DIAGRAM_STYLE_MAP, smartArtContent } from './smart-art.js';
import { chartContent } from './charts.js';
import { addDrawingContent } from './drawing-content.js';
import { exposeWrappedRuns } from './run-wrappers.js';
import { alignRaisedRuns } from './raised-runs.js';
import { DEEP_NESTING_WARNING, unwrapDeepNesting } from './deep-nesting.js';
import { escapeTextLines } from '../markdown-text.js';
import { removeLeftOutRuns } from './left-out-runs.js';
import { applyListStarts, writeListNumbers } from './list-numbers.js';
import { writeCheckBoxes } from './check-boxes.js';
import { writeRaisedText } from '../html/raised-text.js';
import { numberNotesInOrder } from './note-numbers.js';
import { breakLinesAtPageBreaks } from './page-breaks.js';
import { joinDropCaps } from './drop-caps.js';
import { unlinkBookmarkLinks } from './internal-links.js';
import { readNumberingDefinitions, type NumberingDefinitions } from './numbering-definitions.js';
import { readHiddenStyles } from './hidden-styles.js';
import { outlineHeadingStyles, outlineStyleMap } from './outline-styles.js';
import { defaultRunSize, readStyleSheet } from './style-sheet.js';
import { markVisualHeadings, VISUAL_HEADING_STYLE_MAP } from './visual-headings.js';
import { coreMetadata, headerFooterText, mainDocumentPart, parseRelationships, referencedHeaderFooterIds, type Relationship } from './package.js';

/**
 * Word's built-in list styles 2 to 5 ("List Bullet 2", "List Number 3", …) are the deeper levels of a list: each
 * numbers its paragraphs as the first level of a list of its own, set further in, so mammoth would run them into
 * the list above as items of its level. Mapped, each is an item that many lists deep.
 */
const LEVELLED_LIST_STYLES = [2, 3, 4, 5].flatMap((level) =>
  (['Bullet', 'Number'] as const).map((kind) => {
    const list = kind === 'Bullet' ? 'ul' : 'ol';
    return `p[style-name='List ${kind} ${level}'] => ${Array.from({ length: level }, () => `${list} > li`).join(' > ')}:fresh`;
  }),
);

/** Style map on top of mammoth's defaults (which already map Heading 1-6 to h1-h6). */
const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  'p.Title => h1:fresh',
  "p[style-name='Subtitle'] => h2:fresh",
  'p.Subtitle => h2:fresh',
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
  // LibreOffice's names for a quotation and for preformatted text (also what a web page's <blockquote> and <pre> become).
  "p[style-name='Quotations'] => blockquote > p:fresh",
  "p[style-name='Preformatted Text'] => pre:separator('\\n')",
  "p[style-name='Block Text'] => blockquote > p:fresh",
  "p[style-name='Code'] => pre:separator('\\n')",
  "p[style-name='HTML Preformatted'] => pre:separator('\\n')",
  "p[style-name='Source Code'] => pre:separator('\\n')",
  "r[style-name='HTML Code'] => code",
  "r[style-name='Code Char'] => code",
  "p[style-name='Caption'] => p.caption:fresh",
  'p.Caption => p.caption:fresh',
  ...LEVELLED_LIST_STYLES,
  ...MATH_STYLE_MAP,
  ...DIAGRAM_STYLE_MAP,
  // Comment references become links (comments.ts turns them into `[comment N]` markers).
  'comment-reference => sup',
];

/**
 * Table style references, dropped when the package has no styles part (a file cut short can lose it): mammoth looks
 * each one up in a table it makes only from that part, and fails on the first.
 */
function withoutTableStyles(xml: string): XmlRewrite {
  let count = 0;
  const rewritten = xml.replace(/<(?:\w+:)?tblStyle\b[^>]*\/>/g, () => {
    count++;
    return '';
  });
  return { xml: rewritten, count };
}

export const convertDocx: Converter = async (input) => {
  const sniffed = sniffedOf(input);
  const zip = requirePackage(sniffed, ['docx'], 'a Word document (.docx)');
  const options = input.options;
  const removeBase64Images = options.removeBase64Images ?? true;
  // mammoth inflates the XML parts it reads, and the pictures only when they are embedded; every XML part must be
  // well-formed (package-xml.ts).
  zip.check((name) => !removeBase64Images || /\.(?:xml|rels)$/i.test(name), packageXmlInspector(zip, 'office'));

  const packageParts = zip.readTexts(['_rels/.rels', 'docProps/core.xml']);
  const documentPart = mainDocumentPart(packageParts.get('_rels/.rels'));
  const relsPart = `${documentPart.slice(0, documentPart.lastIndexOf('/') + 1)}_rels/${documentPart.slice(documentPart.lastIndexOf('/') + 1)}.rels`;
  const documentParts = zip.readTexts([documentPart, relsPart]);
  // Read once: a document of many links holds as many relationships, and each related part is looked up in them.
  const relationships = parseRelationships(documentParts.get(relsPart) ?? '', documentPart);
  const documentXml = documentParts.get(documentPart);
  if (documentXml === undefined) throw new EngineError('CORRUPT_DOCUMENT', `the Word package has no main document part (${documentPart})`);

  // What mammoth gets wrong is fixed in the XML first, step by step: equations (dropped: LaTeX runs instead), rows
  // that start late (gridBefore: cells shifted left), text boxes drawn without a VML copy, SmartArt diagrams and
  // charts (their text dropped), runs inside elements mammoth does not read (simple fields, direction wrappers, ruby:
  // dropped); hidden text (directly or through a style) and unfilled content controls' prompts, which mammoth would
  // show, are removed; page and column breaks, which mammoth writes as nothing, become line breaks; a drop cap, a
  // paragraph of its own, joins its word again; numbered headings and items get their numbers (list-numbers.ts).
  // The package is rewritten only when a step changed something.
  const stylesXml = relatedPartText(zip, relationships, 'styles');
  const styleSheet = readStyleSheet(stylesXml);
  const headingStyles = outlineHeadingStyles(styleSheet);
  const steps: readonly ((xml: string) => XmlRewrite)[] = [
    (xml) => (stylesXml === undefined ? withoutTableStyles(xml) : { xml, count: 0 }),
    (xml) => (hasEquations(xml) ? replaceEquations(xml) : { xml, count: 0 }),
    fillGridBefore,
    exposeTextBoxes,
    (xml) => {
      const partById = (id: string) => relatedPartById(zip, relationships, id);
      return addDrawingContent(xml, (drawing, word) => smartArtContent(drawing, word, partById) ?? chartContent(drawing, word, partById));
    },
    exposeWrappedRuns,
    alignRaisedRuns,
    (xml) => removeLeftOutRuns(xml, readHiddenStyles(styleSheet)),
    breakLinesAtPageBreaks,
    joinDropCaps,
    (xml) => markVisualHeadings(xml, () => styleSheet ?? readStyleSheet(stylesXml, true), defaultRunSize(stylesXml)),
    (xml) => writeListNumbers(xml, numberingDefinitions(zip, relationships, stylesXml), new Set(headingStyles.keys())),
  ];
  // First: the steps after it, and mammoth, read nested elements recursively.
  const unwrapped = unwrapDeepNesting(documentXml);
  let preparedXml = unwrapped.xml;
  let changes = unwrapped.count;
  for (const step of steps) {
    const rewritten = step(preparedXml);
    preparedXml = rewritten.xml;
    changes += rewritten.count;
  }
  // A package cut short is read through its repaired directory (zip-repair.ts), mammoth included.
  const mammothInput = changes > 0 ? zip.rewrite(new Map([[documentPart, preparedXml]])) : (sniffed.repaired?.bytes ?? input.bytes);

  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(mammothInput.buffer, mammothInput.byteOffset, mammothInput.byteLength) },
      {
        // A template's own heading styles (outline-levelled, or based on a heading style) read as headings too.
        styleMap: [...STYLE_MAP, ...outlineStyleMap(headingStyles), ...VISUAL_HEADING_STYLE_MAP],
        ...(removeBase64Images
          ? // The image bytes are never read: the HTML path would replace their data: URI anyway.
            { convertImage: mammoth.images.imgElement(async () => ({ src: BASE64_IMAGE_PLACEHOLDER })) }
          : {}),
      },
    );
    html = result.value;
  } catch (error) {
    throw new EngineError('CORRUPT_DOCUMENT', `the Word document cannot be read: ${messageOf(error)}`, { cause: error });
  }

  let commentOrder: string[] = [];
  const model = htmlToModel(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`, options, {
    source: 'docx',
    mainContent: 'none',
    footnotes: true,
    tables: 'document',
    metadata: coreMetadata(packageParts.get('docProps/core.xml')),
    rawHtml: false,
    ...(unwrapped.count > 0 ? { warnings: [DEEP_NESTING_WARNING] } : {}),
    transform: (document) => {
      repairLinks(document);
      numberNotesInOrder(document);
      applyListStarts(document);
      writeCheckBoxes(document);
      writeRaisedText(document);
      liftItemsOfNoText(document);
      commentOrder = markCommentReferences(document);
      unlinkBookmarkLinks(document);
    },
  });
  model.rawHtml = html;
  addComments(model, zip, relationships, commentOrder);
  addHeadersAndFooters(model, zip, documentXml, relationships);
  return model;
};

/** A part the main document relates to by id (a diagram's data part), read; unreadable or missing: undefined. */
function relatedPartById(zip: ZipArchive, relationships: readonly Relationship[], id: string): string | undefined {
  const part = relationships.find((relationship) => !relationship.external && relationship.id === id);
  if (part === undefined) return undefined;
  try {
    return zip.readTexts([part.target]).get(part.target);
  } catch {
    return undefined;
  }
}

/** A part the main document relates to by kind (`styles`, `numbering`), read; unreadable or missing: undefined. */
function relatedPartText(zip: ZipArchive, relationships: readonly Relationship[], kind: string): string | undefined {
  const part = relationships.find((relationship) => !relationship.external && relationship.kind === kind);
  if (part === undefined) return undefined;
  try {
    return zip.readTexts([part.target]).get(part.target);
  } catch {
    return undefined;
  }
}

/** The numbering part the main document relates to, with its styles; unreadable or missing ones count as empty. */
function numberingDefinitions(zip: ZipArchive, relationships: readonly Relationship[], stylesXml: string | undefined): NumberingDefinitions {
  const numberingXml = relatedPartText(zip, relationships, 'numbering');
  if (numberingXml === undefined) return readNumberingDefinitions(undefined, undefined);
  return readNumberingDefinitions(numberingXml, stylesXml);
}

/** A step's document XML, and how many places it changed. */
interface XmlRewrite {
  xml: string;
  count: number;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A list item holding nothing but a deeper list (a "List Bullet 2" paragraph under a paragraph of text rather than
 * under an item, LEVELLED_LIST_STYLES) gives its place to that list's items: `- - item` reads as `- item`.
 */
function liftItemsOfNoText(document: DomDocument): void {
  for (const item of [...document.querySelectorAll('li')]) {
    const list = item.firstElementChild;
    if (!list || list.nextElementSibling || (list.tagName !== 'UL' && list.tagName !== 'OL')) continue;
    if ([...item.childNodes].some((node) => node.nodeType === TEXT_NODE && node.textContent?.trim())) continue;
    const parent = item.parentNode;
    if (!parent) continue;
    for (const inner of [...list.children]) parent.insertBefore(inner, item);
    item.remove();
  }
}

/**
 * Hyperlinks built from HYPERLINK fields can carry the field's switches in mammoth's href
 * (`http://host/page" \o "tooltip`): keep the URL only.
 */
function repairLinks(document: DomDocument): void {
  for (const anchor of document.querySelectorAll('a[href]')) {
    const href = anchor.getAttribute('href') ?? '';
    const cut = href.search(/"|\s\\[a-z]\b/);
    if (cut > 0) anchor.setAttribute('href', href.slice(0, cut).trim());
  }
}

/** Comment markers as written, and the comments listed in a marked section after the body. */
function addComments(model: DocumentModel, zip: ZipArchive, relationships: readonly Relationship[], order: string[]): void {
  const part = relationships.find(
    (relationship) => !relationship.external && relationship.kind === 'comments',
  );
  if (part === undefined) return;
  let comments;
  try {
    comments = readComments(zip.readText(part.target));
  } catch {
    return;
  }
  for (const page of model.pages) {
    for (const block of page.blocks) block.markdown = unescapeCommentMarkers(block.markdown);
  }
  const section = commentsSection(comments, order);
  if (section === null) return;
  if (model.pages.length === 0) model.pages.push({ pageNumber: 1, width: null, height: null, status: 'ok', blocks: [] });
  model.pages[model.pages.length - 1]?.blocks.push({ type: 'text', label: 'comments', markdown: section, bbox: null, source: 'docx' });
}

function addHeadersAndFooters(
  model: DocumentModel,
  zip: ZipArchive,
  documentXml: string,
  documentRelationships: readonly Relationship[],
): void {
  const relationships = documentRelationships.filter(
    (relationship) => !relationship.external && (relationship.kind === 'header' || relationship.kind === 'footer'),
  );
  if (relationships.length === 0) return;
  const referenced = referencedHeaderFooterIds(documentXml);
  const order = (kind: 'header' | 'footer') => {
    const ids = kind === 'header' ? referenced.headers : referenced.footers;
    const ofKind = relationships.filter((relationship) => relationship.kind === kind);
    const byReference = ids.flatMap((id) => ofKind.filter((relationship) => relationship.id === id));
    return byReference.length > 0 ? byReference : ofKind;
  };
  let texts: Map<string, string>;
  try {
    texts = zip.readTexts(relationships.map((relationship) => relationship.target));
  } catch {
    return;
  }
  const blocksFor = (kind: 'header' | 'footer'): ModelBlock[] => {
    const seen = new Set<string>();
    const blocks: ModelBlock[] = [];
    for (const relationship of order(kind)) {
      const partXml = texts.get(relationship.target);
      if (partXml === undefined) continue;
      const text = headerFooterText(partXml);
      if (text === '' || seen.has(text)) continue;
      seen.add(text);
      blocks.push({
        // A header or footer that is only a page number ("3", "Page 3", "3 of 10") is typed as one.
        type: PAGE_NUMBER.test(text) ? 'page_number' : kind === 'header' ? 'page_header' : 'page_footer',
        label: null,
        markdown: escapeTextLines(text),
        bbox: null,
        source: 'docx',
        furniture: true,
      });
    }
    return blocks;
  };
  const page = model.pages[0];
  if (page === undefined) return;
  const headers = blocksFor('header');
  const footers = blocksFor('footer');
  page.blocks = [...headers, ...page.blocks, ...footers];
}

const PAGE_NUMBER = /^(?:page\s+)?\d+(?:\s*(?:of|\/)\s*\d+)?$/i;

