/**
 * Lines of one region → blocks: paragraphs (split at vertical gaps, font changes and first-line indents),
 * lists (bullets and enumerators, with continuation lines and nesting by indent), code (runs of monospaced
 * lines that look like code), display formulas and captions. Words hyphenated across lines are joined.
 */
import { CODE_LINE_SHARE, HEADING_SIZE_STEP } from './text-items.js';
import { numbersApart } from './numbers-apart.js';
import { goesOnLadder, isDashFramed, levelsByGlyph } from './marker-levels.js';
import { countCodePointsBesideSpaces } from './white-space.js';
import { isCaptionText } from './captions.js';
import { joinMonospace } from './lines.js';
import { quotedLines, quoteMarkdown } from './quoted-lines.js';
import { escapeMarkdownText } from './markdown.js';
import { append, type PdfTextItem, type ProtoBlock, type Rect, type TextLine } from './types.js';
import { BODY_ROLE, type StructureMark } from './liteparse/structure-roles.js';
import { boundingRect, isCentredBetween, median } from './measure.js';
import { hyphenatedWords, letterRunEnd, letterRunStart } from './letter-runs.js';
import { isBrokenByHand } from './hand-broken-lines.js';
import { opensNextTermEntry } from './term-entries.js';
import { labelsTextAt, leadsNextEntry } from './lead-labels.js';
import { endsWithCheckBox, opensWithCheckBox } from './check-boxes.js';
import { opensItemParagraph } from './item-paragraphs.js';
import { areOptionsInLine } from './options-in-line.js';
import { fitsOnLine, wrapsBefore, wrapsBeforeSquareWord } from './line-wrap.js';
import { regionPitches } from './line-pitch.js';

export interface ListMarker {
  ordered: boolean;
  /** The number for numeric enumerators. */
  number?: number;
  /**
   * A letter or roman enumerator as the document writes it ("d.", "(iv)"), or a number before a parenthesis or in
   * parentheses ("1)", "(1)"): Markdown numbers its lists `1.` alone, so such an item is written as a bullet that
   * keeps its enumerator.
   */
  label?: string;
  /** Text after the marker. */
  rest: string;
  /** A bullet's glyph as drawn (`□`, `○`, `-`). */
  glyph?: string;
}

/**
 * A list's bullet: a typographic one, or a glyph its font maps to no character (a control or private-use code: a
 * bullet in a Type 3 font, as LaTeX's bitmap fonts draw it, or in a symbol font such as Word's).
 */
// eslint-disable-next-line no-control-regex -- a bullet read as a control code is one of the marks it takes
const BULLET = /^([•◦▪▫‣●○■□►▸➢✓✔·\-–*\u0001-\u0008\u000e-\u001f\u007f-\u009f\ue000-\uf8ff])\s+(\S.*)$/u;
const NUMERIC = /^\(?(0|[1-9]\d{0,2})([.)])\s+(\S.*)$/u;
const LETTER = /^\(?([a-z])([.)])\s+(\S.*)$/u;
const ROMAN = /^\(?([ivx]{1,5})([.)])\s+(\S.*)$/u;

/** The enumerator of a letter or roman marker match, as written: "(iv)", "d.". */
function enumerator(text: string, match: RegExpExecArray): string {
  return `${text.startsWith('(') ? '(' : ''}${match[1]!}${match[2]!}`;
}

/** The list marker a line starts with, if any. */
export function listMarker(text: string): ListMarker | null {
  const bullet = isDashFramed(text) ? null : BULLET.exec(text);
  if (bullet) return { ordered: false, rest: bullet[2]!, glyph: bullet[1]! };
  const numeric = NUMERIC.exec(text);
  if (numeric) {
    const open = text.startsWith('(');
    if (open && numeric[2] !== ')') return null;
    // `1)` and `(1)` are kept as written: a Korean document numbers its levels `1.`, `1)` and `(1)` apart.
    const label = numeric[2] === ')' ? enumerator(text, numeric) : undefined;
    return { ordered: true, number: Number(numeric[1]), ...(label === undefined ? {} : { label }), rest: numeric[3]! };
  }
  const roman = ROMAN.exec(text);
  if (roman) return { ordered: true, label: enumerator(text, roman), rest: roman[3]! };
  const letter = LETTER.exec(text);
  if (letter) return { ordered: true, label: enumerator(text, letter), rest: letter[3]! };
  return null;
}

export interface JoinOptions {
  /**
   * Leave a mark (HYPHEN_MARK) where a line-end hyphen was dropped, for `resolveHyphens` to decide with the
   * whole document's vocabulary (`dual-` + `encoder` stays hyphenated when "dual-encoder" occurs elsewhere).
   */
  deferHyphens?: boolean;
  /**
   * The page's body text is itself monospaced (a typewriter-style document): monospace then says nothing about
   * code, and code blocks are made of the lines `sourceCode` holds alone.
   */
  monospaceBody?: boolean;
  /** On a typewriter page: the lines that are source code (source-code.ts). */
  sourceCode?: ReadonlySet<TextLine>;
  /**
   * On a tagged page: each line's mark in the structure tree. A heading's lines are one block, apart from the
   * lines around them however they are set, and a numbered heading (`2. Cutting Tools`) is no list item.
   */
  markOf?: (line: TextLine) => StructureMark | undefined;
  /** The page's body size (most common by characters): display type is measured against it. */
  bodySize?: number;
}

/** Private-use character marking a dropped line-end hyphen until the document's vocabulary is known. */
export const HYPHEN_MARK = '\ue000';

export interface Vocabulary {
  /** Lower-case words written with a hyphen somewhere (`dual-encoder`). */
  hyphenated: Set<string>;
  /** Lower-case words written without one. */
  plain: Set<string>;
  /** Lower-case parts after a hyphen in hyphenated words (`dimensional` of `low-dimensional`). */
  tails: Set<string>;
}

export function emptyVocabulary(): Vocabulary {
  return { hyphenated: new Set(), plain: new Set(), tails: new Set() };
}

/** Adds a text's words (not those broken by a mark) to the vocabulary. */
export function addToVocabulary(vocabulary: Vocabulary, text: string): void {
  for (const word of hyphenatedWords(text)) {
    if (word.includes(HYPHEN_MARK)) continue;
    const lower = word.toLowerCase();
    if (word.includes('-')) {
      vocabulary.hyphenated.add(lower);
      for (const tail of lower.split('-').slice(1)) vocabulary.tails.add(tail);
    } else {
      vocabulary.plain.add(lower);
    }
  }
}

/**
 * Decides each marked line-end hyphen: kept when the hyphenated form occurs elsewhere, or the second part is
 * used after a hyphen elsewhere (`high-` + `dimensional` beside `low-dimensional`), or the first part is a
 * single character (`d-` + `dimensional`), and the closed form does not occur; dropped otherwise
 * (`trans-` + `formation` → `transformation`).
 */
export function resolveHyphens(text: string, vocabulary: Vocabulary): string {
  let mark = text.indexOf(HYPHEN_MARK);
  if (mark < 0) return text;
  // Each mark between two runs of letters and digits, as `([\p{L}\p{N}]+)\ue000([\p{L}\p{N}]+)` with flags g, u
  // replaces them: looked for from the marks, not by that pattern over the whole text (letter-runs.ts).
  let out = '';
  let copied = 0;
  while (mark >= 0) {
    // Not back into the run the last replacement took (its right-hand word ends at this mark).
    const start = Math.max(letterRunStart(text, mark), copied);
    const end = letterRunEnd(text, mark + 1);
    if (start < mark && end > mark + 1) {
      out += text.slice(copied, start) + joinBroken(text.slice(start, mark), text.slice(mark + 1, end), vocabulary);
      copied = end;
      mark = text.indexOf(HYPHEN_MARK, end);
    } else {
      mark = text.indexOf(HYPHEN_MARK, mark + 1);
    }
  }
  return (out + text.slice(copied)).replaceAll(HYPHEN_MARK, '');
}

function joinBroken(left: string, right: string, vocabulary: Vocabulary): string {
  const hyphenated = `${left}-${right}`.toLowerCase();
  const closed = `${left}${right}`.toLowerCase();
  const compound = vocabulary.hyphenated.has(hyphenated) || vocabulary.tails.has(right.toLowerCase()) || [...left].length === 1;
  return compound && !vocabulary.plain.has(closed) ? `${left}-${right}` : `${left}${right}`;
}

const TYPOGRAPHIC_BULLET = /^[•◦▪▫‣●○■□►▸➢✓✔·–]\s/u;
/** A line led out with dots to what stands at its end: a contents line's page number, a menu's or a list's price. */
export const DOT_LEADER = /(?:\.\s?){4,}\s*(?:[\divxlcIVXLC]{0,6}|[$€£¥]?\s?\d[\d.,]*)\s*$/u;

const HYPHEN_END = /([\p{L}\p{N}])[-\u00ad\u2010]$/u;
const NO_SPACE_SCRIPT = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;

/**
 * Joins the lines of a paragraph. A line ending in a hyphen after a letter, followed by a line starting
 * lower-case, is a word broken across lines: the hyphen goes (kept in compounds such as `state-of-the-` +
 * `art`). Before an upper-case letter or a digit the hyphen stays and no space is added (`Lucene-` + `BM25`).
 * Chinese and Japanese lines join without a space.
 */
export function joinLines(texts: readonly string[], options: JoinOptions = {}): string {
  // Built from parts (each previous line is looked at, never the whole text again): linear in the text.
  const parts: string[] = [];
  let prev = '';
  for (const raw of texts) {
    const text = raw.trim();
    if (!text) continue;
    if (parts.length === 0) {
      parts.push(text);
      prev = text;
      continue;
    }
    if (prev.endsWith('\u00ad')) {
      parts[parts.length - 1] = prev.slice(0, -1);
    } else if (HYPHEN_END.test(prev)) {
      if (/\p{Ll}/u.test(text.charAt(0))) {
        const lastWord = prev.slice(prev.lastIndexOf(' ') + 1, -1);
        if (!lastWord.includes('-')) {
          parts[parts.length - 1] = prev.slice(0, -1) + (options.deferHyphens ? HYPHEN_MARK : '');
        }
      }
    } else if (!(NO_SPACE_SCRIPT.test(prev.slice(-1)) && NO_SPACE_SCRIPT.test(text.charAt(0)))) {
      parts.push(' ');
    }
    parts.push(text);
    prev = text;
  }
  return parts.join('');
}

const MATH_SYMBOL = /[=<>≤≥≈≠≡∑∏∫√±∓×÷∂∇∞∈∉∀∃→←⇒⇔⊂⊆∪∩^]/;
const CODE_HINT = /[;{}()=[\]<>]|^\s*(?:\/\/|#|def |class |import |return |function |for |if |while |let |const |var |public |private )/;
/** A shell command: a prompt, or a word then an option (`-g`, `--out`) or a relative path (`./archive`). */
const COMMAND_HINT = /^\s*(?:[$>]\s+\S|[\w.-]+\s(?:.*\s)?(?:--?[a-z][\w-]*(?:=\S*)?|\.{1,2}\/\S*)(?:\s|$))/;

/** A command-line option given its value, no space around its `=` (a manual's `--parallel=N`, `-o=FILE`). */
const OPTION_WITH_VALUE = /^--?\p{L}[\p{L}\p{N}-]*=\S+$/u;

/** A display formula: short, mostly symbols and single letters, narrower than the column. */
export function looksLikeFormula(text: string, width: number, regionWidth: number): boolean {
  if (text.length === 0 || text.length > 120 || !MATH_SYMBOL.test(text) || OPTION_WITH_VALUE.test(text.trim())) return false;
  // Words of prose: three letters or more, or two syllables of Hangul or two Han characters (each a word's worth).
  const words = text.match(/[\p{Script=Hangul}\p{Script=Han}]{2,}|\p{L}{3,}/gu) ?? [];
  const mathWords = words.filter((word) => /^(?:sin|cos|tan|log|exp|lim|max|min|sup|inf|det|arg|mod)$/i.test(word));
  if (words.length - mathWords.length > 1) return false;
  return regionWidth <= 0 || width < 0.75 * regionWidth;
}

interface Region {
  x0: number;
  x1: number;
}

type Mode = 'text' | 'list' | 'mono';

interface Draft {
  mode: Mode;
  lines: TextLine[];
  /** Smallest line start (indent) so far, from the region's reading-side edge. */
  minStart: number;
  /** For lists: index of the line where each item starts, and its marker. */
  items: { line: number; marker: ListMarker; start: number; textStart?: number | undefined }[];
  /** For lists: indexes of the lines opening a later paragraph of their item. */
  itemParagraphs?: Set<number>;
}

function startOf(line: TextLine, region: Region): number {
  return line.rtl ? region.x1 - line.x1 : line.x0 - region.x0;
}
/**
 * Where an item's text starts after its marker, from the region's edge, where the marker is a word box of its own
 * (undefined where it is not, or the line runs right to left).
 */
function textStartOf(line: TextLine, marker: ListMarker, region: Region): number | undefined {
  if (line.rtl) return undefined;
  const prefix = line.text.slice(0, line.text.length - marker.rest.length).replace(/\s+/g, '');
  let consumed = '';
  for (const cell of line.cells) {
    for (const item of cell.items) {
      if (consumed.length >= prefix.length) return consumed === prefix ? item.x0 - region.x0 : undefined;
      consumed += item.str.replace(/\s+/g, '');
    }
  }
  return undefined;
}

function endOf(line: TextLine, region: Region): number {
  return line.rtl ? region.x1 - line.x0 : line.x1 - region.x0;
}

function dominant(lines: readonly TextLine[]): { size: number; bold: boolean; chars: number } {
  const sizes = new Map<number, number>();
  let bold = 0;
  let chars = 0;
  for (const line of lines) {
    // A field line's type is its label's, not that of the value filled in at its box's size.
    const lineSize = line.labelSize ?? line.size;
    sizes.set(lineSize, (sizes.get(lineSize) ?? 0) + line.chars);
    if (line.bold) bold += line.chars;
    chars += line.chars;
  }
  let size = lines[0]?.size ?? 0;
  let best = -1;
  for (const [s, n] of sizes) {
    if (n > best) {
      best = n;
      size = s;
    }
  }
  return { size, bold: chars > 0 && bold >= 0.7 * chars, chars };
}

/** `Report ID: INV-0042`, `Prepared By: J. Smith`: a short label, a colon, a value. */
const LABEL_LINE = /^[\p{Lu}\p{N}][\p{L}\p{N} .'’&/#()-]{0,38}:\s*\S/u;
/** The same opening in a letter of no case (Hangul, Han, kana): `주: 순계 기준`, `자료: 통계청`. */
const CASELESS_LABEL_LINE = /^\p{Lo}[\p{L}\p{N} .'’&/#()-]{0,38}:\s*\S/u;

/** A field of a form or a report's header block: one per line, never run together into a paragraph. */
export function isLabelLine(text: string): boolean {
  return text.length <= 80 && LABEL_LINE.test(text) && text.split(/\s+/).length <= 12;
}

/**
 * A label line in either script. Two of them one under the other are two fields: a Korean table's note and its
 * source under it (`주: 순계 기준` over `자료: 통계청`). One alone under a line with room for it may be a box's
 * text going on (`과정: ① …` under its activity's name), which only a cased label tells apart.
 */
function isAnyLabelLine(text: string): boolean {
  return isLabelLine(text) || (text.length <= 80 && CASELESS_LABEL_LINE.test(text) && text.split(/\s+/).length <= 12);
}

/** A footnote's or a reference's number (`25 `, `[12] `, `* `) starting a line. */
export const NOTE_START = /^(?:\d{1,3}|\[\d{1,3}\]|[*†‡§¶])\s+[\p{L}"“(]/u;
/**
 * A note's mark set against its first word (`1Including`, `*Analytical Engines Ltd.`): LaTeX sets the raised mark
 * right before the note's text, a word processor the number with no indent, and a reader that joins the two into
 * one word loses the space NOTE_START needs.
 */
const NOTE_AGAINST_WORD = /^(?:\d{1,3}|[*∗†‡§¶])\p{Lu}\p{Ll}/u;

/** Whether a text opens as a note does: its number or mark set apart, or against its first word. */
export function opensNote(text: string): boolean {
  return NOTE_START.test(text) || NOTE_AGAINST_WORD.test(text);
}

/** A sentence or a clause ends here, maybe inside quotes or a bracket. */
const SENTENCE_END = /[.!?:;。！？]["'”’)]?$/u;

/**
 * A line that starts in lower case under one that ends mid-sentence: the same sentence run on, even across a
 * leading wider than the body's (a heading set loose over two lines).
 */
function runsOn(prevText: string, text: string): boolean {
  return OPENS_IN_LOWER_CASE.test(text) && !SENTENCE_END.test(prevText);
}

/** A line opening in lower case, maybe after an opening quote or bracket (`“center of the brushland”) forest`). */
const OPENS_IN_LOWER_CASE = /^[\p{Pi}"'([]*\p{Ll}/u;

/** A paragraph's first-line indent is at most this many ems. */
const PARAGRAPH_INDENT_EM = 3;
/** How far (em) a line must start out past the paragraph's lines to begin another block, under a short line. */
const OUTDENT_EM = 1.5;
/** A line ending before this share of the region's width stops well short of its edge. */
const SHORT_LINE_SHARE = 0.75;

/**
 * A line in another weight that carries on a sentence: the line above runs to the region's edge (or so near it that
 * this line's first word, of Hangul or Han, would not fit after it: a Korean line wraps between long words) without
 * ending its sentence, and this one starts where the paragraph's lines start. A line is bold or not by
 * the most of its characters, so a line of running text holding a bold term or two (a manual's option names) can
 * count as bold; it is not a heading for that.
 */
function continuesFullLine(first: TextLine, prev: TextLine, line: TextLine, region: Region, blockStart: number): boolean {
  const width = region.x1 - region.x0;
  const full = endOf(prev, region) >= width - line.size || wrapsBeforeSquareWord(prev, line, region) || wrapsAfterBoldLead(first, prev, line, region);
  const start = startOf(line, region);
  const wordsStart = wordsStartAfterSymbol(first, region);
  const aligned = Math.abs(start - blockStart) <= 0.5 * line.size || (wordsStart !== undefined && Math.abs(start - wordsStart) <= 0.5 * line.size);
  return full && aligned && !SENTENCE_END.test(prev.text);
}

/** A line carrying on its sentence stands at most this many of the paragraph's first pitch below the line above. */
const RUN_ON_PITCH = 1.5;

/** A bold first line wrapped before the next line's first word stops at most this many ems short of the edge. */
const BOLD_LEAD_WRAP_EM = 4;

/**
 * A paragraph's first line read as bold for the term in bold it opens with (a web page's `Duck is the common name …`,
 * the term bold): LiteParse names a line's one item after its first font, and where the bold face has the regular
 * one's metrics and glyph codes (Liberation Serif and its bold, printed by Chromium) neither the word boxes nor the
 * codes tell where the term ends (page-items.ts). The line stopped near the edge only because the next line's first
 * word would not fit after it: it wrapped, and the paragraph goes on.
 */
function wrapsAfterBoldLead(first: TextLine, prev: TextLine, line: TextLine, region: Region): boolean {
  if (prev !== first || !prev.bold || line.bold || prev.rtl) return false;
  return endOf(prev, region) >= region.x1 - region.x0 - BOLD_LEAD_WRAP_EM * line.size && wrapsBefore(prev, line, region);
}

/**
 * Where a line's words start when it opens with a lone symbol set apart from them (`⮚ GreenComp …`, an arrow no
 * list marker reads): its wrapped lines are set in under the words, not under the symbol.
 */
function wordsStartAfterSymbol(line: TextLine, region: Region): number | undefined {
  if (line.rtl) return undefined;
  const [lead, words] = line.cells.flatMap((cell) => cell.items.slice(0, 2)).slice(0, 2);
  if (!lead || !words || [...lead.str.trim()].length !== 1 || /[\p{L}\p{N}]/u.test(lead.str)) return undefined;
  return words.x0 - region.x0;
}

/**
 * A lone line in larger type, stopping short of the edge without ending a sentence, over a line in smaller type: a
 * heading set tight above its text. The weight cannot tell them apart where the text's first line reads as bold (a
 * Korean article's bold number, `제1조(목적)`, in one item with its regular words: LiteParse names the item after
 * its first font), and the sizes are apart by less than a break in type.
 */
function isHeadingOverText(lines: readonly TextLine[], line: TextLine, region: Region): boolean {
  if (lines.length !== 1) return false;
  const heading = lines[0]!;
  const short = endOf(heading, region) < SHORT_LINE_SHARE * (region.x1 - region.x0);
  return short && heading.bold && heading.size >= HEADING_SIZE_STEP * line.size && !SENTENCE_END.test(heading.text);
}

/** Two lines centred on one another, the lower the wider: out past the upper on both sides (not flush left). */
function isCentredPair(upper: TextLine, lower: TextLine, size: number): boolean {
  const margin = CENTRED_MARGIN_EM * size;
  return Math.abs(upper.x0 + upper.x1 - lower.x0 - lower.x1) <= 0.6 * size && lower.x0 < upper.x0 - margin && lower.x1 > upper.x1 + margin;
}
/** How far (in em) a wider centred line reaches past the one above it on each side, at least. */
const CENTRED_MARGIN_EM = 0.25;

/** True when `line` cannot continue the paragraph made of `lines` (gap, font change, indent...). */
function breaksParagraph(
  lines: readonly TextLine[],
  line: TextLine,
  region: Region,
  blockStart: number,
  bodySize: number | undefined,
  pitchAt: (size: number) => number | undefined,
): boolean {
  const prev = lines[lines.length - 1]!;
  const size = Math.max(prev.size, line.size);
  // Side by side, not one under the other: another column's line. A paragraph's last word alone on its line
  // (`load.` under `… the size of each down-`) may end before its indented first line starts.
  const underIndent = lines.length === 1 && line.x0 < prev.x0 && prev.x0 - line.x0 <= PARAGRAPH_INDENT_EM * size;
  if (line.x0 > prev.x1 || (line.x1 < prev.x0 && !underIndent)) return true;
  if (line.superscriptStart) return true;
  if (isAnyLabelLine(line.text) && isAnyLabelLine(prev.text)) return true;
  // A form's next option, its check box first.
  if (opensWithCheckBox(line.text)) return true;
  // The next question after one answered by its boxes (`… Act. Yes ☐ No ☑` over `Indicate by check mark …`).
  if (endsWithCheckBox(prev.text) && /^\p{Lu}/u.test(line.text)) return true;
  // A field after a line that had room for its label: an address's lines over its `Phone:` and `Email:` lines.
  if (isLabelLine(line.text) && fitsOnLine(prev, line, region.x1 - region.x0)) return true;
  if (DOT_LEADER.test(prev.text.slice(-200)) || DOT_LEADER.test(line.text.slice(-200))) return true;
  // The next entry led by its label set apart (a transcript's `Q.` after the `A.` above it).
  if (leadsNextEntry(lines[0]!, line)) return true;
  // A caption's lines, set centred or ragged under its label, are one caption however short each is: the figure's
  // description goes on under `Figure 1.15. On the trail…` (a gap, another size or weight still ends it).
  const captionGoesOn = isCaptionText(lines[0]!.text) && Math.abs(line.size - prev.size) <= 0.12 * size;
  // A short line the writer ended with room to spare: an address's lines, a signature's name over its title.
  if (!captionGoesOn && isBrokenByHand(prev, line, region.x1 - region.x0, bodySize)) return true;
  // The next parameter or term of a list of them, each opening with its term and a colon (`file: …`).
  if (opensNextTermEntry(lines[0]!, prev, line, region.x1 - region.x0)) return true;
  // A sentence the writer broke over two centred lines goes on in lower case (`This work is licensed under` over
  // `a …`), the lower line the wider.
  const centredRunOn = isCentredPair(prev, line, size) && (captionGoesOn || runsOn(prev.text, line.text));
  // A short centred line (a display formula, a centred heading) does not run on into a wider line.
  if (line.x0 < prev.x0 - 1.5 * size && line.x1 > prev.x1 + 1.5 * size && !centredRunOn) return true;
  // Nor a centred line into a wider one whose first word would have fit after it: the writer broke it (an author
  // line over an affiliation, lines of an address), where a centred paragraph's wrapped line is the fuller one.
  if (isCentredPair(prev, line, size) && !/[-‐]$/u.test(prev.text) && !centredRunOn && fitsOnLine(prev, line, region.x1 - region.x0)) return true;
  // A title centred over a heading flush with the region's start (`1. Introduction`): parted by their setting, in
  // the same type as they may be. Only in display type: a ragged paragraph's indented first line may look centred.
  const display = bodySize !== undefined && Math.min(prev.size, line.size) >= HEADING_SIZE_STEP * bodySize;
  if (display && isCentredBetween(prev.x0, prev.x1, region.x0, region.x1, size) && startOf(line, region) <= 0.5 * size && !runsOn(prev.text, line.text)) return true;
  if (Math.abs(line.size - prev.size) > 0.12 * size) return true;
  if (isHeadingOverText(lines, line, region)) return true;
  const width = region.x1 - region.x0;
  const start = startOf(line, region);
  const end = endOf(line, region);
  const prevEnd = endOf(prev, region);
  if (line.bold !== prev.bold && !continuesFullLine(lines[0]!, prev, line, region, blockStart)) return true;
  // Out past every line of the paragraph under a line that stopped well short of the edge: the next term of a
  // hanging-indent list (a manual's options, a glossary) or a heading set out in the margin, never the wrapped
  // rest of a paragraph (whose first line, when indented, runs to the edge or ends the paragraph).
  if (start < blockStart - OUTDENT_EM * size && prevEnd < SHORT_LINE_SHARE * width && !centredRunOn) return true;
  // Out past them with a short label set apart, its text where theirs starts: a term of such a list with its text
  // beside it, after a long description (a man page's `-l      use a long listing format` under `-k`'s text).
  if (start < blockStart - OUTDENT_EM * size && labelsTextAt(line, region.x0 + blockStart)) return true;
  const gap = line.top - prev.bottom;
  const pitch = line.baseline - prev.baseline;
  if (lines.length >= 2) {
    const firstPitch = lines[1]!.baseline - lines[0]!.baseline;
    // A sentence going on in lower case may stand lower by the rise of a raised mark it holds: a browser sets a line
    // with a superscript (a web page's citation, `rain.[23]`) lower by the mark's rise, not a blank line's height.
    if (pitch > firstPitch * 1.25 + 0.5 && !(pitch <= RUN_ON_PITCH * firstPitch && runsOn(prev.text, line.text))) return true;
  } else if (gap > 0.8 * size && !(gap <= 1.1 * size && runsOn(prev.text, line.text))) {
    return true;
  } else if (!runsOn(prev.text, line.text)) {
    // A paragraph of one line has no pitch of its own: the region's lines of its size give one.
    const usual = pitchAt(line.size);
    if (usual !== undefined && Math.abs(line.size - prev.size) <= 0.05 * size && pitch > usual * 1.25 + 0.5) return true;
  }
  // First-line indent: indented, but reaching the right edge like the line above (not a centred line: a
  // centred heading's shorter second line starts further in and ends short of the line above by as much).
  const centred = Math.abs(line.x0 + line.x1 - prev.x0 - prev.x1) <= 0.6 * size && end < prevEnd - 0.5 * size;
  // A note or a reference set with a hanging indent: its number stands out, its other lines are set in. The lines set
  // in continue it; a line back at its number's start begins another.
  const first = lines[0]!;
  const firstStart = startOf(first, region);
  const noteStart = NOTE_START.test(first.text);
  const setIn = lines.length === 1 ? start : startOf(lines[1]!, region);
  if (noteStart && setIn > firstStart + 0.8 * size) return start <= firstStart + 0.3 * size;
  // One-line notes one under the other: each ends its sentence short of the edge, the next starts with its number
  // (set apart, or against its first word as a word processor sets it with no indent: `1Including …`).
  const nextNote = lines.length === 1 && opensNote(line.text) && Math.abs(start - firstStart) <= 0.3 * size;
  if (opensNote(first.text) && nextNote && prevEnd < width - 2 * size && /[.!?]["'”’)]?$/.test(prev.text)) return true;
  const indented = !centred && start > blockStart + 0.8 * line.size && startOf(prev, region) < start;
  // A first-line indent, not a hanging indent's line set in under the first (a reference's, going on in lower case
  // from a line that ends no sentence).
  if (indented && end >= prevEnd - 1.5 * line.size && !runsOn(prev.text, line.text)) return true;
  // A paragraph of one short line, set in by the same indent, after a line that ends its sentence at the edge.
  if (indented && start <= blockStart + PARAGRAPH_INDENT_EM * line.size && SENTENCE_END.test(prev.text) && /^\p{Lu}/u.test(line.text)) return true;
  // The previous line ended a sentence well short of a justified right edge. Where the edge is ragged, a line of
  // the paragraph stops short whenever the next word is long: only a next word that would have fit tells the break.
  if (lines.length >= 2) {
    const before = lines[lines.length - 2]!;
    const full = endOf(before, region) >= width - 1.5 * size;
    if (full && prevEnd < width - Math.max(2 * size, 0.12 * width) && /[.!?:。！？]["'”’)]?$/.test(prev.text)) {
      if (justifiedAbove(lines, region, size) || fitsOnLine(prev, line, width)) return true;
    }
  }
  return false;
}

/** How close (em) the right ends of a justified paragraph's lines come to one another. */
const JUSTIFIED_EM = 0.3;

/**
 * Whether the paragraph's lines above its last are set justified: two or more, each ending at the region's edge
 * within `JUSTIFIED_EM` of one another. A ragged edge brings two lines that close only by chance.
 */
function justifiedAbove(lines: readonly TextLine[], region: Region, size: number): boolean {
  if (lines.length < 3) return false;
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < lines.length - 1; i++) {
    const end = endOf(lines[i]!, region);
    low = Math.min(low, end);
    high = Math.max(high, end);
  }
  return high - low <= JUSTIFIED_EM * size;
}

function charWidthOf(lines: readonly TextLine[]): number {
  const widths: number[] = [];
  for (const line of lines) {
    for (const cell of line.cells) {
      for (const item of cell.items) {
        const n = [...item.str].length;
        if (n > 0 && item.x1 > item.x0) widths.push((item.x1 - item.x0) / n);
      }
    }
  }
  widths.sort((a, b) => a - b);
  return widths[Math.floor(widths.length / 2)] ?? 0;
}

/** Blank lines kept inside a code block, at most, where its lines stand further apart than their pitch. */
const MAX_CODE_BLANKS = 2;

/**
 * A code block: each line indented by as many characters as it stands in from `left` (the block's leftmost line, or
 * a typewriter page's margin), a blank line for each line's pitch left empty between two of them.
 */
function codeMarkdown(lines: readonly TextLine[], margin?: number): string {
  const charWidth = charWidthOf(lines);
  const left = margin ?? lines.reduce((min, line) => Math.min(min, line.x0), Infinity);
  const pitch = median(lines.slice(1).map((line, i) => line.baseline - lines[i]!.baseline));
  const body: string[] = [];
  lines.forEach((line, i) => {
    const skipped = i > 0 && pitch > 0 ? Math.round((line.baseline - lines[i - 1]!.baseline) / pitch) - 1 : 0;
    for (let blank = 0; blank < Math.min(skipped, MAX_CODE_BLANKS); blank++) body.push('');
    const items: PdfTextItem[] = line.cells.flatMap((cell) => cell.items).sort((a, b) => a.x0 - b.x0);
    const indent = charWidth > 0 ? Math.max(0, Math.round((line.x0 - left) / charWidth)) : 0;
    body.push(' '.repeat(Math.min(indent, 60)) + joinMonospace(items, charWidth));
  });
  const fence = body.some((text) => text.includes('```')) ? '~~~' : '```';
  return `${fence}\n${body.join('\n')}\n${fence}`;
}

/** Largest minus smallest (no spread arguments: blocks can be long). */
function spread(values: readonly number[]): number {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return max - min;
}

/** Lines whose centres line up while their starts differ: a centred block (an author list), not code. */
function isCentred(lines: readonly TextLine[]): boolean {
  const starts = lines.map((line) => line.x0);
  if (spread(starts) < 1) return false;
  const centres = lines.map((line) => (line.x0 + line.x1) / 2);
  const em = lines.reduce((max, line) => Math.max(max, line.size), 0);
  return spread(centres) < em;
}

function isCode(lines: readonly TextLine[]): boolean {
  if (lines.length < 2 || isCentred(lines)) return false;
  const hinted = lines.filter((line) => CODE_HINT.test(line.text) || COMMAND_HINT.test(line.text)).length;
  return hinted >= 0.5 * lines.length || lines.length >= 3;
}

/** Turns a finished draft into blocks. */
function finish(draft: Draft, region: Region, options: JoinOptions): ProtoBlock[] {
  const { lines } = draft;
  if (lines.length === 0) return [];
  const style = dominant(lines);
  const rect = boundingRect(lines);
  const regionWidth = region.x1 - region.x0;
  // On a typewriter page the lines have told themselves as code already (a diagram's lines may look centred).
  if (draft.mode === 'mono' && (options.monospaceBody ? lines.length >= 2 : isCode(lines))) {
    // A typewriter page's code is indented from the page's margin: a block inside a function keeps its depth.
    const markdown = codeMarkdown(lines, options.monospaceBody ? Math.min(region.x0, ...lines.map((line) => line.x0)) : undefined);
    return [{ kind: 'code', markdown, text: lines.map((line) => line.text).join('\n'), rect, lines: lines.length, ...style }];
  }
  if (draft.mode === 'list' && draft.items.length > 0 && !isAsteriskNote(draft)) {
    return [listBlock(draft, style, rect, options)];
  }
  const text = joinLines(
    lines.map((line) => line.text),
    options,
  );
  if (lines.length <= 2 && !isCaptionText(text) && looksLikeFormula(text, rect.x1 - rect.x0, regionWidth)) {
    return [{ kind: 'formula', markdown: escapeMarkdownText(text), text, rect, lines: lines.length, ...style }];
  }
  const kind = isCaptionText(text) ? 'caption' : 'paragraph';
  return [{ kind, markdown: escapeMarkdownText(text), text, rect, lines: lines.length, ...style }];
}

/**
 * A "list" of one item led by an asterisk is a note under a table or a text (`* Estimated from a subset.`): the
 * asterisk is the mark a figure or a word above carries, and the line is text that keeps it. A list of asterisk
 * bullets has two items or more.
 */
function isAsteriskNote(draft: Draft): boolean {
  return draft.items.length === 1 && draft.items[0]!.marker.glyph === '*';
}

/**
 * How far left of the deepest open level's marker an item must start to leave that level: 0.8 em, or half the
 * step from its parent's marker where that is less. A slide's levels step in by less than an em of their large
 * type (16 pt under 23 pt type), so an item back at its parent's marker would otherwise stay one level too deep.
 */
function outdent(stack: readonly { start: number }[], em: number): number {
  const top = stack[stack.length - 1]!;
  const parent = stack[stack.length - 2]!;
  return Math.min(0.8 * em, (top.start - parent.start) / 2);
}

/** The indent, in ems, a level told by its bullet stands for. */
const GLYPH_LEVEL_STEP_EM = 2;

function listBlock(
  draft: Draft,
  style: { size: number; bold: boolean; chars: number },
  rect: Rect,
  options: JoinOptions,
): ProtoBlock {
  const { lines, items } = draft;
  // Nesting: a marker indented by more than 0.8 em past its predecessor's opens a deeper level; in a list set at
  // one indent whose bullets say the levels (marker-levels.ts), each level as though indented a step further.
  const byGlyph = levelsByGlyph(items, lines[items[0]!.line]!.size);
  const stack: { start: number; width: number; counter: number }[] = [];
  const out: string[] = [];
  items.forEach((item, index) => {
    const next = items[index + 1]?.line ?? lines.length;
    // The item's paragraphs: its first from the marker on, then each later one its parts of the lines.
    const paragraphs: string[][] = [[item.marker.rest]];
    for (let at = item.line + 1; at < next; at++) {
      if (draft.itemParagraphs?.has(at)) paragraphs.push([]);
      paragraphs[paragraphs.length - 1]!.push(lines[at]!.text);
    }
    const [text = '', ...later] = paragraphs.map((texts) => escapeMarkdownText(joinLines(texts, options)));
    const em = lines[item.line]!.size;
    const start = item.start + (byGlyph?.[index] ?? 0) * GLYPH_LEVEL_STEP_EM * em;
    while (stack.length > 1 && start < stack[stack.length - 1]!.start - outdent(stack, em)) stack.pop();
    const top = stack[stack.length - 1];
    if (!top || start > top.start + 0.8 * em) stack.push({ start, width: 2, counter: 0 });
    const level = stack[stack.length - 1]!;
    level.counter++;
    const { ordered, label, number } = item.marker;
    const marker = !ordered ? '-' : label !== undefined ? `- ${label}` : `${number ?? level.counter}.`;
    level.width = marker.length + 1;
    const indent = stack.slice(0, -1).reduce((sum, parent) => sum + parent.width, 0);
    // Options side by side on the item's one line: an item each, at the item's level.
    const cells = next === item.line + 1 && later.length === 0 ? lines[item.line]!.cells : [];
    const sideBySide = cells.length >= 2 ? cells.map((cell) => listMarker(cell.text)) : [];
    if (ordered && areOptionsInLine(sideBySide)) {
      for (const option of sideBySide) {
        const written = option!.label !== undefined ? `- ${option!.label}` : `${option!.number}.`;
        out.push(`${' '.repeat(indent)}${written} ${escapeMarkdownText(joinLines([option!.rest], options))}`);
      }
      level.counter += sideBySide.length - 1;
      return;
    }
    out.push(`${' '.repeat(indent)}${marker} ${text}`);
    // A later paragraph under the item's text, a blank line before it.
    for (const paragraph of later) out.push('', `${' '.repeat(indent + marker.length + 1)}${paragraph}`);
  });
  const markdown = out.join('\n');
  return { kind: 'list', markdown, text: markdown, rect, lines: lines.length, ...style };
}

/**
 * An item's line wrapped back under its own marker: an item with no hanging indent, as a typed bullet sets it (the
 * □, ○ and - of a Korean report typed at the start of a paragraph), or a numbered paragraph of a contract or a
 * newspaper's column. Both lines start at the marker, the item's line stopped only because this line's first word
 * would not fit after it, and the weight goes on. Its sentence may end there: an item of several sentences wraps
 * between two of them as often as inside one.
 */
function wrapsUnderMarker(prev: TextLine, line: TextLine, markerStart: number, region: Region): boolean {
  const atMarker = (l: TextLine) => Math.abs(startOf(l, region) - markerStart) <= 0.3 * line.size;
  return atMarker(prev) && atMarker(line) && line.bold === prev.bold && wrapsBefore(prev, line, region);
}

/** A paragraph may be a list item only when a list is plausible here (enumerators are easy to misread). */
function acceptsMarker(marker: ListMarker, draft: Draft | undefined, line: TextLine, broke: boolean): boolean {
  if (line.bold && marker.ordered) return false;
  if (!marker.ordered) return true;
  if (!draft || broke || draft.mode === 'list') return true;
  const prev = draft.lines[draft.lines.length - 1];
  return !prev || /[.:;!?)]$/.test(prev.text);
}

/** A number (a page's, up to four digits) stands alone as the line's first or last cell, set apart from the rest. */
function hasNumberApart(line: TextLine): boolean {
  const { cells } = line;
  return cells.length >= 2 && [cells[0]!, cells[cells.length - 1]!].some((cell) => /^\d{1,4}$/.test(cell.text.trim()));
}

/** Lines at the top set this many times the page's body size or more are display type: a title, not a header. */
const DISPLAY_TYPE = 1.6;

/**
 * The second line of a title in display type at the top of the page, both lines margin-zone lines: one block,
 * which the document then reads as one heading (a header of two lines is set in small type).
 */
function continuesDisplayLine(last: ProtoBlock, above: TextLine | undefined, line: TextLine, bodySize: number | undefined): boolean {
  if (!above || !bodySize || line.zone !== 'top' || above.zone !== 'top' || last.zone !== 'top' || last.kind !== 'paragraph' || last.lines !== 1) return false;
  const size = Math.max(above.size, line.size);
  return (
    Math.min(above.size, line.size) >= DISPLAY_TYPE * bodySize &&
    Math.abs(above.size - line.size) <= 0.12 * size &&
    above.bold === line.bold &&
    line.top - above.bottom < 0.8 * size
  );
}

function isHeading(mark: StructureMark | undefined): boolean {
  return mark !== undefined && mark.role !== BODY_ROLE;
}

/** Column headings stand at least this many ems apart on their line. */
const HEADINGS_APART_EM = 3;
/** Most columns a line of their headings heads. */
const MAX_HEADED_COLUMNS = 4;

/**
 * A line of two to four headings set far apart (a recipe's "Ingredients" and "Method", a leaflet's panels), each
 * over a column of its own: in bold or larger type than the body, each a few words ending no sentence, and the line
 * under it starting where one of them does other than the first (the columns below start under their headings).
 * Read as one line, they ran together into one heading over both columns.
 */
function isColumnHeadings(line: TextLine, next: TextLine | undefined, bodySize: number | undefined): boolean {
  const { cells } = line;
  if (!next || cells.length < 2 || cells.length > MAX_HEADED_COLUMNS || bodySize === undefined) return false;
  if (!line.bold && line.size < HEADING_SIZE_STEP * bodySize) return false;
  if (!cells.every((cell) => cell.text.split(/\s+/).length <= 5 && !SENTENCE_END.test(cell.text) && /\p{L}/u.test(cell.text))) return false;
  for (let i = 1; i < cells.length; i++) if (cells[i]!.x0 - cells[i - 1]!.x1 < HEADINGS_APART_EM * line.size) return false;
  return cells.slice(1).some((cell) => Math.abs(next.x0 - cell.x0) <= 0.5 * next.size) || next.cells.length >= cells.length;
}

/** Builds the blocks of one region from its lines (top to bottom). */
export function buildBlocks(lines: readonly TextLine[], region: Region, options: JoinOptions = {}): ProtoBlock[] {
  // A monospaced line between two proportional ones is inline code in running text, not a code block; a
  // typographic bullet makes a list item of a monospaced line.
  const monoLine = lines.map(
    (line) => (options.monospaceBody ? options.sourceCode?.has(line) === true : line.monoShare >= CODE_LINE_SHARE) && !TYPOGRAPHIC_BULLET.test(line.text),
  );
  const codeLine = monoLine.map((mono, i) => mono && (monoLine[i - 1] === true || monoLine[i + 1] === true));
  const marks = options.markOf ? lines.map(options.markOf) : undefined;
  const blocks: ProtoBlock[] = [];
  const pitchAt = regionPitches(lines);
  const apartMarkers = numbersApart(lines, options.bodySize);
  let draft: Draft | undefined;
  const close = () => {
    if (draft) append(blocks, finish(draft, region, options));
    draft = undefined;
  };
  // An e-mail's quoted lines (`> …`), unless they are code.
  const quoted = quotedLines(lines).map((quote, i) => quote && !codeLine[i]);
  let quoteEnd = 0;
  for (const [index, line] of lines.entries()) {
    if (index < quoteEnd) continue;
    if (quoted[index]) {
      close();
      for (quoteEnd = index; quoteEnd < lines.length && quoted[quoteEnd]; quoteEnd++);
      const quote = lines.slice(index, quoteEnd);
      blocks.push({ kind: 'quote', ...quoteMarkdown(quote), ...dominant(quote), rect: boundingRect(quote), lines: quote.length });
      continue;
    }
    const mark = marks?.[index];
    const heading = isHeading(mark);
    // A line a tagged PDF names as a heading is no running header, even at the top of the page (a title).
    if (line.zone && !heading) {
      // A margin-zone line stands alone: the document decides later whether it is a header or footer.
      close();
      const last = blocks[blocks.length - 1];
      if (last && continuesDisplayLine(last, lines[index - 1], line, options.bodySize)) {
        last.text = `${last.text} ${line.text}`;
        last.markdown = escapeMarkdownText(last.text);
        last.rect = boundingRect([lines[index - 1]!, line]);
        last.lines += 1;
        last.chars += line.chars;
        last.numberApart = false;
        continue;
      }
      const text = line.text;
      blocks.push({
        kind: isCaptionText(text) ? 'caption' : 'paragraph',
        markdown: escapeMarkdownText(text),
        text,
        rect: boundingRect([line]),
        lines: 1,
        size: line.size,
        bold: line.bold,
        chars: line.chars,
        zone: line.zone,
        numberApart: hasNumberApart(line),
        ...(line.cells.length >= 2 ? { zoneCells: line.cells.map((cell) => ({ text: cell.text, x0: cell.x0 })) } : {}),
      });
      continue;
    }
    const before = marks?.[index - 1];
    if (draft && (heading || isHeading(before))) {
      // The next line of the same heading element stays in its block, whatever its spacing or centring.
      if (draft.mode === 'text' && mark?.element === before?.element) {
        draft.lines.push(line);
        draft.minStart = Math.min(draft.minStart, startOf(line, region));
        continue;
      }
      close();
    }
    if (!heading && isColumnHeadings(line, lines[index + 1], options.bodySize)) {
      // Headings of columns set on one line: each its own block, read in the order of the columns.
      close();
      for (const cell of line.cells) {
        blocks.push({ kind: 'paragraph', markdown: escapeMarkdownText(cell.text), text: cell.text, rect: { x0: cell.x0, y0: line.top, x1: cell.x1, y1: line.bottom }, lines: 1, size: line.size, bold: line.bold, chars: countCodePointsBesideSpaces(cell.text) });
      }
      continue;
    }
    const mono = codeLine[index]!;
    const marker = mono || heading ? null : (listMarker(line.text) ?? apartMarkers[index]!);
    if (draft?.mode === 'mono') {
      const prev = draft.lines[draft.lines.length - 1]!;
      if (mono && line.top - prev.bottom <= 2.5 * line.size && Math.abs(line.size - prev.size) <= 0.12 * line.size) {
        draft.lines.push(line);
        continue;
      }
      close();
    }
    const broke = draft ? breaksParagraph(draft.lines, line, region, draft.minStart, options.bodySize, pitchAt) : true;
    if (marker && acceptsMarker(marker, draft, line, broke)) {
      const lastItem = draft?.mode === 'list' ? draft.items[draft.items.length - 1] : undefined;
      // Bullets after numbers (or the reverse) at the same indent start another list.
      const switched =
        lastItem !== undefined &&
        lastItem.marker.ordered !== marker.ordered &&
        Math.abs(lastItem.start - startOf(line, region)) < 0.8 * line.size;
      const gap = draft ? line.top - draft.lines[draft.lines.length - 1]!.bottom : 0;
      const apart = gap > 1.5 * line.size && !(lastItem && goesOnLadder(lastItem.marker, marker, gap, line.size));
      if (!draft || draft.mode !== 'list' || switched || apart) {
        close();
        draft = { mode: 'list', lines: [], items: [], minStart: Infinity };
      }
      draft.items.push({ line: draft.lines.length, marker, start: startOf(line, region), textStart: textStartOf(line, marker, region) });
      draft.lines.push(line);
      continue;
    }
    if (draft?.mode === 'list') {
      const prev = draft.lines[draft.lines.length - 1]!;
      const item = draft.items[draft.items.length - 1]!;
      const hanging = startOf(line, region) > item.start + 0.3 * line.size;
      const near = line.top - prev.bottom <= 0.8 * line.size;
      if (!mono && (hanging || wrapsUnderMarker(prev, line, item.start, region)) && near && Math.abs(line.size - prev.size) <= 0.12 * line.size) {
        draft.lines.push(line);
        continue;
      }
      // A later paragraph of the item (a step's note), the list going on after it.
      const isMarkerAt = (at: number) => !codeLine[at] && listMarker(lines[at]!.text) !== null;
      if (!mono && opensItemParagraph(lines, index, prev, item.start, (l) => startOf(l, region), isMarkerAt, item.textStart)) {
        (draft.itemParagraphs ??= new Set()).add(draft.lines.length);
        draft.lines.push(line);
        continue;
      }
      close();
    }
    if (mono) {
      close();
      draft = { mode: 'mono', lines: [line], items: [], minStart: startOf(line, region) };
      continue;
    }
    if (draft && !breaksParagraph(draft.lines, line, region, draft.minStart, options.bodySize, pitchAt)) {
      draft.lines.push(line);
      draft.minStart = Math.min(draft.minStart, startOf(line, region));
      continue;
    }
    close();
    draft = { mode: 'text', lines: [line], items: [], minStart: startOf(line, region) };
  }
  close();
  return blocks;
}
