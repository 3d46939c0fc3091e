/**
 * Headings made by hand. Many Word documents never use a heading style: their writer set a short line in bold, or
 * larger, on a line of its own, and Word shows it as a heading while the file calls it a plain paragraph (`Normal`).
 * mammoth reads headings by style alone, so such a document came out as one flat run of paragraphs, with no sections
 * for a reader, a table of contents or a chunker to follow.
 *
 * Where a document uses no heading style at all, a paragraph of the body (not in a table, a list or a text box) is a
 * heading when it is short, ends in no sentence punctuation, is set wholly in bold or in a type larger than the
 * body's, and is followed by a paragraph set otherwise: a section's text, or the heading of a section below it (a
 * bold label over a short value, as a form sets it, is none). Its level comes from its type: the largest such type
 * is level 1, the next level 2, bold at the body's size the last. A document half of whose paragraphs would
 * qualify (a poster, a list of names in bold) is left as it is. Each heading gets a style of its own
 * (`DocmillHeadingN`) that the style map turns into `hN`.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { inherited, type StyleSheet } from './style-sheet.js';
import { wordPrefix } from './word-prefix.js';

/** The style id given to a paragraph read as a heading of level N (1-based). */
export const VISUAL_HEADING_STYLE = 'DocmillHeading';

/** Style map lines for those styles. */
export const VISUAL_HEADING_STYLE_MAP = [1, 2, 3, 4, 5, 6].map((level) => `p.${VISUAL_HEADING_STYLE}${level} => h${level}:fresh`);

/** A heading is at most this long. */
const MAX_WORDS = 15;
const MAX_CHARACTERS = 120;
/** A type this much larger than the body's sets a line apart without bold. */
const LARGER = 1.15;
/** Past this share of the body's paragraphs, bold or large lines are the document's way of writing, not headings. */
const MAX_HEADING_SHARE = 0.5;
/** The text under a heading, before the next, holds at least this many words. */
const MIN_SECTION_WORDS = 5;
/** A body needs a paragraph this long to have text that headings head. */
const MIN_BODY_WORDS = 8;

interface Paragraph {
  start: number;
  end: number;
  /** Where its properties end (after `<w:pPr>…</w:pPr>`), or where they would go. */
  propertiesEnd: number;
  style: string | undefined;
  text: string;
  /** The look of its text: `size|bold` where every run agrees, else null. */
  look: string | null;
  size: number;
  bold: boolean;
  listed: boolean;
  /** Its own `w:outlineLvl` (0 for level 1), if it sets one. */
  outlineLevel: number | undefined;
}

/** The document XML with hand-made headings given heading styles, and how many were. */
export function markVisualHeadings(documentXml: string, sheetOf: () => StyleSheet | undefined, defaultSize: number): { xml: string; count: number } {
  const unchanged = { xml: documentXml, count: 0 };
  const word = wordPrefix(documentXml);
  if (word === null) return unchanged;
  const w = escapeRegExp(word);
  // Only a document that sets some text bold, in a size of its own or at an outline level can have made a heading so.
  if (!new RegExp(`<${w}:(?:b|sz|outlineLvl)[\\s/>]`).test(documentXml)) return unchanged;
  const sheet = sheetOf();
  const paragraphs = bodyParagraphs(documentXml, w, sheet, defaultSize);
  // An outline level set on the paragraph itself makes it a heading in Word's navigation pane, as a style's does.
  const outlined = paragraphs.filter((paragraph) => paragraph.outlineLevel !== undefined && paragraph.outlineLevel <= 8 && paragraph.text !== '');
  if (outlined.length > 0) return withHeadings(documentXml, outlined, (paragraph) => (paragraph.outlineLevel as number) + 1, word);
  if (paragraphs.some((paragraph) => isHeadingStyle(paragraph.style, sheet))) return unchanged;

  const filled = paragraphs.filter((paragraph) => paragraph.text !== '');
  const bodySize = mostWrittenSize(filled, defaultSize);
  if (!filled.some((paragraph) => countWords(paragraph.text) >= MIN_BODY_WORDS)) return unchanged;
  const apart = new Set(
    filled.filter((paragraph, index) => {
      const next = filled[index + 1];
      return standsApart(paragraph, bodySize) && next !== undefined && next.look !== paragraph.look;
    }),
  );
  // A heading heads a section of text, or the heading of a section below it; a label over a short value does not,
  // and where most lines of a look are such labels, the look is a form's (its last label heads the text after it).
  const heading = filled.filter((paragraph, index) => {
    if (!apart.has(paragraph)) return false;
    if (apart.has(filled[index + 1] as Paragraph)) return true;
    let words = 0;
    for (let next = index + 1; next < filled.length && !apart.has(filled[next] as Paragraph); next++) words += countWords((filled[next] as Paragraph).text);
    return words >= MIN_SECTION_WORDS;
  });
  const headingLooks = countLooks(heading);
  const apartLooks = countLooks(apart);
  const candidates = heading.filter((paragraph) => 2 * (headingLooks.get(paragraph.look) ?? 0) >= (apartLooks.get(paragraph.look) ?? 0));
  if (candidates.length === 0 || candidates.length > MAX_HEADING_SHARE * filled.length) return unchanged;

  const looks = [...new Set(candidates.map((paragraph) => paragraph.look as string))].sort(byProminence);
  return withHeadings(documentXml, candidates, (paragraph) => looks.indexOf(paragraph.look as string) + 1, word);
}

/** The document XML with `headings` given the heading style of the level `levelOf` gives each (1-based). */
function withHeadings(xml: string, headings: readonly Paragraph[], levelOf: (paragraph: Paragraph) => number, word: string): { xml: string; count: number } {
  let out = '';
  let copied = 0;
  for (const paragraph of headings) {
    const level = Math.min(levelOf(paragraph), 6);
    out += xml.slice(copied, paragraph.start) + withStyle(xml.slice(paragraph.start, paragraph.end), paragraph, word, `${VISUAL_HEADING_STYLE}${level}`);
    copied = paragraph.end;
  }
  return { xml: out + xml.slice(copied), count: headings.length };
}

/** Whether a paragraph is set apart as a heading is: short, unpunctuated, bold throughout or larger than the body. */
function standsApart(paragraph: Paragraph, bodySize: number): boolean {
  if (paragraph.look === null || paragraph.listed) return false;
  const text = paragraph.text;
  if (text.length > MAX_CHARACTERS || countWords(text) > MAX_WORDS || /[.!?;:,]$/.test(text)) return false;
  if (!/\p{L}/u.test(text)) return false;
  return paragraph.bold ? paragraph.size >= bodySize : paragraph.size >= LARGER * bodySize;
}

function countLooks(paragraphs: Iterable<Paragraph>): Map<string | null, number> {
  const counts = new Map<string | null, number>();
  for (const paragraph of paragraphs) counts.set(paragraph.look, (counts.get(paragraph.look) ?? 0) + 1);
  return counts;
}

/** Larger type first; at one size, bold first. */
function byProminence(a: string, b: string): number {
  const [sizeA = 0, boldA] = a.split('|');
  const [sizeB = 0, boldB] = b.split('|');
  return Number(sizeB) - Number(sizeA) || (boldA === boldB ? 0 : boldA === 'true' ? -1 : 1);
}

function isHeadingStyle(id: string | undefined, sheet: StyleSheet | undefined): boolean {
  if (id === undefined) return false;
  const name = sheet?.get(id)?.name ?? id;
  if (/^(?:heading\s*[1-9]|title|subtitle)$/i.test(name)) return true;
  const level = sheet === undefined ? undefined : inherited(id, sheet, (style) => style.outlineLevel);
  return level !== undefined && level >= 0 && level <= 8;
}

/** The size most of the body's text is set in, weighed by its length. */
function mostWrittenSize(paragraphs: readonly Paragraph[], defaultSize: number): number {
  const lengths = new Map<number, number>();
  for (const paragraph of paragraphs) lengths.set(paragraph.size, (lengths.get(paragraph.size) ?? 0) + paragraph.text.length);
  let best = defaultSize;
  let most = 0;
  for (const [size, length] of lengths) {
    if (length > most) {
      best = size;
      most = length;
    }
  }
  return best;
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((part) => part !== '').length;
}

/** The paragraph's XML with its style set to `style`. */
function withStyle(xml: string, paragraph: Paragraph, word: string, style: string): string {
  const at = paragraph.propertiesEnd - paragraph.start;
  const styleElement = `<${word}:pStyle ${word}:val="${style}"/>`;
  const head = xml.slice(0, at);
  const properties = new RegExp(`<${escapeRegExp(word)}:pPr\\b[^>]*?(/?)>`).exec(head);
  if (properties === null) return `${head}<${word}:pPr>${styleElement}</${word}:pPr>${xml.slice(at)}`;
  if (properties[1] === '/') return `${head.slice(0, properties.index)}<${word}:pPr>${styleElement}</${word}:pPr>${head.slice(properties.index + properties[0].length)}${xml.slice(at)}`;
  const withoutStyle = head.replace(new RegExp(`<${escapeRegExp(word)}:pStyle\\b[^>]*/>`), '');
  const open = new RegExp(`<${escapeRegExp(word)}:pPr\\b[^>]*>`).exec(withoutStyle) as RegExpExecArray;
  const insertAt = open.index + open[0].length;
  return `${withoutStyle.slice(0, insertAt)}${styleElement}${withoutStyle.slice(insertAt)}${xml.slice(at)}`;
}

/** The patterns a paragraph is read with, built once a document for its prefix `w`. */
function patternsFor(w: string) {
  return {
    properties: new RegExp(`<${w}:pPr\\b[^>]*?(?:/>|>[\\s\\S]*?</${w}:pPr>)`),
    start: new RegExp(`^<${w}:p\\b[^>]*>`),
    style: new RegExp(`<${w}:pStyle\\s+${w}:val="([^"]*)"`),
    numbering: new RegExp(`<${w}:numPr\\b`),
    outline: new RegExp(`<${w}:outlineLvl\\s+${w}:val="(\\d+)"`),
    object: new RegExp(`<${w}:(?:drawing|pict|object|fldChar|fldSimple)\\b`),
    run: new RegExp(`<${w}:r\\b[^>]*>([\\s\\S]*?)</${w}:r>`, 'g'),
    text: new RegExp(`<${w}:t\\b[^>]*>([^<]*)</${w}:t>`, 'g'),
    runProperties: new RegExp(`<${w}:rPr\\b[^>]*>([\\s\\S]*?)</${w}:rPr>`),
    bold: new RegExp(`<${w}:b(?:\\s+${w}:val="([^"]*)")?\\s*/>`),
    size: new RegExp(`<${w}:sz\\s+${w}:val="(\\d+)"`),
  };
}

type Patterns = ReturnType<typeof patternsFor>;

/** The body's paragraphs outside tables and text boxes, with what decides whether each is a heading. */
function bodyParagraphs(xml: string, w: string, sheet: StyleSheet | undefined, defaultSize: number): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  const patterns = patternsFor(w);
  const tags = new RegExp(`<(/?)${w}:(p|tbl|txbxContent)(?=[\\s/>])[^>]*?(/?)>`, 'g');
  let nested = 0;
  let depth = 0;
  let start = -1;
  for (let match = tags.exec(xml); match !== null; match = tags.exec(xml)) {
    const [tag, closing, name, selfClosing] = match;
    if (selfClosing) continue;
    if (name !== 'p') {
      nested += closing ? -1 : 1;
      continue;
    }
    if (!closing) {
      depth += 1;
      if (depth === 1) start = nested === 0 ? match.index : -1;
      continue;
    }
    depth -= 1;
    if (depth === 0 && start >= 0 && nested === 0) paragraphs.push(readParagraph(xml, start, match.index + tag.length, patterns, sheet, defaultSize));
  }
  return paragraphs;
}

function readParagraph(xml: string, start: number, end: number, patterns: Patterns, sheet: StyleSheet | undefined, defaultSize: number): Paragraph {
  const body = xml.slice(start, end);
  const properties = patterns.properties.exec(body);
  const propertiesEnd = start + (properties === null ? (patterns.start.exec(body)?.[0].length ?? 0) : properties.index + properties[0].length);
  const style = properties === null ? undefined : patterns.style.exec(properties[0])?.[1];
  const listed = properties !== null && patterns.numbering.test(properties[0]);
  const outline = properties === null ? undefined : patterns.outline.exec(properties[0])?.[1];
  const styleBold = style === undefined || sheet === undefined ? undefined : inherited(style, sheet, (entry) => entry.bold);
  const styleSize = style === undefined || sheet === undefined ? undefined : inherited(style, sheet, (entry) => entry.size);
  let text = '';
  let look: string | null | undefined;
  let size = styleSize ?? defaultSize;
  let bold = styleBold ?? false;
  // A paragraph holding a drawing, a picture, an object or a field is no hand-made heading.
  if (patterns.object.test(body)) look = null;
  for (const run of body.matchAll(patterns.run)) {
    const content = run[1] ?? '';
    const runText = [...content.matchAll(patterns.text)].map((t) => decodeXml(t[1] ?? '')).join('');
    if (runText.trim() === '') {
      text += runText;
      continue;
    }
    text += runText;
    const runProperties = patterns.runProperties.exec(content)?.[1] ?? '';
    const boldTag = patterns.bold.exec(runProperties);
    const runBold = boldTag === null ? (styleBold ?? false) : !/^(?:false|0|off)$/i.test(boldTag[1] ?? '');
    const sizeValue = Number.parseInt(patterns.size.exec(runProperties)?.[1] ?? '', 10);
    const runSize = sizeValue > 0 ? sizeValue : (styleSize ?? defaultSize);
    const runLook = `${runSize}|${runBold}`;
    if (look === undefined) {
      look = runLook;
      size = runSize;
      bold = runBold;
    } else if (look !== runLook) look = null;
  }
  const outlineLevel = outline === undefined ? undefined : Number(outline);
  return { start, end, propertiesEnd, style, text: text.replace(/\s+/g, ' ').trim(), look: look ?? null, size, bold, listed, outlineLevel };
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name] ?? '');
}
