/**
 * Word spaces the glyphs' spacing makes or unmakes. Ghostscript's pdfwrite, turning PostScript into PDF (groff's man
 * pages and documents through `ps2pdf`, among others), draws what groff sets with `ashow` as one string under a
 * character spacing (`Tc`) as wide as a space, set for that string alone: `2.5 Tc (,p)Tj 0 Tc` for the `, p` of
 * `with -l, print`. PDFium writes no space there (no space glyph, no move between the glyphs), so LiteParse's word is
 * `-l,print`: dozens of words run together on a man page's every page. The other way round, groff kerns a pair of
 * bold letters with a space glyph drawn under a word spacing (`Tw`) that takes its width back (`-2.3 Tw (ev e)Tj`):
 * PDFium writes the space, and `--reverse` reads `--rev erse`. pdfjs's reading and poppler's have neither fault;
 * LiteParse's text is kept, and mended where the content stream says where the glyphs stand.
 *
 * Read from the bytes where they are in the clear (stated-info.ts): a page's content streams (Flate or plain),
 * tokenised only where some `Tc` or `Tw` is that wide for the page's type. A run is kept only where everything is
 * certain: a gap made by a spacing set for that one string (a spacing kept over many strings is letter spacing, as in
 * a title set in spaced capitals), its place known (a string drawn right after another starts where that one's
 * unknown width ends), its glyphs one byte each in printable ASCII, a grave accent's code aside (what LiteParse writes for them can be matched),
 * upright text on an unrotated page. Anything unsure is left as LiteParse read it.
 */
import { clearCatalog, clearStreamData, DELIMITER, isRef, Lexer, NUMBER, pageLeaves, WHITE, type Ref, type Value } from './stated-info.js';

/** A string drawn where its spacing makes a word's gap between some of its glyphs, or takes a space's width away. */
export interface CharSpacedRun {
  /** Where its first glyph starts: x from the page's left, y its baseline from the page's top (points, LiteParse's view). */
  x: number;
  y: number;
  /** Its glyphs as characters (one byte each, printable ASCII or a space). */
  text: string;
  /** The indices of the glyphs followed by a word's gap. */
  partsAfter: number[];
  /** The indices of its spaces drawn with next to no width. */
  joinsAt: number[];
  /** The gap after each of `partsAfter`, in points. */
  gap: number;
  /** The type's size in points. */
  size: number;
}

/**
 * Glyphs this far apart (in ems) are parted as words: a space is a quarter of an em or more, letter spacing far less,
 * and the thin space groff sets round a quoted character (1/6 em, in `('.')`) is no word's gap.
 */
const WORD_GAP_EM = 0.2;
/** A space glyph's width in most text faces (Times' 250, Helvetica's 278 thousandths of the em). */
const SPACE_EM = 0.25;
/** A space drawn narrower than this (ems) is no word's gap: a kerning device. */
const JOINED_EM = 0.1;
/** The most content a page is inflated to, and a document in all, for this look. */
const MAX_PAGE_BYTES = 16 << 20;
const MAX_DOCUMENT_BYTES = 64 << 20;

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: Matrix): Matrix {
  return [m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3], m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3], m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5]];
}

interface PageNode {
  contents: Value | undefined;
  /** The visible box (CropBox within MediaBox), [x0, y0, x1, y1]. */
  box: [number, number, number, number] | undefined;
  rotate: number;
}

function rectOf(value: Value | undefined): [number, number, number, number] | undefined {
  if (!Array.isArray(value) || value.length !== 4 || !value.every((v) => typeof v === 'number')) return undefined;
  const [a, b, c, d] = value as number[];
  return [Math.min(a!, c!), Math.min(b!, d!), Math.max(a!, c!), Math.max(b!, d!)];
}

/** The first `pageCount` pages in order, with their visible boxes; throws `Unsure` where the tree is not one this reads. */
function pageNodes(bytes: Uint8Array, pageCount: number): { pages: PageNode[]; deref: (value: Value | undefined) => Value | undefined } {
  const { catalog, deref } = clearCatalog(bytes);
  const pages = pageLeaves(catalog, deref, pageCount).map(({ node, inherited }): PageNode => {
    const media = rectOf(deref(inherited.get('MediaBox')));
    const crop = rectOf(deref(inherited.get('CropBox')));
    const box: PageNode['box'] = media && crop ? [Math.max(media[0], crop[0]), Math.max(media[1], crop[1]), Math.min(media[2], crop[2]), Math.min(media[3], crop[3])] : media;
    const rotate = deref(inherited.get('Rotate'));
    return { contents: node.get('Contents'), box, rotate: typeof rotate === 'number' ? rotate : 0 };
  });
  return { pages, deref };
}

/** The page's content streams joined, or undefined. */
function contentOf(bytes: Uint8Array, contents: Value | undefined, deref: (value: Value | undefined) => Value | undefined, budget: number): Buffer | undefined {
  let refs: Ref[];
  if (isRef(contents)) {
    // A reference to the stream itself, or to an array of streams.
    const target = deref(contents);
    refs = Array.isArray(target) ? target.filter(isRef) : [contents];
  } else if (Array.isArray(contents)) {
    refs = contents.filter(isRef);
  } else {
    return undefined;
  }
  const parts: Buffer[] = [];
  let total = 0;
  for (const ref of refs) {
    const data = clearStreamData(bytes, ref, Math.min(MAX_PAGE_BYTES, budget - total));
    total += data.length + 1;
    parts.push(data, Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/**
 * Whether the content may set glyphs a word's gap apart by character spacing, or a space's width away: some `Tc`
 * (or `"`) over `WORD_GAP_EM` of the smallest size some `Tf` sets, or a `Tc` and a `Tw` under zero by most of a
 * space, read from the bytes before each operator (no tokenising: most pages set no such spacing, or one far
 * narrower, letter spacing).
 */
function mayPartWords(content: Buffer): boolean {
  if (content.includes('"')) return true;
  const sizes = operandRange(content, 'Tf');
  if (!(sizes.min > 0)) return false;
  // A character spacing as wide as a word's gap; or spacings that take most of a space's width away.
  const spacing = operandRange(content, 'Tc');
  const words = operandRange(content, 'Tw');
  const orZero = (value: number): number => (Number.isNaN(value) ? 0 : value);
  const narrowest = orZero(spacing.min) + orZero(words.min);
  return spacing.max / sizes.min >= WORD_GAP_EM || SPACE_EM + narrowest / sizes.min <= JOINED_EM;
}

/** The least and the greatest number just before each `operator` standing as a word of its own (NaN both: none). */
function operandRange(content: Buffer, operator: string): { min: number; max: number } {
  let min = NaN;
  let max = NaN;
  for (let at = content.indexOf(operator); at >= 0; at = content.indexOf(operator, at + 2)) {
    const after = content[at + 2];
    if (!isWhite(content[at - 1] ?? 0x20) || !(after === undefined || isWhite(after) || DELIMITER.has(after))) continue;
    let end = at - 1;
    while (end > 0 && isWhite(content[end]!)) end--;
    let start = end;
    while (start > 0 && !isWhite(content[start - 1]!) && !DELIMITER.has(content[start - 1]!)) start--;
    const value = Number(content.toString('latin1', start, end + 1));
    if (!Number.isFinite(value)) continue;
    if (!(value >= min)) min = value;
    if (!(value <= max)) max = value;
  }
  return { min, max };
}

function isWhite(byte: number): boolean {
  return WHITE.has(byte);
}

/**
 * A glyph code LiteParse writes as the same character: printable ASCII, but 0x60, a grave accent in WinAnsi and a
 * left quote in StandardEncoding. 0x27 is a straight quote in one and a right quote in the other, which LiteParse
 * writes straight.
 */
function isPlainCode(code: number): boolean {
  return code > 0x20 && code < 0x7f && code !== 0x60;
}

/** One string drawn: its glyph codes and the gaps (ems) set between them by the spacing and TJ's moves. */
interface Shown {
  codes: string;
  gaps: number[];
}

/** The glyphs of Tj's string or TJ's array, each glyph followed by `spacingEm` (and a space by `wordEm` more) and TJ's moves. */
function shownOf(operand: Value | undefined, spacingEm: number, wordEm: number): Shown | undefined {
  const elements = Array.isArray(operand) ? operand : [operand];
  let codes = '';
  const gaps: number[] = [];
  let move = 0;
  for (const element of elements) {
    if (typeof element === 'number') {
      // A TJ number moves the next glyph back by thousandths of an em.
      move -= element / 1000;
      continue;
    }
    if (typeof element !== 'object' || element === null || !('bytes' in element)) return undefined;
    for (const char of element.bytes) {
      if (codes.length > 0) gaps.push(spacingEm + (codes.endsWith(' ') ? wordEm : 0) + move);
      codes += char;
      move = 0;
    }
  }
  return { codes, gaps };
}

interface TextState {
  ctm: Matrix;
  tm: Matrix;
  tlm: Matrix;
  tc: number;
  tw: number;
  tfs: number;
  th: number;
  tl: number;
}

/** The runs of one page's content (form XObjects it paints are not followed). */
function pageRuns(content: Buffer, box: [number, number, number, number]): CharSpacedRun[] {
  const lexer = new Lexer(content, 0);
  const operands: Value[] = [];
  const state: TextState = { ctm: IDENTITY, tm: IDENTITY, tlm: IDENTITY, tc: 0, tw: 0, tfs: 0, th: 1, tl: 0 };
  const saved: Matrix[] = [];
  // Each string drawn, in order: the spacing it was drawn under (a count of the spacings set so far) and, where it
  // is one to look at, its run.
  const drawn: { spacing: number; run?: CharSpacedRun; parts?: boolean }[] = [];
  let spacing = 0;
  let placed = true;
  const setSpacing = (value: number) => {
    if (value !== state.tc) spacing++;
    state.tc = value;
  };
  const nextLine = (tx: number, ty: number) => {
    state.tlm = multiply([1, 0, 0, 1, tx, ty], state.tlm);
    state.tm = state.tlm;
    placed = true;
  };
  const show = (operand: Value | undefined) => {
    const entry: { spacing: number; run?: CharSpacedRun; parts?: boolean } = { spacing };
    drawn.push(entry);
    const wasPlaced = placed;
    // Where the next string starts depends on this one's width, which only the font knows.
    placed = false;
    if (!wasPlaced || !(state.tfs > 0)) return;
    const spacingEm = state.tc / state.tfs;
    const wordEm = state.tw / state.tfs;
    // A gap made by the character spacing itself (TJ's moves part words PDFium sees already), or spaces drawn narrow.
    const parts = spacingEm >= WORD_GAP_EM;
    if (!parts && !(SPACE_EM + spacingEm + wordEm <= JOINED_EM)) return;
    const shown = shownOf(operand, spacingEm, wordEm);
    if (!shown || shown.codes.length < 2 || shown.codes.length > 64) return;
    if (![...shown.codes].every((char) => char === ' ' || isPlainCode(char.charCodeAt(0)))) return;
    const { codes, gaps } = shown;
    const partsAfter: number[] = [];
    const joinsAt: number[] = [];
    gaps.forEach((gap, i) => {
      const plain = isPlainCode(codes.charCodeAt(i)) && isPlainCode(codes.charCodeAt(i + 1));
      if (parts && plain && gap >= WORD_GAP_EM) partsAfter.push(i);
      // A space between two glyphs whose own width, with what follows it, is next to nothing.
      if (codes[i] === ' ' && i > 0 && isPlainCode(codes.charCodeAt(i - 1)) && isPlainCode(codes.charCodeAt(i + 1)) && SPACE_EM + gap <= JOINED_EM) joinsAt.push(i);
    });
    if (partsAfter.length === 0 && joinsAt.length === 0) return;
    const [a, b, c, d, e, f] = multiply(state.tm, state.ctm);
    // Upright, unflipped text only.
    if (!(a > 0 && d > 0) || Math.abs(b) > 1e-6 * a || Math.abs(c) > 1e-6 * d) return;
    const size = state.tfs * d;
    entry.run = { x: e - box[0], y: box[3] - f, text: codes, partsAfter, joinsAt, gap: spacingEm * size * state.th * (a / d), size };
    entry.parts = partsAfter.length > 0;
  };
  const number = (i: number): number => {
    const value = operands[operands.length - i];
    return typeof value === 'number' ? value : NaN;
  };
  while (lexer.pos < content.length) {
    lexer.skipSpace();
    if (lexer.pos >= content.length) break;
    const byte = content[lexer.pos]!;
    if (byte === 0x2f || byte === 0x28 || byte === 0x3c || byte === 0x5b) {
      operands.push(lexer.value());
      continue;
    }
    if (byte === 0x5d || byte === 0x3e || byte === 0x29 || byte === 0x7b || byte === 0x7d) {
      lexer.pos++;
      continue;
    }
    const word = lexer.word();
    if (word === '') {
      lexer.pos++;
      continue;
    }
    if (NUMBER.test(word)) {
      operands.push(Number(word));
      continue;
    }
    switch (word) {
      case 'q':
        saved.push(state.ctm);
        break;
      case 'Q':
        state.ctm = saved.pop() ?? state.ctm;
        break;
      case 'cm':
        if (operands.length >= 6) state.ctm = multiply([number(6), number(5), number(4), number(3), number(2), number(1)], state.ctm);
        break;
      case 'BT':
        state.tm = IDENTITY;
        state.tlm = IDENTITY;
        placed = true;
        break;
      case 'Tc':
        setSpacing(number(1));
        break;
      case 'Tw':
        state.tw = number(1);
        break;
      case 'Tz':
        state.th = number(1) / 100;
        break;
      case 'TL':
        state.tl = number(1);
        break;
      case 'Tf':
        state.tfs = number(1);
        break;
      case 'Td':
        nextLine(number(2), number(1));
        break;
      case 'TD':
        state.tl = -number(1);
        nextLine(number(2), number(1));
        break;
      case 'Tm':
        state.tm = [number(6), number(5), number(4), number(3), number(2), number(1)];
        state.tlm = state.tm;
        placed = true;
        break;
      case 'T*':
        nextLine(0, -state.tl);
        break;
      case 'Tj':
      case 'TJ':
        show(operands[operands.length - 1]);
        break;
      case "'":
        nextLine(0, -state.tl);
        show(operands[operands.length - 1]);
        break;
      case '"':
        state.tw = number(3);
        setSpacing(number(2));
        nextLine(0, -state.tl);
        show(operands[operands.length - 1]);
        break;
      case 'ID':
        skipInlineImage(lexer, content);
        break;
    }
    operands.length = 0;
  }
  // Gaps made by a spacing set for that one string: the strings drawn before and after it were drawn under another.
  const runs: CharSpacedRun[] = [];
  drawn.forEach((entry, i) => {
    if (!entry.run) return;
    if (entry.parts && (drawn[i - 1]?.spacing === entry.spacing || drawn[i + 1]?.spacing === entry.spacing)) entry.run.partsAfter = [];
    if (entry.run.partsAfter.length > 0 || entry.run.joinsAt.length > 0) runs.push(entry.run);
  });
  return runs;
}

/** Past an inline image's data: from `ID`'s one white-space byte to `EI` standing as a word of its own. */
function skipInlineImage(lexer: Lexer, content: Buffer): void {
  for (let at = content.indexOf('EI', lexer.pos + 1); at >= 0; at = content.indexOf('EI', at + 2)) {
    const after = content[at + 2];
    if (isWhite(content[at - 1]!) && (after === undefined || isWhite(after))) {
      lexer.pos = at + 2;
      return;
    }
  }
  lexer.pos = content.length;
}

/**
 * The runs of the pages numbered in `pageNumbers` (from 1), by page number; none where the file is not one this
 * reads in the clear (encrypted, damaged, another filter).
 */
export function charSpacedRuns(bytes: Uint8Array, pageNumbers: ReadonlySet<number>): Map<number, CharSpacedRun[]> {
  const found = new Map<number, CharSpacedRun[]>();
  if (pageNumbers.size === 0) return found;
  try {
    const tree = pageNodes(bytes, Math.max(...pageNumbers));
    let budget = MAX_DOCUMENT_BYTES;
    for (const number of pageNumbers) {
      const page = tree.pages[number - 1];
      if (budget <= 0 || !page?.box || page.rotate % 360 !== 0) continue;
      const content = contentOf(bytes, page.contents, tree.deref, budget);
      if (!content) continue;
      budget -= content.length;
      if (!mayPartWords(content)) continue;
      const runs = pageRuns(content, page.box);
      if (runs.length > 0) found.set(number, runs);
    }
  } catch {
    // Unsure, a stream zlib refuses, a budget passed: the pages read so far keep their runs.
  }
  return found;
}
