/**
 * The EPUB converter (EPUB 2 and 3).
 *
 * META-INF/container.xml names the package document (OPF; when the container is missing, the package's only
 * .opf file is used). The chapters are the spine's documents in spine order, linear ones first and then those
 * marked `linear="no"` (notes, answer keys...: kept, after the main flow, rather than lost). The EPUB 3
 * navigation document is skipped (it is the table of contents, not content; the EPUB 2 NCX is never in the
 * spine), as are spine items that are not (X)HTML, such as SVG pages, with a warning.
 *
 * Each chapter goes through the HTML path (html-pages.ts → `htmlToModel`, readability off: a chapter has no page
 * chrome) and becomes one ModelPage, numbered in reading order from 1. A chapter with text but no heading gets its
 * title as a `## ` heading: the table of contents entry pointing at the whole file, else its `<title>` when that
 * is neither the book's title nor shared with another chapter. Only the book's first `h1` is the `title` block.
 * Links and image sources stay as written in the chapters (relative to them).
 *
 * Metadata from the OPF: title, author (dc:creator, an array when there are several), language, description,
 * publisher, keywords (dc:subject).
 *
 * Errors: first what the router's sniffer says of the file (bytes/verdict.ts): no document or a damaged zip →
 * CORRUPT_DOCUMENT; another document type → UNSUPPORTED_FILE; a package beyond the zip limits (bytes/zip.ts) →
 * DOCUMENT_TOO_COMPLEX. Then an XML part that is not well-formed (the container, the package document, the NCX and
 * the other .xml parts; chapters are XHTML read as HTML) → CORRUPT_DOCUMENT naming it and the line
 * (package-xml.ts); META-INF/encryption.xml listing content documents (DRM) → ENCRYPTED_DOCUMENT
 * (obfuscated fonts alone are fine); no package document, no spine, or a spine naming no readable document →
 * CORRUPT_DOCUMENT with the cause. A book cut short (bytes/zip-repair.ts) that lost its package document is read
 * from the chapters it still holds, in the order they are stored. A book without text gives a model without blocks and the warning "the document
 * has no text".
 */
import { sniffedOf } from '../bytes/sniff.js';
import { requirePackage } from '../bytes/verdict.js';
import { resolveEntryPath, type ZipArchive } from '../bytes/zip.js';
import { EngineError } from '../engine-error.js';
import { htmlPagesToModel } from '../html-pages.js';
import { decodeHtmlBytes } from '../html/decode.js';
import type { Converter, ModelBlock } from '../model.js';
import { parseDocument, type DomDocument } from '../html/dom.js';
import { packageImageUri } from '../package-images.js';
import { checkPackageXml, readXmlPart } from '../package-xml.js';
import { titlesFromNav, titlesFromNcx } from './navigation.js';
import { bookNotes, markNotes } from './notes.js';
import { writeRaisedText } from '../html/raised-text.js';
import { escapeRunText } from '../markdown-text.js';
import { type ClassTypes, markStyledHeadings, readClassTypes } from './styled-headings.js';
import { type PackageDocument, parsePackageDocument, resolvePath, rootfilePath, type SpineItem } from './package-document.js';

const WHAT = 'the EPUB book';
const CONTAINER = 'META-INF/container.xml';
const ENCRYPTION = 'META-INF/encryption.xml';
const HTML_TYPES = new Set(['application/xhtml+xml', 'text/html', 'application/xml', 'text/xml']);

export const convertEpub: Converter = async (input) => {
  const sniffed = sniffedOf(input);
  const zip = requirePackage(sniffed, ['epub'], 'an EPUB book');
  const opfPath = packageDocumentPath(zip);
  const warnings: string[] = [];
  let opfXml = readXmlPart(zip, opfPath);
  if (opfXml === undefined && sniffed.repaired !== undefined) {
    // Cut short before its package document (written last by some tools): its chapters are read as they are stored.
    opfXml = storedOrderPackage(zip, opfPath);
    if (opfXml !== undefined) warnings.push(`Its package document ${opfPath} was lost: its chapters are read in the order they are stored, without the book's metadata.`);
  }
  if (opfXml === undefined) throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} is damaged: its container names the package document ${opfPath}, which is not in the zip`);
  let book: PackageDocument;
  try {
    book = parsePackageDocument(opfXml, opfPath);
  } catch (error) {
    // Well-formed (readXmlPart checked it), yet the parser refuses it: say so without its words.
    throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} is damaged: its package document ${opfPath} cannot be read`, { cause: error });
  }
  const encryption = readXmlPart(zip, ENCRYPTION);
  // The book's other XML parts (its chapters aside: XHTML, read as HTML) must be well-formed too; encrypted parts
  // are not XML, and are refused as such below when they are content.
  const encrypted = new Set(encryptedParts(encryption));
  const xhtml = new Set([...book.manifest.values()].filter((item) => HTML_TYPES.has(item.mediaType)).map((item) => item.path));
  checkPackageXml(zip, 'epub', (name) => encrypted.has(name) || xhtml.has(name));
  if (!book.hasSpine) throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} has no spine: its package document ${opfPath} gives no reading order`);
  if (book.spine.length === 0) {
    const detail = book.missing.length > 0 ? ` (its itemrefs name ${book.missing.length} item(s) missing from the manifest)` : '';
    throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} has an empty spine: its package document ${opfPath} lists no chapter${detail}`);
  }
  refuseDrm(encryption, book);

  if (book.missing.length > 0) warnings.push(`the spine names ${book.missing.length} item(s) missing from the manifest: ${book.missing.slice(0, 5).join(', ')}`);
  const chapters = readingOrder(book, warnings);
  const files = zip.read(chapters.map((chapter) => chapter.item.path));
  const present = chapters.filter((chapter) => files.has(chapter.item.path));
  const absent = chapters.filter((chapter) => !files.has(chapter.item.path));
  if (absent.length > 0) warnings.push(`${absent.length} chapter(s) are missing from the package: ${absent.slice(0, 5).map((chapter) => chapter.item.path).join(', ')}`);
  if (present.length === 0) throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} is damaged: none of the chapters its spine lists is in the zip package`);

  const documents = present.map((chapter) => decodeHtmlBytes(files.get(chapter.item.path) as Uint8Array).text);
  const keepImages = input.options.removeBase64Images === false;
  // A note in a chapter not yet converted is looked at in a parse of its own, made once per chapter and only when a
  // note-like link points there.
  const chapterIndex = new Map(present.map((chapter, index) => [chapter.item.path, index]));
  const parsedChapters = new Map<string, DomDocument>();
  const notes = bookNotes((path) => {
    const index = chapterIndex.get(path);
    if (index === undefined) return undefined;
    const parsed = parsedChapters.get(path) ?? parseDocument(documents[index] ?? '');
    parsedChapters.set(path, parsed);
    return parsed;
  });
  const classTypes = documents.some((document) => /<h[1-6][\s>]/i.test(document)) ? new Map() : bookClassTypes(zip, book, documents);
  const { model, pageMetadata } = htmlPagesToModel(documents, input.options, {
    source: 'epub',
    metadata: book.metadata,
    warnings,
    footnotes: true,
    transform: (document, index) => {
      const chapterPath = present[index]?.item.path ?? '';
      markNotes(document, chapterPath, notes);
      // A book that writes no heading tag may set its headings by its style sheet alone.
      markStyledHeadings(document, classTypes);
      // Raised and lowered digits as x² and H₂O, as in Word and OpenDocument documents.
      writeRaisedText(document);
      if (keepImages) embedPictures(document, zip, chapterPath);
    },
  });

  const titles = chapterTitles(zip, book);
  const headTitles = pageMetadata.map((metadata) => (typeof metadata['title'] === 'string' ? metadata['title'].replace(/\s+/g, ' ').trim() : ''));
  model.pages.forEach((page, index) => {
    const chapter = present[index] as SpineItem;
    const blocks = page.blocks;
    if (blocks.some((block) => block.type === 'title' || block.type === 'section_header')) return;
    if (!blocks.some((block) => block.type !== 'figure')) return;
    const headTitle = headTitles[index] ?? '';
    const title =
      titles.get(chapter.item.path) ??
      (headTitle !== '' && headTitle !== book.metadata['title'] && headTitles.filter((other) => other === headTitle).length === 1 ? headTitle : undefined);
    if (title === undefined) return;
    const heading: ModelBlock = { type: 'section_header', label: 'heading-2', markdown: `## ${escapeRunText(title)}`, bbox: null, source: 'epub' };
    page.blocks = [heading, ...blocks];
  });
  return model;
};

/** Web pages in a book, and its navigation documents among them (a table of contents, not a chapter). */
const CHAPTER_FILE = /\.(?:xhtml|html|htm)$/i;
const NAVIGATION_FILE = /(?:^|\/)(?:nav|toc)\.(?:xhtml|html|htm)$/i;

/**
 * A package document listing the book's web pages in the order the zip stores them (the order its tools write its
 * chapters in), as a stand-in for one that was lost; undefined when the book holds none.
 */
function storedOrderPackage(zip: ZipArchive, opfPath: string): string | undefined {
  const folder = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  const chapters = zip.names.filter((name) => CHAPTER_FILE.test(name) && !NAVIGATION_FILE.test(name));
  if (chapters.length === 0) return undefined;
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  // hrefs relative to the lost document's folder, as its own were: `../` up to the root, then the entry's path.
  const up = '../'.repeat(folder.split('/').filter(Boolean).length);
  const items = chapters.map((name, index) => `<item id="c${index}" href="${escape(encodeURI(up + name))}" media-type="application/xhtml+xml"/>`);
  const refs = chapters.map((_, index) => `<itemref idref="c${index}"/>`);
  return `<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest>${items.join('')}</manifest><spine>${refs.join('')}</spine></package>`;
}

/** The type the book's style sheets (its CSS files and its chapters' `<style>` elements) give its classes. */
function bookClassTypes(zip: ZipArchive, book: PackageDocument, documents: readonly string[]): ClassTypes {
  const sheets = [...book.manifest.values()].filter((item) => item.mediaType === 'text/css').map((item) => item.path);
  let css = '';
  try {
    for (const text of zip.readTexts(sheets).values()) css += `${text}\n`;
  } catch {
    // An unreadable style sheet leaves the book's headings as its tags give them.
  }
  for (const document of documents) for (const style of document.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) css += `${style[1] ?? ''}\n`;
  return readClassTypes(css);
}

function packageDocumentPath(zip: ZipArchive): string {
  const container = readXmlPart(zip, CONTAINER);
  if (container !== undefined) {
    let path: string | null;
    try {
      path = rootfilePath(container);
    } catch (error) {
      throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} is damaged: ${CONTAINER} cannot be read`, { cause: error });
    }
    if (path === null) throw new EngineError('CORRUPT_DOCUMENT', `${WHAT} is damaged: ${CONTAINER} names no package document (rootfile)`);
    return path;
  }
  const packageDocuments = zip.names.filter((name) => name.toLowerCase().endsWith('.opf'));
  if (packageDocuments.length === 1) return packageDocuments[0] as string;
  throw new EngineError('CORRUPT_DOCUMENT', `not an EPUB book: the zip package has no ${CONTAINER}${packageDocuments.length > 1 ? ' and several package documents' : ' and no package document'}`);
}

/**
 * DRM: encryption.xml listing a content document (a spine document or any markup) means the text cannot be read.
 * Font obfuscation (IDPF or Adobe), which lists only fonts, is not DRM.
 */
function refuseDrm(encryption: string | undefined, book: PackageDocument): void {
  const uris = encryptedParts(encryption);
  const spinePaths = new Set(book.spine.map((entry) => entry.item.path));
  const encrypted = uris.filter((uri) => spinePaths.has(uri) || /\.(x?html?|xml|opf|ncx)$/i.test(uri));
  if (encrypted.length > 0) {
    throw new EngineError(
      'ENCRYPTED_DOCUMENT',
      `${WHAT} is DRM-protected: META-INF/encryption.xml lists ${encrypted.length} encrypted content document(s) (${encrypted.slice(0, 3).join(', ')}); it cannot be read without the key`,
    );
  }
}

/** The parts META-INF/encryption.xml lists as encrypted (paths in the zip). */
function encryptedParts(encryption: string | undefined): string[] {
  if (encryption === undefined) return [];
  return [...encryption.matchAll(/<(?:\w+:)?CipherReference\b[^>]*\bURI\s*=\s*["']([^"']*)["']/g)].map((match) => resolvePath('', match[1] ?? ''));
}

/** Linear spine documents, then non-linear ones; navigation documents, non-(X)HTML items and repeats left out. */
function readingOrder(book: PackageDocument, warnings: string[]): SpineItem[] {
  const seen = new Set<string>();
  const skippedTypes = new Set<string>();
  const keep = (entry: SpineItem): boolean => {
    const { item } = entry;
    if (item.properties.includes('nav') || seen.has(item.path)) return false;
    if (item.mediaType !== '' && !HTML_TYPES.has(item.mediaType)) {
      skippedTypes.add(item.mediaType);
      return false;
    }
    seen.add(item.path);
    return true;
  };
  const linear = book.spine.filter((entry) => entry.linear && keep(entry));
  const nonLinear = book.spine.filter((entry) => !entry.linear && keep(entry));
  if (skippedTypes.size > 0) warnings.push(`spine items that are not (X)HTML were left out (${[...skippedTypes].join(', ')})`);
  return [...linear, ...nonLinear];
}

function chapterTitles(zip: ZipArchive, book: PackageDocument): Map<string, string> {
  const nav = [...book.manifest.values()].find((item) => item.properties.includes('nav'));
  try {
    if (nav !== undefined) {
      const data = zip.read([nav.path]).get(nav.path);
      if (data !== undefined) {
        const titles = titlesFromNav(decodeHtmlBytes(data).text, nav.path);
        if (titles.size > 0) return titles;
      }
    }
    if (book.ncx !== undefined) {
      const ncx = zip.readText(book.ncx.path);
      if (ncx !== undefined) return titlesFromNcx(ncx, book.ncx.path);
    }
  } catch (error) {
    // A damaged table of contents costs chapter titles, not the book; limits still apply.
    if (error instanceof EngineError && error.apiCode === 'DOCUMENT_TOO_COMPLEX') throw error;
  }
  return new Map();
}

/**
 * A chapter's pictures (`img src`, relative to the chapter) as data: URIs of the package's parts, when the result keeps
 * pictures; a remote `src` stays a link, and a picture missing from the package stays as written.
 */
function embedPictures(document: DomDocument, zip: ZipArchive, chapterPath: string): void {
  const folder = chapterPath.slice(0, chapterPath.lastIndexOf('/') + 1);
  for (const image of document.querySelectorAll('img[src]')) {
    const src = (image.getAttribute('src') ?? '').trim().replace(/[?#].*$/, '');
    if (src === '' || /^[a-z][a-z0-9+.-]*:/i.test(src)) continue;
    const uri = packageImageUri(zip, resolveEntryPath(folder, src));
    if (uri !== null) image.setAttribute('src', uri);
  }
}
