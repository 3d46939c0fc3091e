/**
 * The OpenDocument text converter (.odt; a flat single-XML OpenDocument text named .odt is read as well).
 *
 * The package is checked first: not a zip and not XML → CORRUPT_DOCUMENT (UNSUPPORTED_FILE for a legacy Office
 * binary); a damaged or cut-short zip → CORRUPT_DOCUMENT; a manifest with encryption data for content.xml (a
 * password-protected document) → ENCRYPTED_DOCUMENT; another OpenDocument kind (spreadsheet, presentation...) →
 * UNSUPPORTED_FILE; parts beyond the zip bounds (zip-package.ts) or XML nested too deep → DOCUMENT_TOO_COMPLEX.
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
import { strFromU8 } from 'fflate';
import { EngineError } from '../engine-error.js';
import { htmlDocument, htmlPagesToModel } from '../html-pages.js';
import { BASE64_IMAGE_PLACEHOLDER } from '../html/markdown.js';
import type { Converter, DocumentModel } from '../model.js';
import { isOle, isZip } from '../sniff.js';
import { openZipPackage, type ZipPackage } from '../zip-package.js';
import { bodyToHtml, type ImageSource } from './body-html.js';
import { pageFurniture } from './furniture.js';
import { odfMetadata } from './metadata.js';
import { OdfStyles } from './styles.js';
import { childPath, firstChild, parseXml, XmlTooDeepError, type XmlElement } from './xml-tree.js';

const WHAT = 'the OpenDocument text';
const TEXT_MIMETYPE = 'application/vnd.oasis.opendocument.text';
/** Pictures embedded as data: URIs (removeBase64Images false) up to this size each. */
const MAX_EMBEDDED_IMAGE_BYTES = 16 * 1024 * 1024;

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
  package: ZipPackage | null;
}

export const convertOdt: Converter = async (input) => {
  const parts = readDocument(input.bytes);
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
  const bodyHtml = bodyToHtml(text, styles, imageSource(parts.package, removeBase64Images));

  const pages = bodyHtml.pages.map((html, index) => (index === bodyHtml.pages.length - 1 ? html + bodyHtml.notes : html));
  const { model } = htmlPagesToModel(
    pages.map((html) => (html === '' ? '' : htmlDocument(html))),
    input.options,
    { source: 'odt', footnotes: true, metadata: odfMetadata(firstChild(meta, 'meta'), commonStyles), warnings: bodyHtml.warnings },
  );
  model.rawHtml = pages.join('\n');
  addFurniture(model, stylesRoot, content);
  return model;
};

/** The three XML parts of a package, or the one flat document standing for all three. */
function readDocument(bytes: Uint8Array): OdfParts {
  if (isZip(bytes)) return readPackage(bytes);
  if (isOle(bytes)) {
    throw new EngineError('UNSUPPORTED_FILE', 'the file is a legacy Office binary (OLE compound file, such as a Word 97-2003 .doc), not an OpenDocument text');
  }
  if (startsWithMarkup(bytes)) {
    const root = parse(strFromU8(bytes), 'the flat OpenDocument XML');
    if (root?.name === 'document' && firstChild(root, 'body') !== undefined) return { content: root, styles: root, meta: root, package: null };
  }
  throw new EngineError('CORRUPT_DOCUMENT', `not an OpenDocument text: an .odt file is a zip package (or one OpenDocument XML document) and this file is neither`);
}

function readPackage(bytes: Uint8Array): OdfParts {
  const zip = openZipPackage(bytes, WHAT);
  const mimetype = (zip.readText('mimetype') ?? '').trim();
  if (mimetype !== '' && !mimetype.startsWith(TEXT_MIMETYPE)) {
    const kind = /opendocument\.([a-z]+)/.exec(mimetype)?.[1];
    const described = kind !== undefined ? OTHER_ODF_KINDS[kind] : undefined;
    if (described !== undefined) throw new EngineError('UNSUPPORTED_FILE', `the file is ${described}, not a text document`);
    if (mimetype === 'application/epub+zip') throw new EngineError('UNSUPPORTED_FILE', 'the file is an EPUB book, not an OpenDocument text');
  }
  if (isEncrypted(zip.readText('META-INF/manifest.xml'))) {
    throw new EngineError('ENCRYPTED_DOCUMENT', 'the document is password-protected (its content is encrypted); remove the password and try again');
  }
  if (!zip.has('content.xml')) {
    if (zip.has('word/document.xml')) throw new EngineError('UNSUPPORTED_FILE', 'the file is a Word document, not an OpenDocument text');
    if (zip.has('META-INF/container.xml')) throw new EngineError('UNSUPPORTED_FILE', 'the file is an EPUB book, not an OpenDocument text');
    throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} has no content.xml in its zip package`);
  }
  const texts = zip.read(['content.xml', 'styles.xml', 'meta.xml']);
  const content = parse(strFromU8(texts.get('content.xml') ?? new Uint8Array()), 'its content.xml');
  if (content === null) throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} has an empty content.xml`);
  const optional = (name: string): XmlElement | undefined => {
    const data = texts.get(name);
    if (data === undefined) return undefined;
    try {
      return parse(strFromU8(data), name) ?? undefined;
    } catch (error) {
      // Styles and metadata are a bonus: a damaged one costs formatting, not the text.
      if (error instanceof EngineError && error.apiCode === 'CORRUPT_DOCUMENT') return undefined;
      throw error;
    }
  };
  return { content, styles: optional('styles.xml'), meta: optional('meta.xml'), package: zip };
}

function parse(xml: string, what: string): XmlElement | null {
  try {
    return parseXml(xml);
  } catch (error) {
    if (error instanceof XmlTooDeepError) throw new EngineError('DOCUMENT_TOO_COMPLEX', `${WHAT} is too complex: ${what} has ${error.message}`);
    throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} is damaged: ${what} is not well-formed XML (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
}

/** Whether the manifest lists encryption data for content.xml (or an encrypted package holding everything). */
function isEncrypted(manifest: string | undefined): boolean {
  if (manifest === undefined) return false;
  let root: XmlElement | null;
  try {
    root = parseXml(manifest);
  } catch {
    return /<(?:\w+:)?encryption-data\b/.test(manifest);
  }
  if (root === null) return false;
  for (const entry of root.children) {
    if (typeof entry === 'string' || entry.name !== 'file-entry') continue;
    const path = entry.attrs['full-path'] ?? '';
    if ((path === 'content.xml' || path === 'encrypted-package') && firstChild(entry, 'encryption-data') !== undefined) return true;
  }
  return false;
}

function startsWithMarkup(bytes: Uint8Array): boolean {
  let index = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (index < bytes.length && index < 1024 && (bytes[index] === 0x20 || bytes[index] === 0x0a || bytes[index] === 0x0d || bytes[index] === 0x09)) index += 1;
  return bytes[index] === 0x3c;
}

function imageSource(zip: ZipPackage | null, removeBase64Images: boolean): ImageSource {
  return ({ href, base64 }) => {
    if (base64 !== undefined) return removeBase64Images ? BASE64_IMAGE_PLACEHOLDER : `data:image/png;base64,${base64.replace(/\s+/g, '')}`;
    const reference = (href ?? '').trim();
    if (reference === '') return null;
    if (/^[a-z][a-z0-9+.-]*:/i.test(reference)) return reference;
    if (removeBase64Images || zip === null) return BASE64_IMAGE_PLACEHOLDER;
    const name = decodePath(reference.replace(/^\.\//, ''));
    const size = zip.sizeOf(name);
    if (size === undefined || size > MAX_EMBEDDED_IMAGE_BYTES) return BASE64_IMAGE_PLACEHOLDER;
    const data = zip.read([name]).get(name);
    if (data === undefined) return BASE64_IMAGE_PLACEHOLDER;
    return `data:${mimeType(name)};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
  };
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function mimeType(name: string): string {
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  const types: Record<string, string> = {
    png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', svg: 'image/svg+xml', bmp: 'image/bmp',
    webp: 'image/webp', tif: 'image/tiff', tiff: 'image/tiff', wmf: 'image/wmf', emf: 'image/emf',
  };
  return types[extension] ?? 'application/octet-stream';
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
