/**
 * Headings made by hand in a Word document (hand-made-headings.ts says which): mammoth reads headings by style
 * alone, so a document whose writer set section titles in bold or a larger type, on lines of their own, came out as
 * one flat run of paragraphs. Where a document uses no heading style at all, its body paragraphs (not in a table or
 * a text box) are read for their type here, and each heading gets a style of its own (`DocmillHeadingN`) that the
 * style map turns into `hN`. A paragraph given an outline level of its own is a heading of that level, as Word's
 * navigation pane shows it.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { handMadeHeadingLevels, type ParagraphLook } from '../hand-made-headings.js';
import { inherited, type StyleSheet } from './style-sheet.js';
import { decodeXmlEntities } from '../../common/xml-entities.js';
import { wordPrefix } from './word-prefix.js';

/** The style id given to a paragraph read as a heading of level N (1-based). */
export const VISUAL_HEADING_STYLE = 'DocmillHeading';

/** Style map lines for those styles. */
export const VISUAL_HEADING_STYLE_MAP = [1, 2, 3, 4, 5, 6].map((level) => `p.${VISUAL_HEADING_STYLE}${level} => h${level}:fresh`);

interface Paragraph extends ParagraphLook {
  start: number;
  end: number;
  /** Where its properties end (after `<w:pPr>…</w:pPr>`), or where they would go. */
  propertiesEnd: number;
  style: string | undefined;
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
  const outlined = paragraphs.flatMap((paragraph) =>
    paragraph.outlineLevel !== undefined && paragraph.outlineLevel <= 8 && paragraph.text !== '' ? [{ paragraph, level: paragraph.outlineLevel + 1 }] : [],
  );
  if (outlined.length > 0) return withHeadings(documentXml, outlined, word);
  if (paragraphs.some((paragraph) => isHeadingStyle(paragraph.style, sheet))) return unchanged;
  // A title styled as one (Word's Title or Subtitle, picked from the style gallery) over sections made by hand:
  // the sections go under it, and it is no candidate of theirs.
  const titled = paragraphs.filter((paragraph) => isTitleStyle(paragraph.style, sheet));
  for (const paragraph of titled) paragraph.look = null;

  const levels = handMadeHeadingLevels(paragraphs, defaultSize, titled.length > 0 ? 2 : 1);
  if (levels.size === 0) return unchanged;
  const headings = [...levels].map(([index, level]) => ({ paragraph: paragraphs[index] as Paragraph, level }));
  return withHeadings(documentXml, headings, word);
}

/** The document XML with each of `headings` given the heading style of its level (1-based), in document order. */
function withHeadings(xml: string, headings: readonly { paragraph: Paragraph; level: number }[], word: string): { xml: string; count: number } {
  let out = '';
  let copied = 0;
  for (const { paragraph, level: wanted } of headings) {
    const level = Math.min(wanted, 6);
    out += xml.slice(copied, paragraph.start) + withStyle(xml.slice(paragraph.start, paragraph.end), paragraph, word, `${VISUAL_HEADING_STYLE}${level}`);
    copied = paragraph.end;
  }
  return { xml: out + xml.slice(copied), count: headings.length };
}

function isHeadingStyle(id: string | undefined, sheet: StyleSheet | undefined): boolean {
  if (id === undefined) return false;
  const name = sheet?.get(id)?.name ?? id;
  if (/^heading\s*[1-9]$/i.test(name)) return true;
  const level = sheet === undefined ? undefined : inherited(id, sheet, (style) => style.outlineLevel);
  return level !== undefined && level >= 0 && level <= 8;
}

function isTitleStyle(id: string | undefined, sheet: StyleSheet | undefined): boolean {
  return id !== undefined && /^(?:title|subtitle)$/i.test(sheet?.get(id)?.name ?? id);
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
    const runText = [...content.matchAll(patterns.text)].map((t) => decodeXmlEntities(t[1] ?? '')).join('');
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
