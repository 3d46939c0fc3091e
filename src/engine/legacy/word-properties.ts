/**
 * Paragraph, character and style properties of a Word 97-2003 document, as far as the Markdown needs them:
 * which style a paragraph has and whether it is in a table (and ends a row), in a list (and at which level), and
 * whether characters are bold, italic, hidden or deleted. They are read from the formatted disk pages (FKPs) of the
 * WordDocument stream, found through the bin tables (PlcBtePapx, PlcBteChpx) of the table stream, and from the
 * style sheet (STSH). Properties are lists of "sprms" (single property modifiers); the ones not needed are skipped.
 */
import { readU16, readU32, readU8, utf16 } from './bytes.js';

const FKP_SIZE = 512;
/** Bin tables with more pages than this are cut (a 50 MiB stream holds at most ~100,000 pages). */
const MAX_FKP_PAGES = 200_000;

export const SPRM = {
  pIlvl: 0x260a,
  pIlfo: 0x460b,
  pFInTable: 0x2416,
  pFTtp: 0x2417,
  pItap: 0x6649,
  pFInnerTtp: 0x244c,
  pFInnerTableCell: 0x244b,
  pOutLvl: 0x2640,
  cFBold: 0x0835,
  cFItalic: 0x0836,
  cFVanish: 0x083c,
  cFRMarkDel: 0x0800,
  cFStrike: 0x0837,
} as const;

export interface Sprm {
  code: number;
  /** Offset of the operand in the bytes the sprm was read from. */
  at: number;
}

/** The sprms of a grpprl between `start` and `end`, stopping at the first one that does not fit. */
export function readSprms(bytes: Uint8Array, start: number, end: number): Sprm[] {
  const sprms: Sprm[] = [];
  let at = start;
  while (at + 2 <= end) {
    const code = readU16(bytes, at);
    const size = operandSize(code, bytes, at + 2);
    if (at + 2 + size > end) break;
    sprms.push({ code, at: at + 2 });
    at += 2 + size;
  }
  return sprms;
}

function operandSize(code: number, bytes: Uint8Array, at: number): number {
  switch (code >> 13) {
    case 0:
    case 1:
      return 1;
    case 2:
    case 4:
    case 5:
      return 2;
    case 3:
      return 4;
    case 7:
      return 3;
    default:
      // sprmTDefTable (and its Word 6 twin) has a 2-byte size that counts itself minus one.
      if (code === 0xd608 || code === 0xd606) return readU16(bytes, at) + 1;
      return 1 + readU8(bytes, at);
  }
}

export interface ParagraphProperties {
  istd: number;
  inTable: boolean;
  /** The paragraph mark ends a table row (TTP). */
  rowEnd: boolean;
  /** Table nesting depth (0 outside tables). */
  depth: number;
  /** 1-based list override index, 0 outside lists. */
  ilfo: number;
  ilvl: number;
  /** The list/outline values were set by the paragraph itself (not inherited from the style). */
  ownList: boolean;
}

export interface CharacterProperties {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  /** Hidden text or text deleted with track changes: not part of the document as read. */
  dropped: boolean;
}

const NO_PARAGRAPH: ParagraphProperties = { istd: 0, inTable: false, rowEnd: false, depth: 0, ilfo: 0, ilvl: 0, ownList: false };
const NO_CHARACTER: CharacterProperties = { bold: false, italic: false, strike: false, dropped: false };

/** Property runs keyed by FC: `find(fc)` gives the properties in force at a byte offset of the WordDocument stream. */
export interface RunTable<T> {
  find(fc: number): T;
  /** Where the properties found at `fc` stop applying: the end of its run, or the start of the next one. */
  endOf(fc: number): number;
}

class SortedRuns<T> implements RunTable<T> {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly values: T[] = [];

  constructor(private readonly fallback: T) {}

  add(start: number, end: number, value: T): void {
    this.starts.push(start);
    this.ends.push(end);
    this.values.push(value);
  }

  /** Pages are in FC order in valid files; sort anyway so that a damaged table cannot break the search. */
  seal(): this {
    const order = this.starts.map((_, index) => index).sort((a, b) => (this.starts[a] as number) - (this.starts[b] as number));
    const starts = order.map((index) => this.starts[index] as number);
    const ends = order.map((index) => this.ends[index] as number);
    const values = order.map((index) => this.values[index] as T);
    this.starts.splice(0, this.starts.length, ...starts);
    this.ends.splice(0, this.ends.length, ...ends);
    this.values.splice(0, this.values.length, ...values);
    return this;
  }

  find(fc: number): T {
    const index = this.indexOf(fc);
    return index >= 0 ? (this.values[index] as T) : this.fallback;
  }

  endOf(fc: number): number {
    const index = this.indexOf(fc);
    if (index >= 0) return Math.max(this.ends[index] as number, fc + 1);
    // In a gap: the fallback holds until the next run starts (the first start above fc).
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.starts[middle] as number) <= fc) low = middle + 1;
      else high = middle;
    }
    return this.starts[low] ?? Number.POSITIVE_INFINITY;
  }

  private indexOf(fc: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (fc < (this.starts[middle] as number)) high = middle - 1;
      else if (fc >= (this.ends[middle] as number)) low = middle + 1;
      else return middle;
    }
    return -1;
  }
}

/** The FKP pages a bin table (PlcBtePapx / PlcBteChpx) points to, as offsets in the WordDocument stream. */
function fkpPages(table: Uint8Array, offset: number, length: number, wordStream: Uint8Array): number[] {
  if (length < 12 || offset + length > table.length) return [];
  const count = Math.min(Math.floor((length - 4) / 8), MAX_FKP_PAGES);
  const pages: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const pn = readU32(table, offset + (count + 1) * 4 + index * 4) & 0x3fffff;
    const page = pn * FKP_SIZE;
    if (page + FKP_SIZE <= wordStream.length) pages.push(page);
  }
  return pages;
}

export function readParagraphRuns(
  table: Uint8Array,
  binTable: [number, number],
  wordStream: Uint8Array,
  styles: StyleSheet,
): RunTable<ParagraphProperties> {
  const runs = new SortedRuns<ParagraphProperties>(NO_PARAGRAPH);
  for (const page of fkpPages(table, binTable[0], binTable[1], wordStream)) {
    const fkp = wordStream.subarray(page, page + FKP_SIZE);
    const crun = Math.min(readU8(fkp, FKP_SIZE - 1), 0x1d);
    for (let run = 0; run < crun; run += 1) {
      const start = readU32(fkp, run * 4);
      const end = readU32(fkp, (run + 1) * 4);
      const bOffset = readU8(fkp, (crun + 1) * 4 + run * 13) * 2;
      runs.add(start, end, bOffset === 0 ? NO_PARAGRAPH : paragraphProperties(fkp, bOffset, styles));
    }
  }
  return runs.seal();
}

function paragraphProperties(fkp: Uint8Array, at: number, styles: StyleSheet): ParagraphProperties {
  const cb = readU8(fkp, at);
  const start = cb === 0 ? at + 2 : at + 1;
  const length = cb === 0 ? readU8(fkp, at + 1) * 2 : cb * 2 - 1;
  const end = Math.min(start + length, FKP_SIZE);
  const istd = readU16(fkp, start);
  const style = styles.byIstd(istd);
  const properties: ParagraphProperties = { ...NO_PARAGRAPH, istd, ilfo: style?.ilfo ?? 0, ilvl: style?.ilvl ?? 0 };
  for (const sprm of readSprms(fkp, start + 2, end)) applyParagraphSprm(properties, fkp, sprm);
  return properties;
}

function applyParagraphSprm(properties: ParagraphProperties, bytes: Uint8Array, sprm: Sprm): void {
  switch (sprm.code) {
    case SPRM.pFInTable:
      properties.inTable = readU8(bytes, sprm.at) !== 0;
      if (properties.inTable && properties.depth === 0) properties.depth = 1;
      break;
    case SPRM.pFTtp:
      properties.rowEnd = readU8(bytes, sprm.at) !== 0;
      break;
    case SPRM.pItap:
      properties.depth = readU32(bytes, sprm.at);
      break;
    case SPRM.pIlfo:
      properties.ilfo = readU16(bytes, sprm.at);
      properties.ownList = true;
      break;
    case SPRM.pIlvl:
      properties.ilvl = readU8(bytes, sprm.at);
      break;
    default:
  }
}

export function readCharacterRuns(table: Uint8Array, binTable: [number, number], wordStream: Uint8Array): RunTable<CharacterProperties> {
  const runs = new SortedRuns<CharacterProperties>(NO_CHARACTER);
  for (const page of fkpPages(table, binTable[0], binTable[1], wordStream)) {
    const fkp = wordStream.subarray(page, page + FKP_SIZE);
    const crun = Math.min(readU8(fkp, FKP_SIZE - 1), 0x65);
    for (let run = 0; run < crun; run += 1) {
      const start = readU32(fkp, run * 4);
      const end = readU32(fkp, (run + 1) * 4);
      const offset = readU8(fkp, (crun + 1) * 4 + run) * 2;
      if (offset === 0) continue;
      const properties = { ...NO_CHARACTER };
      const cb = readU8(fkp, offset);
      for (const sprm of readSprms(fkp, offset + 1, Math.min(offset + 1 + cb, FKP_SIZE))) {
        // Toggle operands: 0 off, 1 on, 0x80 as the style, 0x81 the opposite of the style (read as on).
        const on = (readU8(fkp, sprm.at) & 0x01) === 1;
        if (sprm.code === SPRM.cFBold) properties.bold = on;
        else if (sprm.code === SPRM.cFItalic) properties.italic = on;
        else if (sprm.code === SPRM.cFStrike) properties.strike = on;
        else if (sprm.code === SPRM.cFVanish || sprm.code === SPRM.cFRMarkDel) properties.dropped ||= on;
      }
      runs.add(start, end, properties);
    }
  }
  return runs.seal();
}

export interface Style {
  /** Built-in style identifier: 1-9 are "heading 1".."heading 9", 62 Title, 74 Subtitle. */
  sti: number;
  name: string;
  /**
   * Heading level (0 when not a heading): from the built-in identifier, the name "heading N", or the outline level
   * the style sets or inherits (a custom style based on "heading 2" is a level-2 heading, as in Word's navigation).
   */
  headingLevel: number;
  /** List override and level the style applies or inherits (0 when none). */
  ilfo: number;
  ilvl: number;
}

export interface StyleSheet {
  byIstd(istd: number): Style | undefined;
}

/** What a style's own properties set; undefined when it leaves the value to its base style. */
interface OwnStyle {
  sti: number;
  name: string;
  base: number;
  list?: { ilfo: number; ilvl: number };
  outline?: number;
}

const STI_TITLE = 62;
const STI_SUBTITLE = 74;
const MAX_STYLES = 4096;
const ISTD_NIL = 0x0fff;
const MAX_BASE_DEPTH = 16;
/** Outline levels 0-8 are heading levels 1-9; 9 is body text. */
const OUTLINE_BODY = 9;

/** The style sheet (STSH); an unreadable one gives no styles rather than an error. */
export function readStyleSheet(table: Uint8Array, offset: number, length: number): StyleSheet {
  const own: (OwnStyle | undefined)[] = [];
  const end = Math.min(offset + length, table.length);
  if (length >= 6 && end > offset) {
    const cbStshi = readU16(table, offset);
    const cstd = Math.min(readU16(table, offset + 2), MAX_STYLES);
    const cbStdBase = readU16(table, offset + 4);
    let at = offset + 2 + cbStshi;
    for (let istd = 0; istd < cstd && at + 2 <= end; istd += 1) {
      const cbStd = readU16(table, at);
      const std = at + 2;
      at = std + cbStd;
      if (cbStd === 0 || at > end) continue;
      const nameAt = std + cbStdBase;
      const cch = readU16(table, nameAt);
      const style: OwnStyle = {
        sti: readU16(table, std) & 0x0fff,
        name: cch > 0 && nameAt + 2 + cch * 2 <= at ? utf16(table, nameAt + 2, cch) : '',
        base: readU16(table, std + 2) >> 4,
      };
      // Paragraph styles (stk 1) carry their paragraph properties first, after the name (aligned to 2 bytes).
      if ((readU16(table, std + 2) & 0x000f) === 1) {
        let upx = nameAt + 2 + (cch + 1) * 2;
        if ((upx - std) % 2 !== 0) upx += 1;
        const cbUpx = readU16(table, upx);
        if (upx + 2 + cbUpx <= at && cbUpx >= 2) {
          let ilvl = 0;
          for (const sprm of readSprms(table, upx + 4, upx + 2 + cbUpx)) {
            if (sprm.code === SPRM.pIlfo) style.list = { ilfo: readU16(table, sprm.at), ilvl };
            else if (sprm.code === SPRM.pIlvl) ilvl = readU8(table, sprm.at);
            else if (sprm.code === SPRM.pOutLvl) style.outline = readU8(table, sprm.at);
          }
          if (style.list !== undefined) style.list.ilvl = ilvl;
        }
      }
      own[istd] = style;
    }
  }
  const styles = own.map((style) => (style === undefined ? undefined : resolve(style, own)));
  return { byIstd: (istd) => styles[istd] };
}

/** A style with what it inherits from its base styles (a bounded walk up the chain). */
function resolve(style: OwnStyle, own: readonly (OwnStyle | undefined)[]): Style {
  let list = style.list;
  let outline = style.outline;
  let base = style.base;
  for (let depth = 0; depth < MAX_BASE_DEPTH && base !== ISTD_NIL && (list === undefined || outline === undefined); depth += 1) {
    const parent = own[base];
    if (parent === undefined) break;
    list ??= parent.list;
    outline ??= parent.outline;
    base = parent.base;
  }
  let headingLevel = headingLevelOf(style.sti, style.name);
  if (headingLevel === 0 && outline !== undefined && outline < OUTLINE_BODY) headingLevel = outline + 1;
  return { sti: style.sti, name: style.name, headingLevel, ilfo: list?.ilfo ?? 0, ilvl: list?.ilvl ?? 0 };
}

function headingLevelOf(sti: number, name: string): number {
  if (sti >= 1 && sti <= 9) return sti;
  if (sti === STI_TITLE) return 1;
  if (sti === STI_SUBTITLE) return 2;
  const match = /^heading\s*([1-9])$/i.exec(name.trim());
  return match ? Number(match[1]) : 0;
}
