/**
 * The text of a PowerPoint 97-2003 text frame: a TextHeaderAtom (what the text is: title, body, notes...), the text
 * (TextCharsAtom, UTF-16, or TextBytesAtom, 8-bit), and a StyleTextPropAtom whose paragraph runs say which
 * paragraphs are bulleted and at which indent level, and whose character runs say which characters are bold or
 * italic ([MS-PPT] 2.9). Paragraphs end with CR; a vertical tab (0x0B) is a line break inside a paragraph.
 */
import type { Paragraph, TextRun } from '../slides/slide-model.js';
import { latin1, readU16, readU32, utf16 } from './bytes.js';

export const TEXT_TYPE = { title: 0, body: 1, notes: 2, other: 4, centerBody: 5, centerTitle: 6, halfBody: 7, quarterBody: 8 } as const;

export const RT = {
  textHeaderAtom: 0x0f9f,
  textCharsAtom: 0x0fa0,
  textBytesAtom: 0x0fa8,
  styleTextPropAtom: 0x0fa1,
} as const;

export interface TextFrame {
  textType: number;
  text: string;
  /** The StyleTextPropAtom's data, when the frame has one. */
  style?: Uint8Array;
}

export function isTitleType(textType: number): boolean {
  return textType === TEXT_TYPE.title || textType === TEXT_TYPE.centerTitle;
}

/** Body placeholders are bulleted by the default master styles; other text is not. */
function bulletedByDefault(textType: number): boolean {
  return textType === TEXT_TYPE.body || textType === TEXT_TYPE.halfBody || textType === TEXT_TYPE.quarterBody;
}

/** TextCharsAtom is UTF-16LE; TextBytesAtom holds the low bytes of UTF-16 code units (Latin-1, not a code page). */
export function atomText(stream: Uint8Array, type: number, start: number, end: number): string {
  return type === RT.textCharsAtom ? utf16(stream, start, (end - start) / 2) : latin1(stream, start, end - start);
}

interface ParagraphStyle {
  length: number;
  level: number;
  bullet: boolean | undefined;
}

interface CharacterStyle {
  length: number;
  bold: boolean;
  italic: boolean;
}

/** A frame's paragraphs with their list markers and emphasis. */
export function frameParagraphs(frame: TextFrame): Paragraph[] {
  const { paragraphStyles, characterStyles } = frame.style === undefined ? { paragraphStyles: [], characterStyles: [] } : readStyles(frame.style, frame.text.length);
  const texts = frame.text.split('\r');
  const paragraphs: Paragraph[] = [];
  let offset = 0;
  let styleIndex = 0;
  let styleEnd = paragraphStyles[0]?.length ?? Number.POSITIVE_INFINITY;
  for (const text of texts) {
    while (offset >= styleEnd && styleIndex < paragraphStyles.length - 1) {
      styleIndex += 1;
      styleEnd += paragraphStyles[styleIndex]?.length ?? 0;
    }
    const style = paragraphStyles[styleIndex];
    const bullet = style?.bullet ?? bulletedByDefault(frame.textType);
    paragraphs.push({
      runs: characterRuns(text, offset, characterStyles),
      list: bullet && !isTitleType(frame.textType) ? { ordered: false, level: Math.min(style?.level ?? 0, 8) } : null,
    });
    offset += text.length + 1;
  }
  return paragraphs;
}

// Vertical tab: a line break inside a paragraph; other C0 controls (field stand-ins, object marks) go.
// eslint-disable-next-line no-control-regex
const LINE_BREAK = /\u000b/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000c-\u001f]/g;

function characterRuns(text: string, offset: number, styles: readonly CharacterStyle[]): TextRun[] {
  const clean = (value: string) => value.replace(LINE_BREAK, '\n').replace(CONTROL, '');
  if (styles.length === 0) return [{ text: clean(text) }];
  const runs: TextRun[] = [];
  let position = 0;
  let cursor = 0;
  for (const style of styles) {
    const start = Math.max(position, offset);
    const end = Math.min(position + style.length, offset + text.length);
    if (end > start) {
      runs.push({ text: clean(text.slice(start - offset, end - offset)), bold: style.bold, italic: style.italic });
      cursor = end;
    }
    position += style.length;
    if (position >= offset + text.length) break;
  }
  if (cursor < offset + text.length) runs.push({ text: clean(text.slice(Math.max(cursor, offset) - offset)) });
  return runs;
}

/**
 * The StyleTextPropAtom: paragraph runs (count, indent level, TextPFException) covering the text plus one, then
 * character runs (count, TextCFException). Reading stops at the first run that does not fit.
 */
function readStyles(style: Uint8Array, textLength: number): { paragraphStyles: ParagraphStyle[]; characterStyles: CharacterStyle[] } {
  const paragraphStyles: ParagraphStyle[] = [];
  const characterStyles: CharacterStyle[] = [];
  let at = 0;
  let covered = 0;
  while (covered <= textLength && at + 10 <= style.length) {
    const length = readU32(style, at);
    const level = readU16(style, at + 4);
    const masks = readU32(style, at + 6);
    at += 10;
    let bullet: boolean | undefined;
    if ((masks & 0x0f) !== 0) {
      const flags = readU16(style, at);
      if ((masks & 0x01) !== 0) bullet = (flags & 0x01) !== 0;
      at += 2;
    }
    const skipped = pfFieldsSize(style, at, masks);
    if (skipped < 0 || length === 0) break;
    at += skipped;
    paragraphStyles.push({ length, level, bullet });
    covered += length;
  }
  covered = 0;
  while (covered <= textLength && at + 8 <= style.length) {
    const length = readU32(style, at);
    const masks = readU32(style, at + 4);
    at += 8;
    let bold = false;
    let italic = false;
    if ((masks & 0x3eb7) !== 0) {
      const fontStyle = readU16(style, at);
      bold = (masks & 0x01) !== 0 && (fontStyle & 0x01) !== 0;
      italic = (masks & 0x02) !== 0 && (fontStyle & 0x02) !== 0;
      at += 2;
    }
    // fontRef, oldEAFontRef, ansiFontRef, symbolFontRef, size (2 bytes each), color (4), position (2), pp10 run
    // id (4), newEAFontRef, csFontRef (2 each), pp11 extension (4): in this order, present when their bit is set.
    for (const [bit, size] of [[16, 2], [21, 2], [22, 2], [23, 2], [17, 2], [18, 4], [19, 2], [20, 4], [24, 2], [25, 2], [26, 4]] as const) {
      if ((masks & (1 << bit)) !== 0) at += size;
    }
    if (length === 0 || at > style.length) break;
    characterStyles.push({ length, bold, italic });
    covered += length;
  }
  return { paragraphStyles, characterStyles };
}

/** Bytes of a TextPFException's fields after masks and bulletFlags; -1 when they run past the atom. */
function pfFieldsSize(style: Uint8Array, at: number, masks: number): number {
  let size = 0;
  // bulletChar, bulletFontRef, bulletSize, bulletColor, alignment, lineSpacing, spaceBefore, spaceAfter,
  // leftMargin, indent, defaultTabSize: in this order, present when their mask bit is set.
  for (const [bit, bytes] of [[7, 2], [4, 2], [6, 2], [5, 4], [11, 2], [12, 2], [13, 2], [14, 2], [8, 2], [10, 2], [15, 2]] as const) {
    if ((masks & (1 << bit)) !== 0) size += bytes;
  }
  if ((masks & (1 << 20)) !== 0) size += 2 + readU16(style, at + size) * 4;
  if ((masks & (1 << 16)) !== 0) size += 2;
  if ((masks & (0x7 << 17)) !== 0) size += 2;
  if ((masks & (1 << 21)) !== 0) size += 2;
  return at + size > style.length ? -1 : size;
}
