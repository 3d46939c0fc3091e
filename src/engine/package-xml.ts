/**
 * The XML parts of zip packages (OOXML, ODF, EPUB), in one place: the check that a part is well-formed, the error
 * a part that is not gives, and fast-xml-parser as the package readers use it.
 *
 * The rule (docs/limits-and-retries.md, "Damaged documents"): a part that claims to be XML and is not well-formed
 * makes the document CORRUPT_DOCUMENT, with a message naming the part and the line where it stops being XML
 * ("... whose part ppt/slides/_rels/slide1.xml.rels is not well-formed XML (line 2)"), never an XML library's own
 * words and never UNKNOWN_ERROR. So does a part whose DOCTYPE declares an external entity (SYSTEM or PUBLIC: a
 * file or URL to read, the XXE attack): no Office, OpenDocument or EPUB package needs one, the readers refuse to
 * resolve it, and fast-xml-parser throws on it. The parts held to it, by `checkPackageXml`: every `.xml` and `.rels` part of an
 * OOXML or ODF package (the converters and the libraries they hand packages to, SheetJS and mammoth, read them);
 * in an EPUB also the package document (`.opf`) and the NCX, and not its chapters, which are XHTML read as HTML, as
 * reading systems read them. A part that is empty (or only white space) is left to the converter that reads it:
 * LibreOffice writes empty ones (`Configurations2/accelerator/current.xml`) in every package it saves.
 *
 * `xmlDefect` is a linear scan, not a parser: it checks what a truncated, overwritten or bit-flipped part breaks
 * (tag syntax, names closing in the order they opened, one root element and nothing but white space beside it,
 * quoted attribute values without `<`, the XML declaration first and well-formed, comments, CDATA sections,
 * processing instructions and the DOCTYPE closed, `&` starting a reference). Its leniencies: characters XML forbids (control characters) and repeated attribute
 * names pass, as SheetJS and mammoth read them; the DOCTYPE's internal subset is skipped, not checked. It reads
 * 16 MB of worksheet XML in about 0.15 s, where fast-xml-parser's validator takes 1.4 s.
 */
import { type X2jOptions, XMLParser } from 'fast-xml-parser';
import type { ZipArchive } from './bytes/zip.js';
import { EngineError } from './engine-error.js';

export function packageXmlParser(options: Partial<X2jOptions> = {}): XMLParser {
  return new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false, parseAttributeValue: false, ...options });
}

/** Where a text stops being well-formed XML, or declares an external entity. */
export interface XmlDefect {
  /** 1-based line of the offending character (the last line when the text ends too early). */
  line: number;
  /** What is wrong, for tests and logs; the user's message gives the part and the line. */
  reason: string;
  /** `external-entity`: well-formed, but its DOCTYPE declares an entity to be read from elsewhere (a file, a URL). */
  kind?: 'external-entity';
}

/** Parts of OOXML and ODF packages held to the rule. */
const XML_PART = /\.(?:xml|rels)$/i;
/** In an EPUB: its package document and NCX too. */
const EPUB_XML_PART = /\.(?:xml|rels|opf|ncx)$/i;

/**
 * Throws CORRUPT_DOCUMENT for the first XML part of `zip` (in directory order) that is not well-formed. `kind`
 * says which parts are XML (see the header); `except` leaves out parts that are not the package's to check (an
 * EPUB's encrypted parts, refused as such by its converter).
 */
export function checkPackageXml(zip: ZipArchive, kind: 'office' | 'epub', except: (name: string) => boolean = () => false): void {
  const pattern = kind === 'epub' ? EPUB_XML_PART : XML_PART;
  for (const name of zip.names) {
    if (!pattern.test(name) || except(name)) continue;
    const data = zip.read([name]).get(name);
    if (data !== undefined) assertWellFormed(zip, name, decodeXml(data));
  }
}

/**
 * The same check as `checkPackageXml`, as a `ZipArchive.check` inspector: for packages handed to a library (SheetJS,
 * mammoth), whose every part is inflated once for the zip limits anyway.
 */
export function packageXmlInspector(zip: ZipArchive, kind: 'office' | 'epub'): (name: string, data: Uint8Array) => void {
  const pattern = kind === 'epub' ? EPUB_XML_PART : XML_PART;
  return (name, data) => {
    if (pattern.test(name)) assertWellFormed(zip, name, decodeXml(data));
  };
}

/** One part as text (by its byte order mark: UTF-8 or UTF-16), checked; undefined when the package has no such part. */
export function readXmlPart(zip: ZipArchive, name: string): string | undefined {
  return readXmlParts(zip, [name]).get(name);
}

/** The named parts that exist, as text, each checked (see `readXmlPart`). */
export function readXmlParts(zip: ZipArchive, names: Iterable<string>): Map<string, string> {
  const texts = new Map<string, string>();
  for (const [name, data] of zip.read(names)) {
    const text = decodeXml(data);
    assertWellFormed(zip, name, text);
    texts.set(name, text);
  }
  return texts;
}

/** CORRUPT_DOCUMENT for a part of `zip` that is not well-formed XML (or declares an external entity) at `defect`. */
export function partDefect(zip: ZipArchive, part: string, defect: XmlDefect): EngineError {
  return new EngineError('CORRUPT_DOCUMENT', `the file is damaged: it is ${zip.what} whose part ${part} ${describeDefect(defect)}`);
}

/** "is not well-formed XML (line 3)", or what an external entity gets; follows the name of what has the defect. */
export function describeDefect(defect: XmlDefect): string {
  return defect.kind === 'external-entity'
    ? `declares an external entity (line ${defect.line}), which no package needs and docmill never reads`
    : `is not well-formed XML (line ${defect.line})`;
}

function assertWellFormed(zip: ZipArchive, name: string, text: string): void {
  const defect = xmlDefect(text);
  if (defect !== null) throw partDefect(zip, name, defect);
}

const UTF8 = new TextDecoder('utf-8');
const UTF16LE = new TextDecoder('utf-16le');
const UTF16BE = new TextDecoder('utf-16be');

/** Part bytes as text: UTF-16 when a byte order mark says so (customXml items often are), UTF-8 otherwise. */
export function decodeXml(data: Uint8Array): string {
  if (data[0] === 0xff && data[1] === 0xfe) return UTF16LE.decode(data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return UTF16BE.decode(data.subarray(2));
  return UTF8.decode(data);
}

// Sticky patterns, each tried at the `<` that starts what it matches.
const PI_TARGET = /<\?([A-Za-z_:\u0080-\uffff][^\s?]*)/y;
const XML_DECLARATION = /<\?xml\s+version\s*=\s*(["'])1\.[0-9]+\1(?:\s+encoding\s*=\s*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:\s+standalone\s*=\s*(["'])(?:yes|no)\3)?\s*\?>/y;
const START_TAG = /<([A-Za-z_:\u0080-\uffff][^\s/>=<"']*)((?:\s+[^\s/>=<"']+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
const END_TAG = /<\/([A-Za-z_:\u0080-\uffff][^\s/>=<"']*)\s*>/y;
/** `&` followed by something other than a reference. */
const BAD_REFERENCE = /&(?!(?:[A-Za-z_:\u0080-\uffff][^\s;&<]*|#[0-9]+|#x[0-9A-Fa-f]+);)/;
/** A reference, tried at its `&`. */
const REFERENCE = /&(?:[A-Za-z_:\u0080-\uffff][^\s;&<]*|#[0-9]+|#x[0-9A-Fa-f]+);/y;
const NOT_WHITE_SPACE = /\S/;
/** An entity declared with SYSTEM or PUBLIC: its value is read from a file or a URL (XXE). */
const EXTERNAL_ENTITY = /<!ENTITY\s+(?:%\s+)?[^\s>]+\s+(?:SYSTEM|PUBLIC)\b/;

/** The first place `text` is not well-formed XML, or null when it is (or is empty: see the header). */
export function xmlDefect(text: string): XmlDefect | null {
  const open: string[] = [];
  const ampersands = new AmpersandCursor(text);
  let rootClosed = false;
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!NOT_WHITE_SPACE.test(text.slice(at))) return null;
  const fail = (offset: number, reason: string): XmlDefect => ({ line: lineAt(text, offset), reason });
  for (;;) {
    const lt = text.indexOf('<', at);
    const end = lt < 0 ? text.length : lt;
    if (end > at) {
      const defect = textDefect(text, at, end, open.length > 0, ampersands);
      if (defect !== null) return fail(defect.offset, defect.reason);
    }
    if (lt < 0) break;
    const next = text.charCodeAt(lt + 1);
    if (next === 0x3f /* ? */) {
      PI_TARGET.lastIndex = lt;
      const target = PI_TARGET.exec(text)?.[1];
      if (target === undefined) return fail(lt, 'a processing instruction without a target');
      if (target.toLowerCase() === 'xml') {
        // The XML declaration: first in the text, and nothing but its own pseudo-attributes.
        XML_DECLARATION.lastIndex = lt;
        if (lt !== (text.charCodeAt(0) === 0xfeff ? 1 : 0) || !XML_DECLARATION.test(text)) return fail(lt, 'a malformed XML declaration');
        at = XML_DECLARATION.lastIndex;
      } else {
        at = closeOf(text, lt + 2, '?>');
        if (at < 0) return fail(text.length, 'a processing instruction is not closed');
      }
    } else if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', lt)) at = closeOf(text, lt + 4, '-->');
      else if (text.startsWith('<![CDATA[', lt)) {
        if (open.length === 0) return fail(lt, 'a CDATA section outside the root element');
        at = closeOf(text, lt + 9, ']]>');
      } else if (text.startsWith('<!DOCTYPE', lt) && open.length === 0 && !rootClosed) {
        at = doctypeEnd(text, lt + 9);
        const external = at < 0 ? null : EXTERNAL_ENTITY.exec(text.slice(lt, at));
        if (external !== null) return { ...fail(lt + external.index, 'an external entity'), kind: 'external-entity' };
      } else return fail(lt, 'a markup declaration that is none of comment, CDATA section or DOCTYPE');
      if (at < 0) return fail(text.length, 'a comment, CDATA section or DOCTYPE is not closed');
    } else if (next === 0x2f /* / */) {
      END_TAG.lastIndex = lt;
      const match = END_TAG.exec(text);
      if (match === null) return fail(lt, 'a malformed end tag');
      const expected = open.pop();
      if (expected !== match[1]) return fail(lt, expected === undefined ? `an end tag </${match[1]}> with no element open` : `</${match[1]}> closes <${expected}>`);
      if (open.length === 0) rootClosed = true;
      at = END_TAG.lastIndex;
    } else {
      START_TAG.lastIndex = lt;
      const match = START_TAG.exec(text);
      if (match === null) return fail(lt, lt + 1 >= text.length ? 'the text ends inside a tag' : 'a malformed start tag');
      if (rootClosed) return fail(lt, 'a second root element');
      const attributes = match[2] ?? '';
      if (attributes.includes('&') && BAD_REFERENCE.test(attributes)) return fail(lt, 'an attribute value with a bare &');
      if (match[3] === '') open.push(match[1] as string);
      else if (open.length === 0) rootClosed = true;
      at = START_TAG.lastIndex;
    }
  }
  if (open.length > 0) return fail(text.length, `the text ends with <${open[open.length - 1]}> open`);
  if (!rootClosed) return fail(text.length, 'no root element');
  return null;
}

/**
 * The `&`s of a text, found in one pass however many stretches of text ask (an `indexOf` per stretch would scan to
 * the end of a part without any for each of its text nodes).
 */
class AmpersandCursor {
  /** The `&` found last (-1: there is none further); undefined before the first search. */
  #next: number | undefined;

  constructor(private readonly text: string) {}

  /** The first `&` at or after `from` (callers ask with `from` never decreasing), or -1. */
  from(from: number): number {
    if (this.#next === undefined || (this.#next >= 0 && this.#next < from)) this.#next = this.text.indexOf('&', from);
    return this.#next;
  }
}

/** Character data between markup: only white space outside the root element, and every `&` a reference. */
function textDefect(text: string, from: number, to: number, insideRoot: boolean, ampersands: AmpersandCursor): { offset: number; reason: string } | null {
  if (!insideRoot) {
    for (let at = from; at < to; at += 1) {
      const code = text.charCodeAt(at);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return { offset: at, reason: 'text outside the root element' };
    }
    return null;
  }
  for (let amp = ampersands.from(from); amp >= 0 && amp < to; amp = ampersands.from(amp + 1)) {
    REFERENCE.lastIndex = amp;
    if (!REFERENCE.test(text)) return { offset: amp, reason: 'a bare & in text' };
  }
  return null;
}

/** The offset after `closer` found from `from`, or -1. */
function closeOf(text: string, from: number, closer: string): number {
  const found = text.indexOf(closer, from);
  return found < 0 ? -1 : found + closer.length;
}

/** The offset after a DOCTYPE declaration whose name starts at `from` (its internal subset skipped), or -1. */
function doctypeEnd(text: string, from: number): number {
  let at = from;
  let quote = 0;
  let inSubset = false;
  for (; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (quote !== 0) {
      if (code === quote) quote = 0;
    } else if (code === 0x22 || code === 0x27) quote = code;
    else if (code === 0x5b /* [ */) inSubset = true;
    else if (code === 0x5d /* ] */) inSubset = false;
    else if (code === 0x3e /* > */ && !inSubset) return at + 1;
  }
  return -1;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let at = text.indexOf('\n'); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}
