/**
 * Items → lines. Items are grouped by baseline (with tolerance: superscripts and subscripts join their line),
 * ordered left to right (right to left for right-to-left lines, with embedded runs of the other direction kept
 * in their own order), split into cells where a horizontal gap is wider than a word space, and joined into
 * text with spaces only where the gap warrants one. O(n log n) in the number of items.
 */
import { meetAtAutospace } from './liteparse/hangul-autospace.js';
import { withRaisedMarks } from './raised-marks.js';
import { ASCENT, DESCENT, type Cell, type PdfTextItem, type TextLine } from './types.js';
import { withLeadingBullet } from './line-bullets.js';
import { withShiftedLettersBack } from './shifted-letters.js';
import { composed, SPACING_ACCENT } from './spacing-accents.js';
import { partStackedLines } from './stacked-lines.js';
import { countCodePointsBesideSpaces } from './white-space.js';

/** A gap wider than this many ems separates cells (table columns, page columns, spaced-out labels). */
export const CELL_GAP_EM = 0.8;
/** A gap wider than this many ems between two items is a word space. */
const SPACE_GAP_EM = 0.12;

const BULLET_CELL = /^(?:[•◦▪▫‣●○■□►▸➢✓✔\-–—*·]|\(?\d{1,3}[.)]|\(?[a-z][.)]|\(?[ivx]{1,4}[.)])$/;

function top(item: PdfTextItem): number {
  return item.baseline - ASCENT * item.size;
}
function bottom(item: PdfTextItem): number {
  return item.baseline + DESCENT * item.size;
}

/** Vertical overlap of two items as a share of the smaller one's height. */
function overlapShare(a: PdfTextItem, b: PdfTextItem): number {
  const overlap = Math.min(bottom(a), bottom(b)) - Math.max(top(a), top(b));
  const smaller = Math.min(a.size, b.size) * (ASCENT + DESCENT);
  return smaller > 0 ? overlap / smaller : 0;
}

/**
 * Whether a stable sort by baseline, then x, would leave the items as they are: each item above the next (a smaller
 * baseline), or level with it and not to its right (no NaN among them).
 */
function isInBaselineOrder(items: readonly PdfTextItem[]): boolean {
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!;
    const b = items[i]!;
    if (!(a.baseline < b.baseline || (a.baseline === b.baseline && a.x0 <= b.x0))) return false;
  }
  return true;
}

/**
 * Groups items into baseline clusters. Each cluster is compared against its reference item (its largest) only,
 * so lines of neighbouring columns at slightly different baselines do not chain into one tall cluster.
 */
export function clusterLines(items: readonly PdfTextItem[]): PdfTextItem[][] {
  // Most calls get their items in this order already (a region's items, line by line; a cell's): read as they are
  // then, as the stable sort would leave them, not copied and sorted.
  const sorted = isInBaselineOrder(items) ? items : [...items].sort((a, b) => a.baseline - b.baseline || a.x0 - b.x0);
  const clusters: PdfTextItem[][] = [];
  let current: PdfTextItem[] = [];
  let ref: PdfTextItem | undefined;
  let previous: { items: PdfTextItem[]; ref: PdfTextItem } | undefined;
  for (const item of sorted) {
    if (ref && overlapShare(item, ref) >= 0.5 && !(item.size > ref.size * 1.05 && standsApart(current, item))) {
      current.push(item);
      if (item.size > ref.size * 1.05) ref = item;
      continue;
    }
    // A subscript of the previous line can sort after the next line has started.
    if (previous && overlapShare(item, previous.ref) >= 0.5 && (!ref || overlapShare(item, ref) <= 0)) {
      previous.items.push(item);
      continue;
    }
    if (current.length > 0 && ref) {
      clusters.push(current);
      previous = { items: current, ref };
    }
    current = [item];
    ref = item;
  }
  if (current.length > 0) clusters.push(current);
  return absorbStrayScripts(clusters.flatMap(partStackedLines));
}

/** How far (ems of a bigger item's type) a line's baseline may stand from the bigger item's and be its line. */
const BIGGER_BASELINE_EM = 0.5;

/**
 * Whether a bigger item reaching up into a cluster of smaller type is no part of its line: its baseline is more than
 * half its size below theirs, and none of them stands within an em of it (a raised mark beside a word does). A large
 * figure set on the line below (a form's `2013` at 20 pt beside `Do Not use …`) reaches up as far as a small line
 * above it (`28726`), which it would otherwise run into its own line (`Do28726Not`).
 */
function standsApart(cluster: readonly PdfTextItem[], bigger: PdfTextItem): boolean {
  for (const item of cluster) {
    if (bigger.baseline - item.baseline <= BIGGER_BASELINE_EM * bigger.size) return false;
    if (item.x1 > bigger.x0 - bigger.size && item.x0 < bigger.x1 + bigger.size) return false;
  }
  return true;
}

/**
 * A cluster of a few small glyphs (a second-level subscript, an accent) that overlaps no line is attached to
 * the nearest neighbouring cluster it sits beside, instead of becoming a line of its own.
 */
function absorbStrayScripts(clusters: PdfTextItem[][]): PdfTextItem[][] {
  if (clusters.length < 2) return clusters;
  const stats = clusters.map((cluster) => {
    let chars = 0;
    let size = 0;
    let x0 = Infinity;
    let x1 = -Infinity;
    let baseline = 0;
    for (const item of cluster) {
      chars += item.str.length;
      if (item.size > size) {
        size = item.size;
        baseline = item.baseline;
      }
      x0 = Math.min(x0, item.x0);
      x1 = Math.max(x1, item.x1);
    }
    return { chars, size, x0, x1, baseline };
  });
  const target: (number | undefined)[] = clusters.map(() => undefined);
  let absorbed = false;
  stats.forEach((stat, i) => {
    if (stat.chars > 3) return;
    let best: number | undefined;
    let bestDistance = Infinity;
    for (const j of [i - 1, i + 1]) {
      const other = stats[j];
      if (!other || other.chars <= 3 || stat.size > 0.8 * other.size) continue;
      const distance = Math.abs(stat.baseline - other.baseline);
      const beside = stat.x0 <= other.x1 + other.size && stat.x1 >= other.x0 - other.size;
      if (beside && distance < 0.9 * other.size && distance < bestDistance) {
        best = j;
        bestDistance = distance;
      }
    }
    target[i] = best;
    if (best !== undefined) absorbed = true;
  });
  // Most pages have none: their clusters stand as they are, not copied item by item.
  if (!absorbed) return clusters;
  const out: PdfTextItem[][] = [];
  const merged = clusters.map((cluster) => [...cluster]);
  target.forEach((j, i) => {
    if (j !== undefined) merged[j]!.push(...clusters[i]!);
  });
  merged.forEach((cluster, i) => {
    if (target[i] === undefined) out.push(cluster);
  });
  return out;
}

/**
 * The direction of a text of ASCII alone (most words): a letter makes it left to right, else it is neutral; undefined
 * for any other text. Read by code unit: the two patterns below, tested on every item, were half of directionOf's
 * time.
 */
function asciiDirection(text: string): 'ltr' | 'neutral' | undefined {
  let letter = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return undefined;
    if (!letter) letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  }
  return letter ? 'ltr' : 'neutral';
}

export const STRONG_RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
const STRONG_LTR = /[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

function directionOf(item: PdfTextItem): 'rtl' | 'ltr' | 'neutral' {
  if (!item.rtl) {
    const ascii = asciiDirection(item.str);
    if (ascii !== undefined) return ascii;
  }
  if (item.rtl || STRONG_RTL.test(item.str)) return 'rtl';
  if (STRONG_LTR.test(item.str)) return 'ltr';
  return 'neutral';
}

/**
 * Reading order of a line's items: by x in the line's direction; runs of the opposite direction keep their own
 * internal order (an English word inside Arabic text reads left to right). Neutral items (digits, punctuation)
 * between two items of the opposite direction join that run.
 */
export function orderLineItems(items: readonly PdfTextItem[], rtl: boolean): PdfTextItem[] {
  const sorted = [...items].sort((a, b) => (rtl ? b.x1 - a.x1 : a.x0 - b.x0));
  const dirs = sorted.map(directionOf);
  const opposite = rtl ? 'ltr' : 'rtl';
  const own = rtl ? 'rtl' : 'ltr';
  const out: PdfTextItem[] = [];
  let i = 0;
  while (i < sorted.length) {
    if (dirs[i] === own) {
      out.push(sorted[i]!);
      i++;
      continue;
    }
    // A stretch without the line's own direction; if it holds opposite-direction items, the part up to the
    // last of them (with neutrals leading into it, like the "3.12" of "Python 3.12") reads the other way.
    let end = i;
    let lastOpposite = -1;
    while (end < sorted.length && dirs[end] !== own) {
      if (dirs[end] === opposite) lastOpposite = end;
      end++;
    }
    if (lastOpposite >= 0) for (let k = lastOpposite; k >= i; k--) out.push(sorted[k]!);
    for (let k = lastOpposite >= 0 ? lastOpposite + 1 : i; k < end; k++) out.push(sorted[k]!);
    i = end;
  }
  return out;
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;

function gapBetween(a: PdfTextItem, b: PdfTextItem): number {
  return Math.max(b.x0 - a.x1, a.x0 - b.x1);
}

/**
 * The items in order of x, as a stable sort gives them. The items of a line mostly come in that order already
 * (clusterLines sorts them by baseline, then x): they are only copied then, and the sort's set-up is saved, the
 * costliest line of buildLine.
 */
function byX(items: readonly PdfTextItem[]): PdfTextItem[] {
  return isInXOrder(items) ? [...items] : [...items].sort((a, b) => a.x0 - b.x0);
}

/** Whether a stable sort by x would leave the items as they are (no NaN among their x). */
function isInXOrder(items: readonly PdfTextItem[]): boolean {
  for (let i = 1; i < items.length; i++) if (!(items[i - 1]!.x0 <= items[i]!.x0)) return false;
  return true;
}

/**
 * Joins items already in reading order, inserting a space where the gap or the PDF's own spacing says so.
 * `mixed`: the items may mix directions; false when none reads right to left, so that no direction changes
 * between them and none need be worked out.
 */
export function joinItems(items: readonly PdfTextItem[], mixed = true): string {
  // Appended, never sliced or searched while it grows: linear however many items a line holds (a hundred
  // thousand on a hostile page), and no array of parts to join (the join was a third of this function's time).
  let text = '';
  let prev: PdfTextItem | undefined;
  let prevDir: ReturnType<typeof directionOf> = 'neutral';
  for (const item of items) {
    const dir = mixed ? directionOf(item) : 'neutral';
    if (prev) {
      const gap = gapBetween(prev, item);
      const em = Math.max(prev.size, item.size);
      const cjkPair = CJK.test(prev.str.slice(-1)) && CJK.test(item.str.charAt(0));
      // A Latin word inside Arabic or Hebrew text is set apart by a space even when none is drawn.
      const directionChange = prevDir !== 'neutral' && dir !== 'neutral' && prevDir !== dir && gap > -0.1 * em;
      const wantsSpace = cjkPair
        ? gap > 0.5 * em
        : directionChange || ((gap > SPACE_GAP_EM * em || (item.spaceBefore === true && gap > -0.2 * em)) && !(item.autospaceEm !== undefined && meetAtAutospace(prev.str, item.str, gap, em, item.autospaceEm)));
      if (wantsSpace && !prev.str.endsWith(' ')) text += ' ';
    }
    text += item.str;
    prev = item;
    prevDir = dir;
  }
  return text;
}

/** Joins monospaced items, turning gaps into as many spaces as characters would fit (code keeps its spacing). */
export function joinMonospace(items: readonly PdfTextItem[], charWidth: number): string {
  const parts: string[] = [];
  let prev: PdfTextItem | undefined;
  for (const item of items) {
    if (prev && charWidth > 0) {
      const gap = item.x0 - prev.x1;
      const spaces = Math.round(gap / charWidth);
      if (spaces > 0) parts.push(' '.repeat(Math.min(spaces, 40)));
      else if (item.spaceBefore) parts.push(' ');
    }
    parts.push(item.str);
    prev = item;
  }
  return parts.join('');
}

/**
 * Characters per key in first-seen order, for the key with the most (the first such, as a scan of a Map in insertion order
 * finds it). A line has a size or two and a font or two: two short arrays scanned instead of two Maps per line,
 * the same two for every line (buildLine runs to its end before another starts).
 */
class Tally<K> {
  // Written over from the start for each line, never emptied: emptying an array lets its storage go.
  readonly keys: K[] = [];
  readonly counts: number[] = [];
  size = 0;
  reset(): this {
    this.size = 0;
    return this;
  }
  add(key: K, n: number): void {
    const { keys } = this;
    for (let i = 0; i < this.size; i++) {
      const other = keys[i]!;
      // SameValueZero, as a Map's keys compare.
      if (other === key || (other !== other && key !== key)) {
        this.counts[i]! += n;
        return;
      }
    }
    keys[this.size] = key;
    this.counts[this.size] = n;
    this.size++;
  }
  top(): K | undefined {
    let best: K | undefined;
    let bestCount = -1;
    for (let i = 0; i < this.size; i++) {
      if (this.counts[i]! > bestCount) {
        best = this.keys[i];
        bestCount = this.counts[i]!;
      }
    }
    return best;
  }
}

const lineSizes = new Tally<number>();
const lineTextSizes = new Tally<number>();
const lineFonts = new Tally<string>();

/**
 * A line's proportional type sets its size where it holds this share of the line's characters at least: code spans
 * in running text, set smaller (a web page's at 85 %) and many on one line, do not make a line of the text a line
 * of smaller type; a lone symbol in another face on a line of code does not make it one of the symbol's size.
 */
const TEXT_SIZE_SHARE = 0.25;

/**
 * The size most of the line's proportional characters are set at: tallied apart only for a line that mixes its
 * type with monospaced runs, which few lines do.
 */
function textSizeOf(cluster: readonly PdfTextItem[]): number | undefined {
  const sizes = lineTextSizes.reset();
  for (const item of cluster) {
    if (!item.monospace) sizes.add(Math.round(item.size * 100) / 100, Math.max(1, countCodePointsBesideSpaces(item.str)));
  }
  return sizes.top();
}

/** Builds one line from a baseline cluster. */
export function buildLine(cluster: readonly PdfTextItem[], cellGapEm = CELL_GAP_EM): TextLine {
  let rtlChars = 0;
  let ltrChars = 0;
  const sizeChars = lineSizes.reset();
  const fontChars = lineFonts.reset();
  let anyRtl = false;
  let boldChars = 0;
  let monoChars = 0;
  let total = 0;
  let x0 = Infinity;
  let x1 = -Infinity;
  let lineTop = Infinity;
  let lineBottom = -Infinity;
  let refItem = cluster[0]!;
  for (const item of cluster) {
    const n = Math.max(1, countCodePointsBesideSpaces(item.str));
    total += n;
    const dir = directionOf(item);
    if (dir === 'rtl') {
      rtlChars += n;
      anyRtl = true;
    } else if (dir === 'ltr') ltrChars += n;
    // The size as set (to a hundredth of a point), not a class: in small type a half-point class is as wide as the
    // step from the body to a heading.
    sizeChars.add(Math.round(item.size * 100) / 100, n);
    fontChars.add(item.fontName, n);
    if (item.bold) boldChars += n;
    if (item.monospace) monoChars += n;
    x0 = Math.min(x0, item.x0);
    x1 = Math.max(x1, item.x1);
    lineTop = Math.min(lineTop, top(item));
    lineBottom = Math.max(lineBottom, bottom(item));
    if (item.size > refItem.size) refItem = item;
  }
  const rtl = rtlChars > ltrChars;
  // Without right-to-left items the reading order is the order by x, and no item's direction is needed again:
  // each was worked out three times a line (two regular expressions each), 3 % of the layout's time.
  const size = (monoChars > 0 && total - monoChars >= TEXT_SIZE_SHARE * total ? textSizeOf(cluster) : sizeChars.top()) ?? refItem.size;
  const ordered = withRaisedMarks(withLeadingBullet(anyRtl ? orderLineItems(cluster, rtl) : byX(cluster)), refItem.baseline, size);
  const cells = splitCells(ordered, rtl, size * cellGapEm, anyRtl);
  mergeLeadingMarker(cells);
  const lead = ordered[0]!;
  const superscriptStart =
    ordered.length > 1 &&
    lead.size <= 0.85 * size &&
    lead.baseline < refItem.baseline - 0.15 * size &&
    /^[\d∗*†‡§¶]{1,3}$/.test(lead.str);
  let text = cells[0]!.text;
  for (let i = 1; i < cells.length; i++) text += ` ${cells[i]!.text}`;
  const line: TextLine = {
    cells,
    text,
    x0,
    x1,
    top: lineTop,
    bottom: lineBottom,
    baseline: refItem.baseline,
    size,
    fontName: fontChars.top() ?? refItem.fontName,
    bold: boldChars >= 0.7 * total,
    monoShare: total > 0 ? monoChars / total : 0,
    rtl,
    chars: total,
  };
  // Set afterwards rather than spread in from an object made for it each line: the same key, last, as before.
  if (superscriptStart) line.superscriptStart = superscriptStart;
  const labelSize = smallerLabelSize(ordered, size);
  if (labelSize !== undefined) line.labelSize = labelSize;
  return line;
}

/** A field's label is at most this many characters, its colon included. */
const MAX_LABEL_CHARS = 40;
/** A label set at most this share of the value's size is set apart from it (sizes round to half points). */
const LABEL_SMALLER = 0.95;

/**
 * The size of a label (`Full name:`) that starts the line, in items of their own, when it is set smaller than the
 * line's dominant size (`size`) and text follows it: a form's value filled in at the size its box allows. Undefined
 * for any other line, a heading set in one size (`Chapter 3: The Return`) among them.
 */
function smallerLabelSize(ordered: readonly PdfTextItem[], size: number): number | undefined {
  if (ordered.length < 2) return undefined;
  let chars = 0;
  let labelSize = 0;
  for (let i = 0; i < ordered.length - 1; i++) {
    const item = ordered[i]!;
    chars += item.str.length;
    if (chars > MAX_LABEL_CHARS || !(item.size <= LABEL_SMALLER * size)) return undefined;
    labelSize = Math.max(labelSize, item.size);
    if (/:\s*$/.test(item.str)) return /^\p{Lu}/u.test(ordered[0]!.str.trimStart()) ? Math.round(labelSize * 2) / 2 : undefined;
  }
  return undefined;
}

const ACCENT_BEFORE_LETTER = /([˘¨´ˆ˜ˇ˚˙¯˝])(\p{L})/gu;
/**
 * The two letters of an Arabic lam-alef glyph come out reversed from a reader that gathers a line's glyphs in visual
 * order and reverses the line after (LiteParse; stock pdfjs, which docmill's patched worker corrects at the glyph:
 * right-to-left-glyphs.ts). After the definite article the pair cannot be anything else: "اإل" is "الإ".
 */
const BROKEN_LAM_ALEF = /ا([اأإآ])ل/g;

/**
 * A soft hyphen inside a line was drawn, so it is a hyphen (`e-learning`, `2021-2-FR02`): some writers map every
 * hyphen glyph to U+00AD (cairo's PDFs, pdftocairo's copies). One at a line's end is left for the paragraph's
 * join, where it marks a word broken across lines (paragraphs.ts joinLines).
 */
const DRAWN_SOFT_HYPHEN = /\u00ad(?=.)/gu;

/**
 * Repairs text the PDF encodes oddly: a spacing accent drawn before its letter (TeX's "O˘guz") becomes the
 * composed letter (only where Unicode has one), the Arabic lam-alef ligature after the article is put back in
 * logical order, a soft hyphen drawn inside a line is a hyphen, and a ligature's letters a byte off are put back.
 */
export function repairText(text: string): string {
  let out = text;
  if (SPACING_ACCENT.test(out)) out = out.replace(ACCENT_BEFORE_LETTER, (whole, accent: string, letter: string) => composed(letter, accent) ?? whole);
  if (out.includes('ا')) out = out.replace(BROKEN_LAM_ALEF, 'ال$1');
  if (out.includes('\u00ad')) out = out.replace(DRAWN_SOFT_HYPHEN, '-');
  return withShiftedLettersBack(out);
}

/** A cell of `items` (in reading order): its text joined and repaired, its extent; `mixed` where directions may mix. */
export function makeCell(items: PdfTextItem[], mixed: boolean): Cell {
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const item of items) {
    x0 = Math.min(x0, item.x0);
    x1 = Math.max(x1, item.x1);
  }
  return { items, text: repairText(joinItems(items, mixed)), x0, x1 };
}

/** Whether items in x order leave a gap wider than `gap` after all those before them (where splitCells splits). */
function hasCellGap(inX: readonly PdfTextItem[], gap: number): boolean {
  let reach = -Infinity;
  for (let i = 0; i < inX.length; i++) {
    const item = inX[i]!;
    if (i > 0 && item.x0 - reach > gap) return true;
    reach = Math.max(reach, item.x1);
  }
  return false;
}

/** Splits ordered items into cells at gaps wider than `gap` (measured in visual order). */
function splitCells(ordered: PdfTextItem[], rtl: boolean, gap: number, mixed: boolean): Cell[] {
  // Cells are found in visual (x) order, then listed in reading order. Only read here: the items themselves when
  // already in x order (most lines), not a copy.
  const inX = isInXOrder(ordered) ? ordered : byX(ordered);
  // `ordered` is the line's own array, made for it by buildLine: the cell takes it without a copy. Most lines are
  // one cell: told by a pass over the gaps, before any group is gathered.
  if (inX.length > 0 && !hasCellGap(inX, gap)) return [makeCell(ordered, mixed)];
  const groups: PdfTextItem[][] = [];
  let group: PdfTextItem[] = [];
  let reach = -Infinity;
  for (const item of inX) {
    if (group.length > 0 && item.x0 - reach > gap) {
      groups.push(group);
      group = [];
    }
    group.push(item);
    reach = Math.max(reach, item.x1);
  }
  if (group.length > 0) groups.push(group);
  // Left-to-right lines are in x order already, and so is each group: no ranks to look up.
  let inOrder = true;
  for (let i = 0; i < inX.length && inOrder; i++) inOrder = inX[i] === ordered[i];
  if (inOrder) return finishCells(groups, rtl, mixed);
  const rank = new Map<PdfTextItem, number>();
  ordered.forEach((item, index) => rank.set(item, index));
  for (const g of groups) g.sort((a, b) => rank.get(a)! - rank.get(b)!);
  return finishCells(groups, rtl, mixed);
}

function finishCells(groups: PdfTextItem[][], rtl: boolean, mixed: boolean): Cell[] {
  // Each cell's leading bullet, as the line's (buildLine): the second of two lists side by side starts mid-line.
  const cells = groups.map((g) => makeCell(withLeadingBullet(g), mixed));
  return rtl ? cells.reverse() : cells;
}

/** A bullet or enumerator drawn apart from its text belongs to the text's cell, not a table column. */
function mergeLeadingMarker(cells: Cell[]): void {
  const first = cells[0];
  const second = cells[1];
  if (!first || !second || !BULLET_CELL.test(first.text)) return;
  const items = [...first.items, ...second.items];
  cells.splice(0, 2, {
    items,
    text: `${first.text} ${second.text}`,
    x0: Math.min(first.x0, second.x0),
    x1: Math.max(first.x1, second.x1),
  });
}

/** Items → lines, top to bottom. */
export function buildLines(items: readonly PdfTextItem[], cellGapEm = CELL_GAP_EM): TextLine[] {
  return clusterLines(items)
    .map((cluster) => buildLine(cluster, cellGapEm))
    .sort((a, b) => a.top - b.top || a.x0 - b.x0);
}

/** Widest gap, in ems, between the words of a justified line; a lone gap (two cells) must be narrower. */
const JUSTIFIED_GAP_EM = 2;
const LONE_GAP_EM = 1.2;
/** Justification spaces a line's words alike: its gaps differ by at most this share of the widest. */
const EVEN_GAPS = 0.25;
/** Fewest words on a justified line of prose. */
const PROSE_WORDS = 3;

/**
 * A line of justified prose split into cells because its words are set wide apart: words mostly of letters,
 * spaced alike and not far apart. A table's row leaves a wider channel somewhere, spaces its columns unevenly,
 * or holds numbers.
 */
export function isJustifiedProseLine(line: TextLine): boolean {
  if (line.cells.length < 2) return false;
  const words = line.text.split(/\s+/).filter(Boolean);
  if (words.length < PROSE_WORDS) return false;
  const wordy = words.filter((word) => /\p{L}{2}/u.test(word)).length;
  if (wordy < 0.8 * words.length) return false;
  const gaps: number[] = [];
  for (let i = 1; i < line.cells.length; i++) {
    gaps.push(line.rtl ? line.cells[i - 1]!.x0 - line.cells[i]!.x1 : line.cells[i]!.x0 - line.cells[i - 1]!.x1);
  }
  const widest = Math.max(...gaps);
  if (gaps.length === 1) return widest <= LONE_GAP_EM * line.size;
  return widest <= JUSTIFIED_GAP_EM * line.size && widest - Math.min(...gaps) <= EVEN_GAPS * widest;
}

/** Fewest words on a line of prose that no channel splits, and the share of a table's lines such lines must be. */
const UNBROKEN_PROSE_WORDS = 5;
const UNBROKEN_PROSE_SHARE = 0.5;

/**
 * Lines of prose no channel splits into cells, half of them or more (beside a heading or a note), each of
 * several words: what another reader cut into columns at ordinary spaces between words (LiteParse at small type,
 * its gaps measured in points) is no table.
 */
export function isUnbrokenProse(lines: readonly TextLine[]): boolean {
  if (lines.length < 3) return false;
  const prose = lines.filter((line) => line.cells.length === 1 && line.text.split(/\s+/).filter((word) => /\p{L}{2}/u.test(word)).length >= UNBROKEN_PROSE_WORDS);
  return prose.length >= UNBROKEN_PROSE_SHARE * lines.length;
}

/** Lines that are mostly justified prose (at least half of those with two cells or more) are not a table. */
export function isJustifiedProse(lines: readonly TextLine[]): boolean {
  const split = lines.filter((line) => line.cells.length >= 2);
  if (split.length === 0) return false;
  return split.filter(isJustifiedProseLine).length >= 0.5 * split.length;
}
