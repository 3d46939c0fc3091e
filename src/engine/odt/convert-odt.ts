/**
 * The OpenDocument text converter (.odt; a flat single-XML OpenDocument text named .odt is read as well).
 *
 * The file is what the router's sniffer says it is (bytes/verdict.ts): another document type (an OpenDocument
 * spreadsheet, a legacy Office binary, plain text...) → UNSUPPORTED_FILE; no document, a damaged or cut-short zip →
 * CORRUPT_DOCUMENT; a manifest with encryption data (a password-protected document) → ENCRYPTED_DOCUMENT; parts
 * beyond the zip limits (bytes/zip.ts) → DOCUMENT_TOO_COMPLEX; an XML part that is not well-formed
 * (package-xml.ts) → CORRUPT_DOCUMENT naming it and the line. Then content XML nested too deep →
 * DOCUMENT_TOO_COMPLEX, a content.xml whose body is another kind's → UNSUPPORTED_FILE.
 *
 * content.xml's office:text becomes HTML page by page (body-html.ts: headings, lists, tables with spans, notes,
 * frames, soft page breaks), which the HTML path turns into blocks with `source: 'odt'` (html-pages.ts) exactly
 * as it does for DOCX: the same GFM tables (spanned text repeated in every covered cell), footnotes as `[^N]` with
 * their `[^N]: text` blocks at the end of the last page, endnotes as `[^eN]`. Headers and footers of the used
 * master pages (furniture.ts) open and close every page as furniture. Metadata from meta.xml (metadata.ts).
 * Pictures are `<Base64-Image-Removed>` unless removeBase64Images is false, then data: URIs of the package's
 * pictures. `rawHtml` is the HTML generated from the document.
 *
 * An empty document is not an error: the model has no blocks and the warning "the document has no text".
 */
import { sniffedOf } from '../bytes/sniff.js';
import { requireType } from '../bytes/verdict.js';
import type { ZipArchive } from '../bytes/zip.js';
import { EngineError } from '../engine-error.js';
import { htmlDocument, htmlPagesToModel } from '../html-pages.js';
import { writeRaisedText } from '../html/raised-text.js';
import { packageObjects } from './objects.js';
import { BASE64_IMAGE_PLACEHOLDER } from '../html/markdown.js';
import { packageImageUri } from '../package-images.js';
import type { ConvertInput, Converter, DocumentModel } from '../model.js';
import { checkPackageXml, describeDefect, xmlDefect } from '../package-xml.js';
import { bodyToHtml, type ImageSource } from './body-html.js';
import { pageFurniture } from './furniture.js';
import { odfMetadata } from './metadata.js';
import { OdfStyles } from './styles.js';
import { childPath, firstChild, parseXml, XmlTooDeepError, type XmlElement } from './xml-tree.js';

const WHAT = 'the OpenDocument text';

const OTHER_ODF_KINDS: Record<string, string> = {
  spreadsheet: 'an OpenDocument spreadsheet',
  presentation: 'an OpenDocument presentation',
  drawing: 'an OpenDocument drawing',
  chart: 'an OpenDocument chart',
  image: 'an OpenDocument image',
  formula: 'an OpenDocument formula',
  database: 'an OpenDocument database',
  graphics: 'an OpenDocument drawing',
};

interface OdfParts {
  content: XmlElement;
  styles: XmlElement | undefined;
  meta: XmlElement | undefined;
  package: ZipArchive | null;
}

export const convertOdt: Converter = async (input) => {
  const parts = readDocument(input);
  const { content, styles: stylesRoot, meta } = parts;

  const body = firstChild(content, 'body');
  const text = firstChild(body, 'text');
  if (text === undefined) {
    const other = body === undefined ? undefined : Object.keys(OTHER_ODF_KINDS).find((kind) => firstChild(body, kind) !== undefined);
    if (other !== undefined) throw new EngineError('UNSUPPORTED_FILE', `the file is ${OTHER_ODF_KINDS[other]}, not a text document`);
    throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} has no text body (office:body/office:text is missing from content.xml)`);
  }

  const commonStyles = firstChild(stylesRoot, 'styles');
  const styles = new OdfStyles(commonStyles, firstChild(content, 'automatic-styles'), [
    firstChild(content, 'font-face-decls'),
    firstChild(stylesRoot, 'font-face-decls'),
  ]);
  const removeBase64Images = input.options.removeBase64Images ?? true;
  const bodyHtml = bodyToHtml(text, styles, imageSource(parts.package, removeBase64Images), packageObjects(parts.package));

  const pages = bodyHtml.pages.map((html, index) => (index === bodyHtml.pages.length - 1 ? html + bodyHtml.notes : html));
  const { model } = htmlPagesToModel(
    pages.map((html) => (html === '' ? '' : htmlDocument(html))),
    input.options,
    {
      source: 'odt',
      footnotes: true,
      tables: 'document',
      metadata: odfMetadata(firstChild(meta, 'meta'), commonStyles),
      warnings: bodyHtml.warnings,
      transform: writeRaisedText,
    },
  );
  model.rawHtml = pages.join('\n');
  addFurniture(model, stylesRoot, content);
  return model;
};

/** The three XML parts of a package, or the one flat document standing for all three. */
function readDocument(input: ConvertInput): OdfParts {
  const sniffed = sniffedOf(input);
  requireType(sniffed, ['odt'], 'an OpenDocument text document (.odt)');
  if (sniffed.zip !== undefined) return readPackage(sniffed.zip);
  const root = parse(UTF8.decode(input.bytes), 'the flat OpenDocument XML');
  if (root?.name === 'document' && firstChild(root, 'body') !== undefined) return { content: root, styles: root, meta: root, package: null };
  throw new EngineError('CORRUPT_DOCUMENT', `not an OpenDocument text: the flat OpenDocument XML has no office:body`);
}

function readPackage(zip: ZipArchive): OdfParts {
  checkPackageXml(zip, 'office');
  const texts = zip.readTexts(['content.xml', 'styles.xml', 'meta.xml']);
  const content = parse(texts.get('content.xml') ?? '', 'its content.xml');
  if (content === null) throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} has an empty content.xml`);
  const optional = (name: string): XmlElement | undefined => {
    const text = texts.get(name);
    if (text === undefined) return undefined;
    try {
      return parse(text, name) ?? undefined;
    } catch (error) {
      // Styles and metadata are a bonus: well-formed (checked above) but unreadable, one costs formatting, not the text.
      if (error instanceof EngineError && error.apiCode === 'CORRUPT_DOCUMENT') return undefined;
      throw error;
    }
  };
  return { content, styles: optional('styles.xml'), meta: optional('meta.xml'), package: zip };
}

const UTF8 = new TextDecoder('utf-8');

function parse(xml: string, what: string): XmlElement | null {
  const defect = xmlDefect(xml);
  if (defect !== null) throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} is damaged: ${what} ${describeDefect(defect)}`);
  try {
    return parseXml(xml);
  } catch (error) {
    if (error instanceof XmlTooDeepError) throw new EngineError('DOCUMENT_TOO_COMPLEX', `${WHAT} is too complex: ${what} has ${error.message}`);
    // Well-formed, yet the parser refuses it: say so without its words.
    throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} is damaged: ${what} cannot be read as OpenDocument XML`, { cause: error });
  }
}

function imageSource(zip: ZipArchive | null, removeBase64Images: boolean): ImageSource {
  return ({ href, base64 }) => {
    if (base64 !== undefined) return removeBase64Images ? BASE64_IMAGE_PLACEHOLDER : `data:image/png;base64,${base64.replace(/\s+/g, '')}`;
    const reference = (href ?? '').trim();
    if (reference === '') return null;
    if (/^[a-z][a-z0-9+.-]*:/i.test(reference)) return reference;
    if (removeBase64Images || zip === null) return BASE64_IMAGE_PLACEHOLDER;
    return packageImageUri(zip, reference.replace(/^\.\//, '')) ?? BASE64_IMAGE_PLACEHOLDER;
  };
}

/** Headers open and footers close every page (page furniture, left out of the Markdown by onlyMainContent). */
function addFurniture(model: DocumentModel, stylesRoot: XmlElement | undefined, content: XmlElement): void {
  const { headers, footers } = pageFurniture(childPath(stylesRoot, ['master-styles']), [
    firstChild(stylesRoot, 'styles'),
    firstChild(stylesRoot, 'automatic-styles'),
    firstChild(content, 'automatic-styles'),
  ]);
  if (headers.length + footers.length === 0) return;
  for (const page of model.pages) {
    page.blocks = [...headers.map((block) => ({ ...block })), ...page.blocks, ...footers.map((block) => ({ ...block }))];
  }
}
