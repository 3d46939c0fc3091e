/**
 * One LiteParse page → what docmill's page layout reads: horizontal text items (one per word, in page space,
 * with baseline, size, weight and pitch), rotated text apart, and the ruling lines its tables are built from.
 * Pure: tests feed it pages without the native module.
 */
import { median } from '../measure.js';
import type { Ruling } from '../rulings.js';
import { drawnBullets } from './drawn-bullets.js';
import { writeMarksSetApart, writeRaisedMarks } from './raised-marks.js';
import { formFieldMarks, withFreeText, type FormField, type NativeAnnotation } from '../form-marks.js';
import { answerRuns, fillFormFields, withoutFieldFrames } from '../form-values.js';
import { commentsOf, type PageComment } from '../page-comments.js';
import { isBoldFontName, isMonospaceFontName, type RotatedItem } from '../text-items.js';
import { withShiftedLettersBack } from '../shifted-letters.js';
import { isSymbolFontName, symbolFontText } from '../symbol-font-text.js';
import { SQUARE_GLYPHS } from '../square-glyphs.js';
import { isDiagonal, ROTATED_APART_EM } from '../rotated.js';
import { autospacedWords, HAS_HANGUL } from './hangul-autospace.js';
import { withAccentsOverLetters } from './accents-over-letters.js';
import { footDepths, glyphBoxBaseline, type FootDepths } from './glyph-box-baselines.js';
import { dashCodesOf, inSmallerType, wordWithDashes, type DashCodes } from './dash-widths.js';
import { codesPerUnit, codeUses, followsMarkInBold, opensWithMark, regularCodes, wordsBeforeRegularCodes, type CodeUses, type RegularCodes } from './glyph-code-leads.js';
import { leadBeforeRegularLetters, regularLetterCodes } from './letter-code-leads.js';
import { inlinePitch, monospacePitches, wordsOffPitch, type MonospacePitches } from './monospace-runs.js';
import { append, ASCENT, DESCENT, type PdfTextItem, type Rect } from '../types.js';
import type { StructureMark, StructureRole } from './structure-roles.js';
import { countCodePointsBesideSpaces, hasWhiteSpaceBetween, isWhiteSpaceCode } from '../white-space.js';

/** The fields of a LiteParse text item this module reads (structural: the package's `TextItem`). */
export interface NativeTextItem {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  fontName?: string | undefined;
  /** The size the PDF set (`Tf`), before the text matrix scales it. */
  fontSize?: number | undefined;
  /** The em size after the text matrix (`fontSize` is often 1 with the scale in the matrix). */
  fontHeight?: number | undefined;
  /** Ascent and descent as fractions of the em (descent negative). */
  fontAscent?: number | undefined;
  fontDescent?: number | undefined;
  fontWeight?: number | undefined;
  rotation?: number | undefined;
  /** The codes of the glyphs drawn, one per glyph (LiteParse's text metadata); may stop short of the text. */
  charCodes?: readonly number[] | undefined;
  /** The advance of the glyphs `charCodes` gives, in the page's units (LiteParse's text metadata). */
  textWidth?: number | undefined;
  words?: readonly { text: string; x: number; y: number; width: number; height: number }[] | undefined;
  /** The marked content the item was drawn in, which a tagged PDF's structure tree names. */
  mcid?: number | undefined;
}

/** The fields of a LiteParse page this module reads. */
export interface NativePageInput {
  width: number;
  height: number;
  textItems: readonly NativeTextItem[];
  /** The form's widgets on the page (LiteParse's `extractFormFields`). */
  formFields?: readonly FormField[] | undefined;
  /** The page's annotations (LiteParse's `extractAnnotations`): its free-text ones are text typed onto the page. */
  annotations?: readonly NativeAnnotation[] | undefined;
  vectorGraphics?:
    | {
        lines: readonly { x1: number; y1: number; x2: number; y2: number; stroke?: boolean | undefined }[];
        shapes: readonly { bbox: { x: number; y: number; width: number; height: number }; stroke: boolean; fill: boolean; hasCurve: boolean }[];
      }
    | undefined;
}

export interface NativePageItems {
  items: PdfTextItem[];
  rotated: RotatedItem[];
  rulings: Ruling[];
  /** Filled rectangles wider and taller than a rule: the cells of tables drawn as boxes (box-tables.ts). */
  boxes: Rect[];
  /** Non-space characters, horizontal and rotated. */
  chars: number;
  /** Characters of right-to-left scripts among them. */
  rtlChars: number;
  /**
   * Characters of level items whose box is more than `OUTSIZED_BOX` times their font's size high: PDFium gave them
   * the font's bounding box (a font such as Cambria, whose box spans tall math glyphs), not the line's.
   */
  outsizedChars: number;
  /** The texts as read, for the text-quality check. */
  strings: string[];
  /** On a tagged page: each horizontal item's place and the role its structure element gives it. */
  tagged?: TaggedRun[];
  /** On a page with Hangul: the autospaces joined within its runs, each gap over its em (hangul-autospace.ts). */
  autospaceGaps?: number[];
  /** On a page with Hangul: the first word of each run, where an autospace between runs may be. */
  runStarts?: PdfTextItem[];
  /** The form's boxes whose drawn text gave way to what they hold (form-values.ts): no table of LiteParse's over them. */
  formBoxes?: Rect[];
  /** The page's reviewers' comments (page-comments.ts). */
  comments?: PageComment[];
}

/** A run of text (a LiteParse item, a line or part of one) and the role a tagged PDF gives it. */
export interface TaggedRun {
  x0: number;
  x1: number;
  baseline: number;
  size: number;
  chars: number;
  role: StructureRole;
  /** The structure element it belongs to (its heading, or its innermost element for body text). */
  element: number;
}

/** PDFium's weight of a bold font (`Calibri-Bold` 700, `Montserrat-SemiBold` 600), where writers give it right. */
const BOLD_WEIGHT = 600;
/**
 * The weight that tells bold by itself, for a font whose name says nothing of its style (`YoonGothicPro780`, a
 * family numbering its weights): StemV measures stems in each typeface's own units, so a plain face with broad stems
 * (Lucida Sans 630, Century 590 in Ghostscript's copies) comes near 600.
 */
const UNNAMED_BOLD_WEIGHT = 700;

/** A font's name stating a style lighter than bold: `Lato-Regular`, `TimesNewRomanPSMT`, `Georgia-Italic`, `Book`. */
const LIGHTER_STYLE_NAME = /regular|roman|book|light|thin|hairline|normal|italic|oblique/i;

/** What a font's name says of its style. */
export interface NamedStyle {
  bold: boolean;
  /** A style lighter than bold, stated (LIGHTER_STYLE_NAME). */
  lighter: boolean;
  monospace: boolean;
}

function namedStyle(fontName: string): NamedStyle {
  return { bold: isBoldFontName(fontName), lighter: LIGHTER_STYLE_NAME.test(fontName.replace(/^[A-Z]{6}\+/, '')), monospace: isMonospaceFontName(fontName) };
}

/**
 * Bold by its font's name, or by the weight PDFium reports where the name says nothing of it and the document's
 * weights are believed (DocumentFonts). PDFium's weight is a guess from the descriptor's StemV, which writers fill as
 * they please: a name that states a lighter style is believed over it, and so is a monospaced font's (Ghostscript's
 * Courier weighs 700 from its even strokes; its bold is named `Courier-Bold`).
 */
function isBoldBy(style: NamedStyle, weight: number | undefined): boolean {
  return style.bold || ((weight ?? 0) >= UNNAMED_BOLD_WEIGHT && !style.lighter && !style.monospace);
}

/** Whether an item is bold, by its font's name and, where the document's weights are believed, its weight. */
type BoldTest = (item: Pick<NativeTextItem, 'fontName' | 'fontWeight'>) => boolean;

/** What the document's fonts show over all its pages, read before any page is laid out. */
export interface DocumentFonts {
  /** The fonts (at a size) whose word boxes are cut to the glyphs (fontsWithGlyphBoxes). */
  glyphBoxes: ReadonlySet<string>;
  /** Where the words' feet lie in each of those fonts (glyph-box-baselines.ts). */
  footDepths: ReadonlyMap<string, FootDepths>;
  /** The codes each font draws its dashes with (dash-widths.ts). */
  dashCodes: DashCodes;
  /** What a font's name says, read once a font for the whole document. */
  styleOf: (fontName: string) => NamedStyle;
  /** Bold by the font's name, or by its weight where the document's weights agree with its names (weightsAgreeWithNames). */
  isBold: BoldTest;
  /** Each monospaced font's pitch, and the running text's size (monospace-runs.ts). */
  monospace: MonospacePitches;
}

export function documentFonts(pages: readonly { textItems: readonly NativeTextItem[] }[]): DocumentFonts {
  const styles = new Map<string, NamedStyle>();
  const styleOf = (fontName: string): NamedStyle => {
    let style = styles.get(fontName);
    if (!style) styles.set(fontName, (style = namedStyle(fontName)));
    return style;
  };
  const weightsBelieved = weightsAgreeWithNames(pages, styleOf);
  const glyphBoxes = fontsWithGlyphBoxes(pages);
  const keyOf = (item: NativeTextItem): string | undefined => {
    if (glyphBoxes.size === 0) return undefined;
    const key = fontKey(item.fontName ?? '', sizeOf(item));
    return glyphBoxes.has(key) ? key : undefined;
  };
  return {
    glyphBoxes,
    footDepths: glyphBoxes.size === 0 ? new Map() : footDepths(pages, keyOf),
    dashCodes: dashCodesOf(pages, codesPerUnit, sizeOf, (item) => keyOf(item) === undefined),
    styleOf,
    isBold: (item) => isBoldBy(styleOf(item.fontName ?? ''), weightsBelieved ? item.fontWeight : undefined),
    monospace: monospacePitches(pages, (fontName) => styleOf(fontName).monospace, sizeOf),
  };
}

/**
 * Whether no font's weight contradicts its name: a font named bold weighing under BOLD_WEIGHT, one named in a
 * lighter style over it, or a plain face of a family weighing as much as (WEIGHT_STEP) the family's bold one. The
 * weight comes from the StemV a writer put in the font's descriptor: Ghostscript's copies give Calibri-Bold 440 and
 * Calibri 640, NanumMyeongjo 712 and NanumMyeongjoBold 716; cairo's copies and LibreOffice's PDFs give every font
 * 400, the bold ones too. Where the named fonts show the weights wrong, an unnamed style's weight is no sign of bold
 * either; nor where the body's own face, named plain, weighs as bold.
 */
function weightsAgreeWithNames(pages: readonly { textItems: readonly NativeTextItem[] }[], styleOf: (fontName: string) => NamedStyle): boolean {
  const weights = new Map<string, number>();
  const chars = new Map<string, number>();
  for (const page of pages) {
    for (const item of page.textItems) {
      const weight = item.fontWeight ?? 0;
      if (weight > 0) weights.set(item.fontName ?? '', weight);
      chars.set(item.fontName ?? '', (chars.get(item.fontName ?? '') ?? 0) + item.text.length);
    }
  }
  // The body's face, named plain, weighing as a bold one (Ghostscript's Courier, 700 from its heavy stems): the
  // weights say nothing of bold, or the whole text would be.
  let body: string | undefined;
  for (const [name, count] of chars) if (body === undefined || count > chars.get(body)!) body = name;
  if (body !== undefined && !styleOf(body).bold && (weights.get(body) ?? 0) >= UNNAMED_BOLD_WEIGHT) return false;
  // The heaviest plain face of each family, where its name states no style, and the bold faces' weights.
  const plain = new Map<string, number>();
  const bold: { family: string; weight: number }[] = [];
  for (const [name, weight] of weights) {
    const style = styleOf(name);
    if (style.bold ? weight < BOLD_WEIGHT : style.lighter && weight >= BOLD_WEIGHT) return false;
    const family = familyOf(name);
    if (style.bold) bold.push({ family, weight });
    else if (!style.lighter) plain.set(family, Math.max(weight, plain.get(family) ?? 0));
  }
  return bold.every(({ family, weight }) => weight >= WEIGHT_STEP * (plain.get(family) ?? 0));
}

/** A family's bold face weighs at least this many times its plain face (400 → 700 is 1.75). */
const WEIGHT_STEP = 1.15;

/** A font's family: its name without the subset tag and the style (`ABCDEF+NanumMyeongjoBold` → `NanumMyeongjo`). */
function familyOf(fontName: string): string {
  return fontName
    .replace(/^[A-Z]{6}\+/, '')
    .replace(/[-,].*$/, '')
    .replace(/(?:semi|demi|extra|ultra)?(?:bold|black|heavy|medium)$/i, '')
    .toLowerCase();
}

/**
 * In rotated text, words closer than this share of the em are one word whatever the text says: PDFium writes
 * spaces between the touching letters of a vertical stamp ("ar X iv:" up a page's margin). Level text has no such
 * floor (see spaceWords).
 */
const ROTATED_HAIR = 0.05;
/**
 * A space PDFium writes where no space glyph is drawn stands for a word break only from this share of the em:
 * closer, it is the letter spacing of text set wide (tracked capitals, "IMPLEMENTAT ION"). Breaks drawn as a move
 * alone are wider (0.18 em and more on the benchmark's pages), tracking 0.06–0.07 em.
 */
const TRACKING = 0.12;
/**
 * Text tracked wider still (a label's `letter-spacing` in a printed web page: "C H A P T E R 3", letters 0.17 em
 * apart) has every letter a word of its own: letters this share of the em apart, no space glyph drawn between
 * them, are one word. Below the narrowest word space of justified text (0.22 em in TeX's).
 */
const WIDE_TRACKING = 0.18;
/** Degrees off horizontal still read as horizontal text. */
const LEVEL = 2;
/** Same thresholds as the pdfjs ruling recorder (rulings.ts): axis-parallel slant, thin fill, shortest rule. */
const SLANT = 0.5;
const THIN_FILL = 3;
const MIN_LENGTH = 2;
/** How far (pt) a line may stand off a filled shape's box and still be its outline. */
const EDGE = 0.01;
/**
 * Beyond this many thin bars (or filled boxes) on a page (vector art) their outlines are not looked for: each line
 * would scan them all.
 */
const MAX_FILLS_CHECKED = 500;
// Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic and their presentation forms.
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/gu;
/** The same, for a test: most items have none, and a test allocates no array of matches. */
const HAS_RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;

/** An item's box taller than this many times its font's size holds a character that reaches far below the line. */
const DEEP_BOX = 1.3;

/**
 * The item's baseline: the layout's default share of its box down from its top. Where the box is much taller than
 * the font's size, a character of the item reaches far below the line (a symbol font's deep descent: TeX's CMSY
 * sets its minus in a box 1 em deep), and the default share would put the baseline there, a line below its
 * neighbours': the box's top plus the font's ascent (in points, as LiteParse gives it) is the baseline then. An
 * ascent given in ems (a font set at size 1 and scaled by the text matrix) is the ascent's share of the box.
 */
function baselineOf(item: NativeTextItem, size: number): number {
  const box = item.height > OUTSIZED_BOX * size ? lineHighWord(item.words, size) ?? item : item;
  const ascent = item.fontAscent;
  const descent = item.fontDescent;
  if (ascent !== undefined && descent !== undefined && ascent > 0 && descent <= 0) {
    const span = ascent - descent;
    if (box.height > DEEP_BOX * size && ascent < box.height && span > 0.5 * size && span < 3 * size) return box.y + ascent;
    if (span > 0.5 && span < 3) return box.y + (ascent / span) * box.height;
  }
  return box.y + (ASCENT / (ASCENT + DESCENT)) * box.height;
}

/**
 * A word of an outsized item (a box many times its font's size high) whose own box is a line's height: the place of
 * the line. One glyph with a tall box (a math letter a writer copied into a text font, as Ghostscript does with
 * Cambria Math's μ) gives the whole item that box, its top lines above the text's.
 */
function lineHighWord(words: NativeTextItem['words'], size: number): WordBox | undefined {
  if (!words) return undefined;
  for (const word of words) if (word.height > 0 && word.height <= DEEP_BOX * size && word.text.trim()) return word;
  return undefined;
}

type WordBox = NonNullable<NativeTextItem['words']>[number];

/**
 * What `spaceWords` found for each word of the item it read last, by the word's index: its text trimmed, and
 * whether a space comes before it. Kept from one item to the next (written over, never emptied, which would let
 * their storage go) rather than an object made per word: nativePageItems and the word reading allocated 94 → 55 MB
 * per 990 pages.
 */
const wordTexts: string[] = [];
const wordSpaced: boolean[] = [];
/** Whether the word is a letter of text tracked wide, one word with the letter before it (`WIDE_TRACKING`). */
const wordTracked: boolean[] = [];
/** Where in the item's text the space before the word starts and where the word starts (-1: not found). */
const wordGapAt: number[] = [];
const wordAt: number[] = [];

/**
 * Reads the item's words into the first entries of wordTexts and wordSpaced. A word box also ends where glyphs
 * are set apart with no space between them ("0" ".965"), and PDFium writes a space where glyphs of one word are
 * kerned apart ("arX iv"): a space counts only where the item's text has one, a narrow one (under `TRACKING`) only
 * where its glyph is drawn or the codes cannot tell, and only where the words are more than `minGap` apart.
 */
function spaceWords(item: NativeTextItem, words: readonly WordBox[], size: number, minGap = -Infinity): void {
  let at = 0;
  let n = 0;
  let previous: WordBox | undefined;
  let glyphs: Uint8Array | null | undefined;
  for (const word of words) {
    const text = word.text.trim();
    const found = item.text.indexOf(text, at);
    let spaced = found < 0 || hasWhiteSpaceBetween(item.text, at, found);
    const gap = previous ? Math.max(word.x - (previous.x + previous.width), word.y - (previous.y + previous.height), previous.y - (word.y + word.height)) : Infinity;
    const letterByLetter = previous !== undefined && gap < WIDE_TRACKING * size && isOneLetter(wordTexts[n - 1]!) && isOneLetter(text);
    if (spaced && found >= 0 && (gap < TRACKING * size || letterByLetter)) {
      // Only where the gap is narrow: most items never need their glyphs matched to their text.
      if (glyphs === undefined) glyphs = spaceGlyphs(item.text, item.charCodes);
      if (glyphs) spaced = glyphs.subarray(at, found).includes(1);
      // The codes cannot tell: between two runs of capitals a narrow space is letter spacing (a running head or a
      // byline in tracked capitals, "BEHAV IO RAL ECONOM ICS": its words 0.05 em apart where they meet, 0.35 em
      // between words). On the PDF benchmark's dev half every such pair is one word in the reference (89 of 89).
      else if (previous && isCapitals(wordTexts[n - 1]!) && isCapitals(text)) spaced = false;
      // Nor can they where a ligature stands for two or three letters: one whose box touches the letters after it is
      // inside its word, whatever space PDFium writes after it (`fi rst`, `Offi cers`, `Qualifi -` in a Garamond).
      else if (Math.abs(gap) < LIGATURE_GAP * size && LIGATURE_END.test(wordTexts[n - 1]!) && GOES_ON.test(text)) spaced = false;
    } else if (!spaced && found >= 0 && previous && gap > CLAUSE_GAP * size && CLAUSE_END.test(wordTexts[n - 1]!) && LETTER_START.test(text)) {
      // No space in the text, but the glyphs are set apart after a clause's punctuation and a word follows: a space
      // PDFium missed ("did not know.This question", "Dictionary,Johnson": boxes 0.04–0.16 em apart; each such pair
      // on the PDF benchmark's dev half has its space in the reference, 7 of 7).
      spaced = true;
    }
    wordGapAt[n] = found >= 0 ? at : -1;
    wordAt[n] = found;
    if (found >= 0) at = found + text.length;
    // Before an item's first word the layout decides by the gap alone (a superscript, a word set apart). After it,
    // a space the text has stands however close the boxes come: an italic or an "f" reaches over the space's width
    // ("of the", "damage for": boxes 0.015 em over each other to 0.05 em apart, where the text's space was right on
    // each such pair of the PDF benchmark's level lines). Rotated text has a floor, `minGap`.
    wordTexts[n] = text;
    wordSpaced[n] = previous !== undefined && spaced && gap > minGap;
    // Beyond the line builder's word gap, the letters are joined here, or it would part them again.
    wordTracked[n] = letterByLetter && !wordSpaced[n] && gap >= TRACKING * size;
    n++;
    previous = word;
  }
}

/**
 * A word ending in a ligature's letters whose box meets the next one's, to this share of the em, is one word with it:
 * the ligature's box ends where the next glyph starts. A space leaves a gap; an italic's overhang over one, an overlap.
 */
const LIGATURE_GAP = 0.012;
/** The letters a Latin ligature stands for (ﬀ ﬁ ﬂ ﬃ ﬄ), ending a word box. */
const LIGATURE_END = /(?:ff|fi|fl|ffi|ffl|\uFB00|\uFB01|\uFB02|\uFB03|\uFB04)$/u;
/** What follows a ligature inside its word: a lower-case letter, or the hyphen of a word broken at the line's end. */
const GOES_ON = /^(?:\p{Ll}|-$)/u;

/** Words after a clause's punctuation this share of the em apart or more are two words though the text joins them. */
const CLAUSE_GAP = 0.03;
const CLAUSE_END = /[.,;:!?)]$/;
const LETTER_START = /^\p{L}/u;

/** A single letter or digit. */
function isOneLetter(text: string): boolean {
  return ONE_LETTER.test(text);
}
const ONE_LETTER = /^[\p{L}\p{N}]$/u;

/** Capital letters, with punctuation among them or around them ("GLAPA-G", "R,"), and nothing else. */
function isCapitals(text: string): boolean {
  return CAPITALS.test(text);
}
const CAPITALS = /^[\p{Lu}\p{P}]*\p{Lu}[\p{Lu}\p{P}]*$/u;

/** What the font name of words after a run-in lead gets: LiteParse does not say which font they are in. */
const OTHER_FONT = ' (after a lead)';
/**
 * Word boxes whose heights differ from the first word's by less than this share of the em, but more than
 * SAME_METRICS, come from another font of the same size: the box is the font's ascent to descent.
 */
const OTHER_METRICS = 0.1;
const SAME_METRICS = 0.005;

/** How a run-in lead's last word ends. */
const LEAD_END = /[.:;,!?)\]–—-]$/u;

/**
 * How many of a bold item's first words are in the item's font. LiteParse joins a line's runs into one item named
 * after its first font, so a bold run-in lead ("Demographics of respondents. The overall …") makes the whole line
 * bold, which reads as a heading; the words after the lead are set in a font with other metrics, and their boxes,
 * each as high as that font's ascent to descent, say so. All of them when no later word stands apart that way, or
 * when the later words' boxes are the item's font's own (`fontBox`, its ascent to descent): there the first word
 * holds a glyph of another font (a man page's `-d,`, its comma in the roman type after the bold option, over a bold
 * `--directory`), and the line is the item's font.
 */
function wordsInItemFont(words: readonly WordBox[], texts: readonly string[], size: number, fontBox: number | undefined): number {
  const first = words[0]!.height;
  for (let i = 1; i < words.length; i++) {
    const apart = Math.abs(words[i]!.height - first);
    if (apart > SAME_METRICS * size && apart < OTHER_METRICS * size) {
      if (fontBox !== undefined && Math.abs(words[i]!.height - fontBox) <= SAME_METRICS * size && Math.abs(first - fontBox) > SAME_METRICS * size) return words.length;
      // The words after the lead are set in one font, so their boxes agree among themselves: where they do not
      // (boxes cut to each word's glyphs, as in fonts whose "on" is lower than "Embarking"), there is no lead.
      const after = words[i]!.height;
      const other = (word: WordBox) => Math.abs(word.height - first) > SAME_METRICS * size && Math.abs(word.height - after) <= SAME_METRICS * size;
      // Beside a word of Hangul, Han or kana the heights say nothing of a lead: its box cut to the glyphs is a little
      // taller or shorter with the syllables it holds (`가.` 11.12 pt over `지역` 10.9 pt in one bold font at 11.5 pt).
      const lastOfLead = texts[i - 1] ?? '';
      if (SQUARE_GLYPHS.test(lastOfLead) || SQUARE_GLYPHS.test(texts[i] ?? '')) return words.length;
      // A lead ends its phrase (`respondents.`, `Note:`, `Step 1 –`): a heading's first word does not
      // (`Getting started`, whose `g` reaches below `started`).
      return words.slice(i).every(other) && LEAD_END.test(lastOfLead) ? i : words.length;
    }
  }
  return words.length;
}

/** The item's em size after the text matrix. */
function sizeOf(item: NativeTextItem): number {
  return item.fontHeight && item.fontHeight > 0 ? item.fontHeight : item.height;
}

/** A font and size as one key: its word boxes are compared at one size. */
function fontKey(fontName: string, size: number): string {
  const tenths = Math.round(size * 10);
  // Items come in runs of one font and size: the key of the last is made again for most of them, a string built and
  // hashed for every item of the document, three times over.
  if (fontName !== lastKey.fontName || tenths !== lastKey.tenths) lastKey = { fontName, tenths, key: `${fontName}|${tenths}` };
  return lastKey.key;
}
let lastKey = { fontName: '', tenths: NaN, key: '' };

const ENDS_IN_DIGIT = /\d\s*$/;

/** Word box heights this many ways apart (beyond SAME_METRICS) in one font and size are cut to the glyphs. */
const GLYPH_BOX_HEIGHTS = 3;

/**
 * The fonts (at a size) whose word boxes are cut to each word's glyphs, not set from the font's ascent and
 * descent: in the document their words' boxes take three heights or more ("on", "Musical", "Embarking"), where
 * boxes of the font's height take one, or two where a run-in lead's words are named after it. In those fonts a
 * word lower than the first says nothing of a lead. Items of one word count too: a printed spreadsheet holds hardly
 * any other (a word a cell), and its `Page 1` footer read as `Page ¹` where its font was not known for one.
 */
function fontsWithGlyphBoxes(pages: readonly { textItems: readonly NativeTextItem[] }[]): Set<string> {
  // Per font not told yet, the heights its words showed and how many words could have told it.
  const fonts = new Map<string, { heights: number[]; looked: number }>();
  const glyphBoxes = new Set<string>();
  // Page by page, not over one array of every page's items: this reads every word of the document, once per
  // document, mostly before V8 has optimised it, so by index (an iterator's result per word there).
  for (const page of pages) {
    for (const item of page.textItems) {
      if (!item.words || item.words.length === 0) continue;
      const size = item.fontHeight && item.fontHeight > 0 ? item.fontHeight : item.height;
      if (!(size > 0)) continue;
      const key = fontKey(item.fontName ?? '', size);
      if (glyphBoxes.has(key)) continue;
      let font = fonts.get(key);
      if (!font) fonts.set(key, (font = { heights: [], looked: 0 }));
      const seen = font.heights;
      for (let w = 0; w < item.words.length; w++) {
        const word = item.words[w]!;
        // A word ending in digits may hold a raised mark, which makes its box taller (or, set apart, shorter): its
        // height says nothing of the font's boxes. A height seen already is looked for first: most words have
        // one (a font's boxes are of one height), and the pattern need not be tried on them once the font has
        // shown words enough.
        if (isSeenHeight(seen, word.height, size)) {
          if (font.looked < TELLING_WORDS && !ENDS_IN_DIGIT.test(word.text)) font.looked++;
          continue;
        }
        if (ENDS_IN_DIGIT.test(word.text)) continue;
        font.looked++;
        seen.push(word.height);
        if (seen.length >= GLYPH_BOX_HEIGHTS) {
          glyphBoxes.add(key);
          break;
        }
      }
    }
  }
  // A face of a few words (a sheet's footer in a face of its own: `Page 1`) cannot tell; in a document whose every
  // font that could tell has its boxes cut to the glyphs, so has it: one writer set them all. A face told at one
  // size is left as it is at another (a note's mark drawn into a word of a larger size is read by its full box).
  if (glyphBoxes.size === 0) return glyphBoxes;
  const untold = [...fonts.keys()].filter((key) => !glyphBoxes.has(key));
  if (untold.some((key) => fonts.get(key)!.looked >= TELLING_WORDS)) return glyphBoxes;
  const told = new Set([...glyphBoxes].map(faceOf));
  for (const key of untold) if (!told.has(faceOf(key))) glyphBoxes.add(key);
  return glyphBoxes;
}

/** The face of a font key (fontKey): its name without the size. */
function faceOf(key: string): string {
  return key.slice(0, key.lastIndexOf('|'));
}

/** Words a font must show, at heights that could tell, before one height among them says its boxes are the font's. */
const TELLING_WORDS = 12;

/** Whether `height` is one of the heights `seen` (within SAME_METRICS of the size). */
function isSeenHeight(seen: readonly number[], height: number, size: number): boolean {
  for (let i = 0; i < seen.length; i++) if (Math.abs(seen[i]! - height) <= SAME_METRICS * size) return true;
  return false;
}

function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x3000;
}

/**
 * Per UTF-16 unit of `text`, 1 where a space in it is a glyph the PDF draws (0 where PDFium wrote it from the
 * glyphs' positions alone); null when the codes cannot be matched to the text one glyph a character (codes
 * missing or cut short, a ligature written as two letters). The space glyph's code is the font's: 32 in most,
 * else the code found where the text's first space would be drawn.
 */
function spaceGlyphs(text: string, codes: readonly number[] | undefined): Uint8Array | null {
  if (!codes) return null;
  let count = codes.length;
  // PDFium ends an item with a code 0 for a space it added after the last glyph.
  while (count > 0 && codes[count - 1] === 0) count--;
  let letters = 0;
  let firstSpaceAt = -1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff) continue;
    if (!isSpace(unit)) letters++;
    else if (firstSpaceAt < 0) firstSpaceAt = letters;
  }
  if (count < letters) return null;
  if (count === letters) return matchSpaces(text, codes, count, undefined);
  const candidates = [0x20, ...(firstSpaceAt >= 0 && firstSpaceAt < count ? [codes[firstSpaceAt]!] : [])];
  for (const space of candidates) {
    const matched = matchSpaces(text, codes, count, space);
    if (matched) return matched;
  }
  return null;
}

/** A size estimated from boxes is the size of one of the page's bold runs within this share of it. */
const SAME_SIZE = 0.1;

/**
 * The size of the type after a mark set in the body's type (`Ⅲ.` at 10.5 pt before a 14 pt heading): their boxes'
 * height, which is their type's em give or take a tenth (its ascent to descent, or its Hangul's glyphs), where that
 * is more than the mark's size; the size of the page's bold run nearest it, where one is that near (`boldSizes`).
 */
function sizeAfterMark(words: readonly WordBox[], size: number, boldSizes: readonly number[]): number {
  const height = median(words.slice(1).map((word) => word.height));
  if (!Number.isFinite(height) || height <= size) return size;
  let nearest = height;
  for (const bold of boldSizes) if (Math.abs(bold - height) <= SAME_SIZE * height && Math.abs(bold - height) < Math.abs(nearest - height)) nearest = bold;
  return Math.max(size, nearest === height ? height : nearest);
}

/** A size estimated from boxes within this share of the body's is the body's. */
const NEAR_BODY = 0.1;

/** The text's size after a code span, and which words are the text's by their boxes. */
interface TextType {
  size: number;
  isText: (word: number) => boolean;
}

/**
 * The text's type after a code span opening an item (`--help list the flags`), where the code is set smaller than
 * the text (a web page's code at 85 %): LiteParse names the item after the code's font and size. Boxes a font's full
 * height scale with its size: the code's size times the text's boxes (the words off the code's pitch) over the
 * code's (the first word's), or the body's size where that is near it. A word is the text's where its box is nearer
 * the text's than the code's (a word of the text can be as wide as the code's pitch makes it). Undefined where the
 * boxes do not show larger text.
 */
function textTypeAfterCode(words: readonly WordBox[], offPitch: readonly boolean[], size: number, bodySize: number): TextType | undefined {
  const code = words[0]!.height;
  const text = median(words.filter((_, i) => offPitch[i] === true).map((word) => word.height));
  if (!(code > 0) || !(text > code * (1 + NEAR_BODY))) return undefined;
  const estimate = (size * text) / code;
  return {
    size: Math.abs(estimate - bodySize) <= NEAR_BODY * bodySize ? bodySize : estimate,
    isText: (i) => i > 0 && Math.abs(words[i]!.height - text) < Math.abs(words[i]!.height - code),
  };
}

/** A note's or a citation's mark (`[4]`, `[4, 5]`, `12`, `*`) that may open an item raised. */
const RAISED_LEAD_MARK = /^(?:\[\d{1,3}(?:[,–-]\s?\d{1,3}){0,4}\]|\d{1,3}|[*†‡§¶])$/u;
/** A word that may end in a raised mark of its own. */
const ENDS_IN_MARK = /[\d\]]\s*$/;
/** A raised mark's box is at most this share of the words' after it. */
const RAISED_LEAD_HEIGHT = 0.9;
/** Its foot stands this share of the words' em above theirs, at least. */
const RAISED_LEAD_FOOT = 0.15;

/** Where a raised mark opens an item: the words' size and baseline after it, and the mark's own baseline. */
interface RaisedLead {
  size: number;
  baseline: number;
  markBaseline: number;
}

/**
 * A note's or a citation's mark opening an item, raised and smaller than the words after it (a browser's `[4]`
 * wrapped to the start of the line): LiteParse names the item after its first run, so the whole line took the mark's
 * size, and its box, reaching up to the mark, put its baseline below the words'. Where the boxes are the font's full
 * height (`words` of one font: their heights scale with their sizes), the words after the mark agree on one box,
 * taller than the mark's and standing lower: their size and baseline are the line's; undefined when not so.
 */
function raisedLead(item: NativeTextItem, words: readonly WordBox[], size: number): RaisedLead | undefined {
  if (words.length < 3 || !RAISED_LEAD_MARK.test(words[0]!.text.trim())) return undefined;
  const mark = words[0]!;
  const { y: top, height } = words[1]!;
  if (!(mark.height > 0) || mark.height > RAISED_LEAD_HEIGHT * height) return undefined;
  for (let i = 2; i < words.length; i++) {
    // A word holding a raised mark of its own (`birds.[5]`) has a taller box.
    if (ENDS_IN_MARK.test(words[i]!.text)) continue;
    if (Math.abs(words[i]!.height - height) > SAME_METRICS * size || Math.abs(words[i]!.y - top) > SAME_METRICS * size) return undefined;
  }
  const wordsSize = (size * height) / mark.height;
  if (mark.y + mark.height > top + height - RAISED_LEAD_FOOT * wordsSize) return undefined;
  return {
    size: wordsSize,
    baseline: baselineOf({ ...item, y: top, height }, wordsSize),
    markBaseline: baselineOf({ ...item, y: mark.y, height: mark.height }, size),
  };
}

/** The codes of the page's runs with Hangul, its regular runs' apart from its bold runs', and its bold runs' sizes. */
function codeUsesByWeight(textItems: readonly NativeTextItem[], isBoldItem: BoldTest): { regular: CodeUses; bold: CodeUses; boldSizes: number[] } {
  const withHangul = textItems.filter((item) => HAS_HANGUL.test(item.text));
  const bold = withHangul.filter(isBoldItem);
  const boldSizes = [...new Set(bold.map((item) => item.fontHeight ?? 0).filter((size) => size > 0))];
  return { regular: codeUses(withHangul.filter((item) => !isBoldItem(item) && !opensWithMark(item.text))), bold: codeUses(bold), boldSizes };
}

/**
 * Whether the item draws the space before each of the words `spaceWords` read last as a glyph; undefined where
 * its codes cannot say, or it draws no space at all (its writer may draw none: a missing glyph says nothing).
 */
function drawnSpaces(item: NativeTextItem): (word: number) => boolean | undefined {
  // Matched at the first gap asked about: most lines have none between Hangul and a digit or a Latin letter.
  let glyphs: Uint8Array | null | undefined;
  return (word) => {
    if (glyphs === undefined) glyphs = spaceGlyphs(item.text, item.charCodes);
    if (!glyphs?.includes(1) || wordAt[word]! < 0 || wordGapAt[word]! < 0) return undefined;
    return glyphs.subarray(wordGapAt[word], wordAt[word]).includes(1);
  };
}

/** `text` read against the first `count` codes with `space` as the space glyph's code (undefined: none drawn). */
function matchSpaces(text: string, codes: readonly number[], count: number, space: number | undefined): Uint8Array | null {
  const glyphs = new Uint8Array(text.length);
  let next = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff) continue;
    if (isSpace(unit)) {
      if (space !== undefined && next < count && codes[next] === space) {
        glyphs[i] = 1;
        next++;
      }
    } else {
      if (next >= count || codes[next] === space) return null;
      next++;
    }
  }
  while (next < count && codes[next] === space) next++;
  return next === count ? glyphs : null;
}

/** Whether a word's text is all white space (what `trim()` would empty), read from its first units. */
function blank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isWhiteSpaceCode(text.charCodeAt(i))) return false;
  return true;
}

/**
 * The words that hold more than white space; the item's own array when all do (most items: no copy). A trimmed
 * copy of each word's text to test it was the costliest line of the page's reading.
 */
function wordsWithText(words: readonly WordBox[] | undefined): readonly WordBox[] {
  if (!words) return [];
  for (let i = 0; i < words.length; i++) {
    if (blank(words[i]!.text)) return words.filter((word) => !blank(word.text));
  }
  return words;
}

/** Rotated text read from its words (LiteParse's own text can split a word where glyphs are kerned apart). */
function rotatedText(item: NativeTextItem, text: string, size: number, diagonal: boolean): string {
  const words = item.words?.filter((word) => word.text.trim().length > 0) ?? [];
  if (words.length === 0) return text;
  // A slanted word's box is upright round it, so boxes of neighbouring words overlap and show no gap between them.
  if (diagonal) return words.map((word) => word.text.trim()).join(' ');
  spaceWords(item, words, size, ROTATED_HAIR * size);
  let joined = '';
  for (let i = 0; i < words.length; i++) joined += wordSpaced[i] ? ` ${wordTexts[i]!}` : wordTexts[i]!;
  return joined;
}

function rotatedItem(item: NativeTextItem, rotation: number, text: string): RotatedItem {
  const radians = (rotation * Math.PI) / 180;
  const dx = Math.cos(radians);
  const dy = Math.sin(radians);
  const length = Math.abs(dx) * item.width + Math.abs(dy) * item.height;
  const size = item.fontHeight && item.fontHeight > 0 ? item.fontHeight : Math.min(item.width, item.height);
  text = rotatedText(item, text, size, isDiagonal(dx, dy));
  // The start of the advance is the box corner the direction leaves from.
  const x = dx >= 0 ? item.x : item.x + item.width;
  const y = dy >= 0 ? item.y : item.y + item.height;
  return { str: text, x, y, dx, dy, size, length };
}

/** Where a word box lies along the direction (dx, dy): the first and last of its corners' projections. */
function alongOf(word: WordBox, dx: number, dy: number): { from: number; to: number } {
  const a = word.x * dx + word.y * dy;
  const b = (word.x + word.width) * dx + word.y * dy;
  const c = word.x * dx + (word.y + word.height) * dy;
  const d = (word.x + word.width) * dx + (word.y + word.height) * dy;
  return { from: Math.min(a, b, c, d), to: Math.max(a, b, c, d) };
}

/**
 * The rotated item as the runs of its words apart along its direction (ROTATED_APART_EM), each an item of its own,
 * its words in reading order; the item whole where its words run on (most items). PDFium can read the column names
 * turned on their side over two tables, one above the other, with their note marks as one item (`(a)` `(a)` `Sales`).
 */
function rotatedItems(item: NativeTextItem, rotation: number, text: string): RotatedItem[] {
  const whole = rotatedItem(item, rotation, text);
  const words = item.words?.filter((word) => word.text.trim().length > 0) ?? [];
  if (words.length < 2 || isDiagonal(whole.dx, whole.dy)) return [whole];
  const { dx, dy, size } = whole;
  const placed = words.map((word) => ({ word, ...alongOf(word, dx, dy) })).sort((a, b) => a.from - b.from);
  const runs: (typeof placed)[] = [];
  let reach = -Infinity;
  for (const entry of placed) {
    if (runs.length === 0 || entry.from - reach > ROTATED_APART_EM * size) runs.push([entry]);
    else runs[runs.length - 1]!.push(entry);
    reach = Math.max(reach, entry.to);
  }
  if (runs.length === 1) return [whole];
  return runs.map((run) => {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    let str = '';
    let reach = -Infinity;
    for (const { word, from, to } of run) {
      x0 = Math.min(x0, word.x);
      y0 = Math.min(y0, word.y);
      x1 = Math.max(x1, word.x + word.width);
      y1 = Math.max(y1, word.y + word.height);
      str += str && from - reach > ROTATED_HAIR * size ? ` ${word.text.trim()}` : word.text.trim();
      reach = Math.max(reach, to);
    }
    return { str, x: dx >= 0 ? x0 : x1, y: dy >= 0 ? y0 : y1, dx, dy, size, length: Math.abs(dx) * (x1 - x0) + Math.abs(dy) * (y1 - y0) };
  });
}

function overlapsBox(rect: Rect, box: { x: number; y: number; width: number; height: number }): boolean {
  return rect.x0 < box.x + box.width && box.x < rect.x1 && rect.y0 < box.y + box.height && box.y < rect.y1;
}

type FillBox = { x: number; y: number; width: number; height: number };

/** How far (pt) above a table a filled band may end and still be its header row's background. */
const BAND_GAP = 4;
/** The share of a table's width a band above it must cover to be its header's background. */
const BAND_COVER = 0.8;

/**
 * The tables LiteParse found, each with the filled band just above it that it leaves out: a header row on a
 * coloured background, whose box LiteParse's table does not reach (it starts at the first row it could split into
 * cells). The band's outline then counts as the table's rules, as the shaded rows below it do, and its inner edges
 * are the header's column lines, spans included.
 */
function withHeaderBands(tables: readonly Rect[], boxes: readonly FillBox[]): Rect[] {
  return tables.map((table) => {
    // One shape, or one per cell: the boxes ending just above the table, side by side.
    const band = boxes.filter(({ x, y, width, height }) => y + height <= table.y0 + EDGE && y + height >= table.y0 - BAND_GAP && x < table.x1 && x + width > table.x0);
    const covered = band.reduce((sum, { x, width }) => sum + Math.min(table.x1, x + width) - Math.max(table.x0, x), 0);
    return band.length > 0 && covered >= BAND_COVER * (table.x1 - table.x0) ? { ...table, y0: Math.min(...band.map((box) => box.y)) } : table;
  });
}

/**
 * The tables LiteParse found, each reaching as far as the shaded rows under its text: a row's shading runs past its
 * cells' text on both sides (the cell's padding, a column wider than its text), and the box LiteParse gives the table
 * ends at the text. The shading's side edges then count among the table's rules and bridge its unshaded rows.
 * A fill counts as a row's when it is no taller than a third of the table (a panel behind the whole table is none).
 */
function withRowShading(tables: readonly Rect[], boxes: readonly FillBox[]): Rect[] {
  return tables.map((table) => {
    const rows = boxes.filter(({ x, y, width, height }) => height <= (table.y1 - table.y0) / 3 && x < table.x1 && x + width > table.x0 && y < table.y1 && y + height > table.y0);
    if (rows.length === 0) return table;
    return {
      x0: Math.min(table.x0, ...rows.map((box) => box.x)),
      y0: Math.min(table.y0, ...rows.map((box) => box.y)),
      x1: Math.max(table.x1, ...rows.map((box) => box.x + box.width)),
      y1: Math.max(table.y1, ...rows.map((box) => box.y + box.height)),
    };
  });
}

/** A ruling within a table's area, give or take the gap a band above it may leave (and as much on its sides). */
function insideRect(rect: Rect, ruling: Ruling): boolean {
  return ruling.x0 >= rect.x0 - BAND_GAP && ruling.x1 <= rect.x1 + BAND_GAP && ruling.y0 >= rect.y0 - EDGE && ruling.y1 <= rect.y1 + BAND_GAP;
}

/** Side edges at one x within this distance (pt) are one column line. */
const SAME_X = 0.5;
/** The outer edges of two shaded rows of one table stand at most this far apart (pt): a cell's border's width. */
const SAME_OUTER_EDGE = 2;

/** Whether two sets of side edges span the same width: their leftmost and rightmost edges at the same x. */
function sameOuterEdges(above: readonly Ruling[], below: readonly Ruling[]): boolean {
  if (above.length === 0 || below.length === 0) return false;
  const left = (sides: readonly Ruling[]) => Math.min(...sides.map((side) => side.x0));
  const right = (sides: readonly Ruling[]) => Math.max(...sides.map((side) => side.x1));
  return Math.abs(left(above) - left(below)) <= SAME_OUTER_EDGE && Math.abs(right(above) - right(below)) <= SAME_OUTER_EDGE;
}

/**
 * The column lines across the unshaded rows of a table drawn as shaded cells with white rows between them
 * (banded rows): the cells' side edges stop where a row has no shading, and the grid would break there into
 * several tables. A row is unshaded where no side edge of the table reaches it; a column line crosses it where
 * side edges at its x end at its top and start again at its bottom. A cell spanning columns in a shaded row leaves
 * no edge inside it, but the row's outer edges mark it shaded, so it is never bridged. Rows of one table share its
 * outer edges: a shaded panel above a table (a textbook's boxed note over the table after it), as wide as the
 * page's text where the table is narrower, is no row of it, and the gap between them is not bridged.
 */
function acrossUnshadedRows(sides: readonly Ruling[]): Ruling[] {
  if (sides.length < 2) return [];
  const shaded = shadedRows(sides);
  const tallest = Math.max(...shaded.map(([top, bottom]) => bottom - top));
  const bridges: Ruling[] = [];
  for (let i = 1; i < shaded.length; i++) {
    const top = shaded[i - 1]![1];
    const bottom = shaded[i]![0];
    if (bottom - top > tallest) continue;
    const above = sides.filter((side) => Math.abs(side.y1 - top) <= SAME_X);
    const below = sides.filter((side) => Math.abs(side.y0 - bottom) <= SAME_X);
    if (!sameOuterEdges(above, below)) continue;
    for (const side of above) {
      if (bridges.some((bridge) => bridge.y0 === top && Math.abs(bridge.x0 - side.x0) <= SAME_X)) continue;
      if (below.some((under) => Math.abs(under.x0 - side.x0) <= SAME_X)) {
        bridges.push({ x0: side.x0, y0: top, x1: side.x0, y1: bottom });
      }
    }
  }
  return bridges;
}

/** The shaded rows of a table: the union of its cells' side edges' extents, top to bottom. */
function shadedRows(sides: readonly Ruling[]): [number, number][] {
  const spans = sides.map((side) => [side.y0, side.y1] as [number, number]).sort((a, b) => a[0] - b[0]);
  const shaded: [number, number][] = [];
  for (const [top, bottom] of spans) {
    const last = shaded[shaded.length - 1];
    if (last && top <= last[1] + EDGE) last[1] = Math.max(last[1], bottom);
    else shaded.push([top, bottom]);
  }
  return shaded;
}

/**
 * The rules of an unshaded last row under banded rows: a table shaded every other row ends on an unshaded row
 * when it has an even number of rows, and its text (LiteParse's table reaching `textBottom`) goes on a row below
 * the last shaded one. That row is as tall as the unshaded rows between the bands: the side edges go on down to its
 * foot, and a rule closes it there, so the grid holds it as it holds the unshaded rows above.
 */
function pastLastBand(sides: readonly Ruling[], textBottom: number): Ruling[] {
  const shaded = shadedRows(sides);
  if (shaded.length < 2) return [];
  const gaps = shaded.slice(1).map(([top], i) => top - shaded[i]![1]);
  const gap = Math.min(...gaps);
  const bottom = shaded[shaded.length - 1]![1];
  if (!(gap > 0) || textBottom < bottom + gap / 2 || textBottom > bottom + gap + BAND_GAP) return [];
  const last = sides.filter((side) => Math.abs(side.y1 - bottom) <= SAME_X);
  if (last.length < 2) return [];
  const foot = bottom + gap;
  const x0 = Math.min(...last.map((side) => side.x0));
  const x1 = Math.max(...last.map((side) => side.x1));
  return [...last.map((side) => ({ x0: side.x0, y0: bottom, x1: side.x0, y1: foot })), { x0, y0: foot, x1, y1: foot }];
}

function rulingsOf(page: NativePageInput, found: readonly Rect[]): Ruling[] {
  const rulings: Ruling[] = [];
  const graphics = page.vectorGraphics;
  if (!graphics) return rulings;
  const add = (x0: number, y0: number, x1: number, y1: number): Ruling | undefined => {
    if (Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)) < MIN_LENGTH) return undefined;
    const ruling = { x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1) };
    rulings.push(ruling);
    return ruling;
  };
  // A thin filled bar is one rule along its centre (below); LiteParse also gives its outline as unstroked lines,
  // which would be two more rules half its width apart. A filled box's outline is a table's rules only inside a
  // table LiteParse found (shaded rows and bands drawn as cells); elsewhere it is a panel (pdfjs's recorder keeps
  // it as a box alone), and a panel of notes set under a table would extend the table's grid over the notes.
  const fills = graphics.shapes.filter((shape) => shape.fill && !shape.hasCurve);
  const bars = fills.filter((shape) => Math.min(shape.bbox.width, shape.bbox.height) <= THIN_FILL);
  const filled = fills.filter(({ bbox }) => Math.min(bbox.width, bbox.height) > THIN_FILL);
  const tables = withRowShading(withHeaderBands(found, filled.map((shape) => shape.bbox)), filled.map((shape) => shape.bbox));
  const boxes = filled.filter(({ bbox }) => !tables.some((table) => overlapsBox(table, bbox)));
  const within = (line: (typeof graphics.lines)[number], { bbox }: (typeof fills)[number]) =>
    Math.min(line.x1, line.x2) >= bbox.x - EDGE && Math.max(line.x1, line.x2) <= bbox.x + bbox.width + EDGE && Math.min(line.y1, line.y2) >= bbox.y - EDGE && Math.max(line.y1, line.y2) <= bbox.y + bbox.height + EDGE;
  // A filled shape with rounded corners is a shaded backdrop (a web page's code span, a callout), never a table's
  // cell: its straight edges are no rules either (a row of code spans ruled a table's cells through their words).
  const rounded = graphics.shapes.filter((shape) => shape.fill && shape.hasCurve);
  const outline = (line: (typeof graphics.lines)[number]) =>
    (bars.length <= MAX_FILLS_CHECKED && bars.some((bar) => within(line, bar))) ||
    (boxes.length <= MAX_FILLS_CHECKED && boxes.some((box) => within(line, box))) ||
    (rounded.length <= MAX_FILLS_CHECKED && rounded.some((shape) => within(line, shape)));
  let strokedLines = false;
  // The side edges of shaded cells in tables: where they stop at an unshaded row, the column lines go on.
  const cellSides: Ruling[] = [];
  for (const line of graphics.lines) {
    if (line.stroke === false && outline(line)) continue;
    if (line.stroke === true) strokedLines = true;
    if (Math.abs(line.y1 - line.y2) <= SLANT) add(line.x1, (line.y1 + line.y2) / 2, line.x2, (line.y1 + line.y2) / 2);
    else if (Math.abs(line.x1 - line.x2) <= SLANT) {
      const side = add((line.x1 + line.x2) / 2, line.y1, (line.x1 + line.x2) / 2, line.y2);
      if (side && line.stroke === false && tables.length > 0) cellSides.push(side);
    }
  }
  tables.forEach((table, i) => {
    const sides = cellSides.filter((side) => insideRect(table, side));
    rulings.push(...acrossUnshadedRows(sides), ...pastLastBand(sides, found[i]!.y1));
  });
  for (const shape of graphics.shapes) {
    if (shape.hasCurve) continue;
    const { x, y, width, height } = shape.bbox;
    if (shape.fill && height <= THIN_FILL && width >= THIN_FILL * height) add(x, y + height / 2, x + width, y + height / 2);
    else if (shape.fill && width <= THIN_FILL && height >= THIN_FILL * width) add(x + width / 2, y, x + width / 2, y + height);
    // A stroked path's segments are among the lines, exact; its shape's box is widened by the pen.
    else if (shape.stroke && !strokedLines) {
      add(x, y, x + width, y);
      add(x, y + height, x + width, y + height);
      add(x, y, x, y + height);
      add(x + width, y, x + width, y + height);
    }
  }
  return rulings;
}

function boxesOf(page: NativePageInput): Rect[] {
  const shapes = page.vectorGraphics?.shapes ?? [];
  return shapes
    .filter((shape) => shape.fill && !shape.hasCurve && Math.min(shape.bbox.width, shape.bbox.height) > THIN_FILL)
    .map(({ bbox: { x, y, width, height } }) => ({ x0: x, y0: y, x1: x + width, y1: y + height }));
}

/**
 * An item's text as the page means it, repaired once where it is read so that every reader of the item (a line, a
 * table's header label taken whole) has it so: a ligature's letters a byte off put back (shifted-letters.ts), and
 * in the Symbol font its private-use code points read as the encoding's characters (symbol-font-text.ts). Both
 * keep the text's length, so the words' boxes still fit it.
 */
function itemText(text: string, symbol: boolean): string {
  return symbol ? symbolFontText(text) : withShiftedLettersBack(text);
}

/**
 * A level item's box higher than this many times its font size is the font's bounding box, not its line's: a
 * line's box is 1–1.5 em, and 2.2 in fonts with tall accents (Century).
 */
export const OUTSIZED_BOX = 3;

/**
 * The page's text as docmill's layout reads it. Words are the items (LiteParse groups a line's words into one
 * item; docmill's lines, cells and tables are built from the gaps between words, as from pdfjs's runs). `tables`:
 * where LiteParse found tables on the page (their filled boxes' outlines are rules).
 */
export function nativePageItems(
  page: NativePageInput,
  tables: readonly Rect[] = [],
  roles?: ReadonlyMap<number, StructureMark>,
  /** What the document's fonts show (`documentFonts` over all its pages). */
  fonts: DocumentFonts = documentFonts([page]),
): NativePageItems {
  const { glyphBoxes, styleOf, isBold: isBoldItem } = fonts;
  const items: PdfTextItem[] = [];
  const tagged: TaggedRun[] | undefined = roles && roles.size > 0 ? [] : undefined;
  const rotated: RotatedItem[] = [];
  const strings: string[] = [];
  let chars = 0;
  let rtlChars = 0;
  let outsizedChars = 0;
  const autospaceGaps: number[] = [];
  const runStarts: PdfTextItem[] = [];
  let hangul = false;
  // The codes of the page's Hangul in regular type, read once a bold item with Hangul needs them.
  let regular: RegularCodes | undefined;
  // The codes of the page's Latin letters in regular type, read once a bold item whose boxes are cut to the glyphs needs them.
  let regularLetters: RegularCodes | undefined;
  // The codes the page's regular and bold runs with Hangul draw, read once an item opening with a mark needs them.
  let uses: ReturnType<typeof codeUsesByWeight> | undefined;
  for (const drawn of page.textItems) {
    const item = withAccentsOverLetters(drawn);
    const raw = item.text.trim();
    const symbol = isSymbolFontName(item.fontName);
    const text = itemText(raw, symbol);
    // Most items read as drawn: their words' texts are then taken as they are.
    const repaired = text !== raw;
    if (!text) continue;
    strings.push(text);
    const n = countCodePointsBesideSpaces(text, true);
    // An accent put on its letter is still a character of the page's text the items hold (read-pages.ts compares).
    chars += item === drawn ? n : n + countCodePointsBesideSpaces(drawn.text, true) - countCodePointsBesideSpaces(item.text, true);
    if (HAS_RTL.test(text)) rtlChars += text.match(RTL)?.length ?? 0;
    const rotation = (((item.rotation ?? 0) % 360) + 360) % 360;
    if (Math.min(rotation, 360 - rotation) > LEVEL) {
      rotated.push(...rotatedItems(item, rotation, text));
      continue;
    }
    const size = item.fontHeight && item.fontHeight > 0 ? item.fontHeight : item.height;
    if (!(size > 0) || !Number.isFinite(item.x) || !Number.isFinite(item.y)) continue;
    if (item.height > OUTSIZED_BOX * size) outsizedChars += n;
    const key = glyphBoxes.size > 0 ? fontKey(item.fontName ?? '', size) : undefined;
    const cut = key !== undefined && glyphBoxes.has(key);
    // A box reaching far below the line (a formula's deep glyph) keeps baselineOf's reading of it.
    const baseline = (cut && item.height <= DEEP_BOX * size && glyphBoxBaseline(item.words, fonts.footDepths.get(key))) || baselineOf(item, size);
    const mark = tagged && item.mcid !== undefined ? roles!.get(item.mcid) : undefined;
    if (mark) tagged!.push({ x0: item.x, x1: item.x + Math.max(0, item.width), baseline, size, chars: n, role: mark.role, element: mark.element });
    const fontName = item.fontName ?? '';
    let bold = isBoldItem(item);
    const monospace = styleOf(fontName).monospace;
    const words = wordsWithText(item.words);
    // Items of one shape, written out: the layout reads them many times over.
    if (words.length === 0) {
      items.push({ str: text, x0: item.x, x1: item.x + Math.max(0, item.width), baseline, size, fontName, bold, monospace, rtl: false, spaceBefore: false });
      continue;
    }
    spaceWords(item, words, size);
    // In a monospaced font every glyph is as wide: a hyphen's width says nothing of a dash.
    const dashes = !monospace && text.includes('-');
    // Dashes inside words, where the font's dashes between words showed their codes.
    const dashCodes = dashes && !repaired ? fonts.dashCodes.get(item.fontName ?? '') : undefined;
    const codes = dashCodes ? codesPerUnit(item) : undefined;
    const fullHeightBoxes = !cut;
    writeMarksSetApart(words, wordTexts, wordSpaced, words.length, size, fullHeightBoxes);
    if (fullHeightBoxes) writeRaisedMarks(words, wordTexts, wordSpaced, words.length, size);
    // Only an item with Hangul in it can hold an autospace or a lead told by its codes: no word of the others is
    // looked at again.
    const hasHangul = HAS_HANGUL.test(text);
    const fontBox = item.fontAscent !== undefined && item.fontDescent !== undefined ? item.fontAscent - item.fontDescent : undefined;
    let inItemFont = bold && fullHeightBoxes ? wordsInItemFont(words, wordTexts, size, fontBox) : words.length;
    // Units of the word after the lead that are the lead's, where the lead runs into it (`Abstract—We`).
    let leadCut: number | undefined;
    if (bold && hasHangul && inItemFont === words.length) {
      // Not an item opening with a mark: a heading whose mark is in the regular type is named so, its text bold.
      regular ??= regularCodes(
        page.textItems.filter((other) => other !== drawn && !isBoldItem(other) && HAS_HANGUL.test(other.text) && !opensWithMark(other.text)),
      );
      inItemFont = wordsBeforeRegularCodes(item, wordTexts, words.length, regular);
    } else if (bold && !hasHangul && !fullHeightBoxes && words.length > 1) {
      // Boxes cut to the glyphs say nothing of a Latin lead's end: the codes do.
      regularLetters ??= regularLetterCodes(page.textItems.filter((other) => other !== drawn && !isBoldItem(other)));
      const lead = leadBeforeRegularLetters(item, wordTexts, words.length, regularLetters);
      inItemFont = lead.words;
      leadCut = lead.cut;
    }
    let wordSize = size;
    const lead = raisedLead(item, words, size);
    if (lead) wordSize = lead.size;
    if (!bold && hasHangul && words.length >= 2) {
      // A heading's mark in the body's type before its bold text: the item is named after the mark's font and size.
      uses ??= codeUsesByWeight(page.textItems, isBoldItem);
      bold = followsMarkInBold(item, wordTexts[0]!, uses.regular, uses.bold);
      if (bold) wordSize = sizeAfterMark(words, size, uses.boldSizes);
    }
    hangul ||= hasHangul;
    const autospaced = hasHangul ? autospacedWords(words, wordTexts, wordSpaced, words.length, size, drawnSpaces(item)) : undefined;
    // Inline code opening a line of running text: the words after it are in the text's type (monospace-runs.ts).
    const pitch = monospace ? inlinePitch(fonts.monospace, fontName, size) : undefined;
    const offPitch = pitch !== undefined ? wordsOffPitch(words, wordTexts, words.length, pitch) : undefined;
    // Words after such a run are in the text's type: neither the run's font, nor its weight, nor monospaced, nor
    // its size where the code is set smaller than the text.
    const inFont = (i: number) => i < inItemFont && offPitch?.[i] !== true;
    const textType = offPitch ? textTypeAfterCode(words, offPitch, size, fonts.monospace.bodySize) : undefined;
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      const own = inFont(i);
      const last = items[items.length - 1];
      if (((autospaced?.[i] ?? false) || wordTracked[i]!) && last && own === inFont(i - 1)) {
        // One word the writer typed (`2025년`, or a tracked `CHAPTER`): the gap before it is the autospace or the
        // tracking, which the layout must not read as a word space.
        if (autospaced?.[i]) autospaceGaps.push((word.x - last.x1) / size);
        last.str += wordTexts[i]!;
        last.x1 = word.x + Math.max(0, word.width);
        continue;
      }
      const entry: PdfTextItem = {
        // A dash LiteParse wrote as a hyphen, once the words have been read as drawn (leads are told by their codes).
        str: repaired ? itemText(wordTexts[i]!, symbol) : dashes && !(fullHeightBoxes && inSmallerType(words, i)) ? wordWithDashes(wordTexts, i, word.width, size, text, wordAt[i]!, codes, dashCodes) : wordTexts[i]!,
        x0: word.x,
        x1: word.x + Math.max(0, word.width),
        baseline: lead ? (i === 0 ? lead.markBaseline : lead.baseline) : baseline,
        size: lead && i === 0 ? size : textType?.isText(i) ? textType.size : wordSize,
        fontName: own ? fontName : `${fontName}${OTHER_FONT}`,
        bold: bold && own,
        monospace: monospace && own,
        rtl: false,
        spaceBefore: wordSpaced[i]!,
      };
      if (i === inItemFont && leadCut !== undefined) {
        // The lead's end and the text's first word, one word drawn in two fonts: each part its share of the box.
        const x = entry.x0 + (leadCut / entry.str.length) * (entry.x1 - entry.x0);
        items.push({ ...entry, str: entry.str.slice(0, leadCut), x1: x, fontName, bold });
        items.push({ ...entry, str: entry.str.slice(leadCut), x0: x, spaceBefore: false });
      } else items.push(entry);
      if (i === 0) runStarts.push(items[items.length - 1]!);
    }
  }
  // Bullets the page draws as shapes, and what its form's fields hold: not the page's text, so not counted with its
  // characters.
  const filled = fillFormFields(withFreeText(page.formFields, page.annotations), items);
  if (tagged && tagged.length > 0) append(tagged, answerRuns(filled.answers));
  const bullets = drawnBullets(items, page.vectorGraphics?.shapes ?? []);
  for (const bullet of bullets) items.push(bullet);
  for (const mark of formFieldMarks(page.formFields, items)) items.push(mark);
  const rulings = withoutFieldFrames(rulingsOf(page, tables), filled.answered);
  const read: NativePageItems = { items, rotated, rulings, boxes: withoutFieldFrames(boxesOf(page), filled.answered), chars, rtlChars, outsizedChars, strings };
  if (tagged && tagged.length > 0) read.tagged = tagged;
  if (filled.replaced.length > 0) read.formBoxes = filled.replaced;
  const comments = commentsOf(page.annotations);
  if (comments.length > 0) read.comments = comments;
  if (hangul) {
    read.autospaceGaps = autospaceGaps;
    read.runStarts = runStarts;
  }
  return read;
}
