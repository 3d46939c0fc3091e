/**
 * Headings from font size and weight, decided over the whole document. The body size is the most common size
 * by character count; short blocks set bigger than the body, or bold when the body is not, are headings. The
 * largest heading on page 1 is the title (`#`) when no other heading shares its size; a numbered heading takes
 * its numbering's depth (`1` → `##`, `1.1` → `###`); the other heading styles are ranked by size (then bold first)
 * into `##`, `###`, `####`, or take the level of the numbered headings set in the same style.
 */

import { isCaptionText } from './captions.js';
import { decimalPlace, numberingDepth } from './heading-numbering.js';

/** Font size histogram by characters, keyed by the size to a hundredth of a point. */
export type SizeHistogram = Map<number, number>;

export function addToHistogram(histogram: SizeHistogram, size: number, chars: number): void {
  const key = Math.round(size * 100) / 100;
  histogram.set(key, (histogram.get(key) ?? 0) + chars);
}

export function mergeHistograms(into: SizeHistogram, from: SizeHistogram): void {
  for (const [size, chars] of from) into.set(size, (into.get(size) ?? 0) + chars);
}

/**
 * The body's size: of the most common size class by characters (half points; the smaller on a tie), the mean size
 * its characters are set in; 0 when there is no text. The mean, not the class: a heading is told by its size over
 * the body's, and in small type (an 8-point body, a page printed at 70 %) a class is as wide as that difference.
 */
export function bodySizeOf(histogram: SizeHistogram): number {
  const classes = new Map<number, { chars: number; weighted: number }>();
  for (const [size, chars] of histogram) {
    const key = sizeClass(size);
    const sum = classes.get(key) ?? { chars: 0, weighted: 0 };
    sum.chars += chars;
    sum.weighted += size * chars;
    classes.set(key, sum);
  }
  let best = 0;
  let bestChars = -1;
  for (const [size, { chars }] of classes) {
    if (chars > bestChars || (chars === bestChars && size < best)) {
      best = size;
      bestChars = chars;
    }
  }
  const body = classes.get(best);
  return body && body.chars > 0 ? body.weighted / body.chars : best;
}

/** The characters set in `size`'s class (half points). */
export function charsInSizeClass(histogram: SizeHistogram, size: number): number {
  const wanted = sizeClass(size);
  let chars = 0;
  for (const [key, count] of histogram) if (sizeClass(key) === wanted) chars += count;
  return chars;
}

export interface HeadingCandidate {
  page: number;
  text: string;
  size: number;
  bold: boolean;
  lines: number;
  /** The block's place among its page's blocks in reading order (0: the first). */
  order?: number;
  /** Set centred on its page, clear of its text's left edge. */
  centred?: boolean;
  /** Its words are the document's running header's (a handbook's name over every page). */
  runsAsHeader?: boolean;
}

export interface HeadingDecision {
  type: 'title' | 'section_header';
  /** Markdown heading level: 1 for the title, 2..4 for section headers. */
  level: number;
}

export interface BodyStyle {
  size: number;
  bold: boolean;
}

const BIGGER = 1.15;
const TITLE_BIGGER = 1.3;
/** Display type: set so much bigger than the body that even a sentence in it is a heading. */
const DISPLAY_BIGGER = 1.5;
/** Markdown has six levels of heading; the title is the first. */
const MAX_LEVEL = 6;
/** A kicker's title is at least this much bigger. */
const KICKER_SMALLER = 1.4;

/** `a. About the Robots`, `b) Results`: a lower-case letter numbering a heading whose words start in capitals. */
const LETTERED = /^\p{Ll}[.)]\s+\p{Lu}/u;

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
/**
 * A date alone on its line (`March 2026`, `1 April 2026`, `April 1, 2026`, `2026-04-01`): a title page's or a
 * letter's date, set big under the title, dates the document and heads no section.
 */
const DATE_LINE = new RegExp(`^(?:(?:\\d{1,2}(?:st|nd|rd|th)?\\s+)?${MONTH}\\s+(?:\\d{1,2}(?:st|nd|rd|th)?,?\\s+)?\\d{4}|\\d{4}-\\d{2}-\\d{2})$`, 'iu');

/**
 * A label, a colon and a list of three or more terms (`주제어: 도시 공원, 접근성, 신체 활동`, `Keywords: open data,
 * start-up, …`): a paper's keywords, whose bold label names the whole line bold where the reader cannot tell the
 * label's font from the terms'. It heads nothing.
 */
const LABELLED_TERMS = /^[^:,]{1,20}:\s+[^,]+(?:,\s*[^,]+){2,}$/u;

/** The most words of a heading set in lower case (a function's name, a product's). */
const NAME_WORDS = 4;

/** A short name on one line, bold and bigger than the body, with no sentence's punctuation: a heading. */
function isNameInDisplayType(candidate: HeadingCandidate, body: BodyStyle): boolean {
  const text = candidate.text.trim();
  return (
    candidate.lines === 1 &&
    candidate.bold &&
    !body.bold &&
    body.size > 0 &&
    candidate.size >= body.size * BIGGER &&
    text.split(/\s+/).length <= NAME_WORDS &&
    !/[.,;:!?]$/u.test(text)
  );
}

/** An e-mail address anywhere in the text, its `@` maybe spelled out against spam (`tal197 at users.sf.net`). */
const EMAIL = /[\p{L}\p{N}._%+-]+(?:@|\s*\[at\]\s*|\s*\(at\)\s*|\sat\s)[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}\b/iu;

/** Could this block be a heading at all, given the body style? */
export function isHeadingLike(candidate: HeadingCandidate, body: BodyStyle): boolean {
  const text = candidate.text.trim();
  if (!text || candidate.lines > 3 || text.length > 200) return false;
  const words = text.split(/\s+/).length;
  if (words > 25) return false;
  // Set as a heading is, by its type against the body's: told before the patterns below, which the body's own
  // paragraphs (most candidates, and none of them set so) were all tried against.
  if (!setAsHeading(candidate, body, words)) return false;
  if (!/\p{L}/u.test(text)) return false;
  // Lower case starts a sentence's run-on, not a heading; a lettered label (`a. About the Robots`) is numbering, and
  // a name set alone in bold display type (a manual's `asn1_parser2tree`, `iOS apps`) is the heading it looks.
  if (/^\p{Ll}/u.test(text) && !LETTERED.test(text) && !isNameInDisplayType(candidate, body)) return false;
  if (/[,;]$/.test(text)) return false;
  // A paragraph's run-in bold start cut at a line-end hyphen, a caption: never headings.
  if (/\p{L}-$/u.test(text) || isCaptionText(text)) return false;
  if (/(?:\.\s?){4,}/.test(text) || DATE_LINE.test(text)) return false;
  if (LABELLED_TERMS.test(text)) return false;
  // An e-mail address: a title page's authors or a letterhead's contact lines, which head nothing.
  if ((text.includes('@') || /\sat\s|\[at\]|\(at\)/iu.test(text)) && EMAIL.test(text)) return false;
  // A sentence ending in a full stop is body text, unless it is set as display type.
  if (/\.$/.test(text) && words > 6 && !(body.size > 0 && candidate.size >= body.size * DISPLAY_BIGGER)) return false;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  return letters >= 0.4 * text.replace(/\s/g, '').length;
}

/** Bigger than the body's type, or bold beside a body that is not, at about its size and in 15 words at most. */
function setAsHeading(candidate: HeadingCandidate, body: BodyStyle, words: number): boolean {
  if (body.size <= 0) return false;
  if (candidate.size >= body.size * BIGGER) return true;
  return candidate.bold && !body.bold && candidate.size >= body.size * 0.95 && words <= 15;
}

/**
 * A list block of one line that is a numbered heading (`1. Canon EOS R6 Mark II`, `a. First Looks`): its marker
 * read as a list's, its line set bigger than the body, as a heading is; a list item at the body's size (bold or
 * not) stays a list item.
 */
export function isNumberedHeadingLine(text: string, size: number, lines: number, body: BodyStyle): boolean {
  const trimmed = text.trim();
  return lines === 1 && body.size > 0 && size >= body.size * BIGGER && (numberingDepth(trimmed) !== undefined || LETTERED.test(trimmed));
}

/** Words the text under a small-type heading needs: a sentence, not a label. */
const SMALL_TYPE_BODY_WORDS = 4;

/**
 * A heading of a part set in smaller type than the body (a sidebar, a box): bold over the plain text right under
 * it, set in that text's size or bigger, as a heading is over the body.
 */
function headsSmallType(candidate: HeadingCandidate, next: HeadingCandidate | undefined, body: BodyStyle): boolean {
  if (!candidate.bold || body.bold || !next || next.bold || next.page !== candidate.page) return false;
  if (candidate.order === undefined || next.order !== candidate.order + 1) return false;
  if (!(next.size < body.size * 0.95) || next.text.trim().split(/\s+/).length < SMALL_TYPE_BODY_WORDS) return false;
  return isHeadingLike(candidate, { size: next.size, bold: false });
}

/** `Chapter 3`, `Part II`, `Section 2`, `제 1 장`, `3.`: a numbering label above a title is a heading of its own. */
const NUMBERING_LABEL = /^(?:(?:chapter|part|section|unit|lesson|module|appendix|annex|book|volume)\b|제\s*\d|\d+(?:\.\d+)*\.?\s|[IVXLC]+\.\s)/iu;

/**
 * A kicker: a short label in smaller type standing first on its page right above a much bigger heading (a
 * slide's or a brochure's section name over the page's own title). It labels the page, not a section of it.
 */
function isKicker(candidate: HeadingCandidate, next: HeadingCandidate | undefined, nextHeadingLike: boolean): boolean {
  if (candidate.order !== 0 || !next || !nextHeadingLike || next.page !== candidate.page || next.order !== 1) return false;
  if (next.size < KICKER_SMALLER * candidate.size) return false;
  return candidate.lines === 1 && !NUMBERING_LABEL.test(candidate.text.trim());
}

/** A chapter or part label alone on its line (`Chapter 3`, `PART II.`), right above the heading it numbers. */
const CHAPTER_LABEL = /^(?:chapter|part|unit|lesson|module|appendix|annex|book|volume)\s+(?:\d{1,3}|[IVXLC]{1,6})\.?$|^제\s*\d+\s*[장편부]$/iu;

function isNumberingLabelAbove(candidate: HeadingCandidate, next: HeadingCandidate): boolean {
  if (candidate.lines !== 1 || next.page !== candidate.page || candidate.order === undefined || next.order !== candidate.order + 1) return false;
  return CHAPTER_LABEL.test(candidate.text.trim());
}

/** The most common value (the smallest on a tie). */
function mostCommon(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best = values[0]!;
  for (const [value, count] of counts) {
    const bestCount = counts.get(best)!;
    if (count > bestCount || (count === bestCount && value < best)) best = value;
  }
  return best;
}

function sizeClass(size: number): number {
  return Math.round(size * 2) / 2;
}

/**
 * The lines right under the title, in regular weight, of a document whose section headings are bold: the title
 * block's authors (`Ada Lovelace*`, `Charles Babbage`), set bigger than the body as a paper's are, but heading
 * nothing. Only a style that no heading after them uses, and not numbered.
 */
function bylines(candidates: readonly HeadingCandidate[], headingLike: readonly boolean[], titleClass: number): number[] {
  const title = candidates.findIndex((candidate, i) => headingLike[i] && sizeClass(candidate.size) === titleClass);
  if (title < 0 || candidates[title]!.order === undefined) return [];
  const found: number[] = [];
  let order = candidates[title]!.order!;
  for (let i = title + 1; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    if (candidate.page !== candidates[title]!.page || candidate.order !== order + 1) break;
    order++;
    // Short lines between them (an affiliation, a date) belong to the title block; a paragraph ends it.
    if (!headingLike[i]) {
      if (candidate.lines > 3) break;
      continue;
    }
    if (candidate.bold || sizeClass(candidate.size) >= titleClass || numberingDepth(candidate.text) !== undefined) break;
    found.push(i);
  }
  if (found.length === 0) return [];
  const last = found[found.length - 1]!;
  const styleOf = (candidate: HeadingCandidate) => `${sizeClass(candidate.size)}|${candidate.bold}`;
  const bylineStyles = new Set(found.map((i) => styleOf(candidates[i]!)));
  const later = candidates.flatMap((candidate, i) => (i > last && headingLike[i] ? [candidate] : []));
  if (!later.some((candidate) => candidate.bold) || later.some((candidate) => bylineStyles.has(styleOf(candidate)))) return [];
  return found;
}

/** Decides heading type and level for each candidate (null: not a heading). `firstPage` is page 1's number. */
/** Heading styles a document's levels can tell apart below its title: levels 2 to MAX_LEVEL. */
const SECTION_LEVELS = MAX_LEVEL - 1;

/**
 * Each heading style's rank (0: the top section level), `ordered` biggest first. Where the document sets its
 * headings in more styles than there are levels (a long booklet: display sizes on its covers and charts beside its
 * sections' four), the levels go to its most used styles in their order, and every other style takes the level of
 * the first of them it is not bigger than, or the top one: a few outsized headings would otherwise push the whole
 * hierarchy to the last level.
 */
function styleRanks(ordered: readonly string[], candidates: readonly HeadingCandidate[], headingLike: readonly boolean[]): Map<string, number> {
  if (ordered.length <= SECTION_LEVELS) return new Map(ordered.map((key, index) => [key, index]));
  const uses = new Map<string, number>();
  candidates.forEach((candidate, i) => {
    if (!headingLike[i]) return;
    const key = `${sizeClass(candidate.size)}|${candidate.bold}`;
    uses.set(key, (uses.get(key) ?? 0) + 1);
  });
  // The most used, the bigger first among equals (`ordered` is biggest first, and the sort is stable).
  const kept = new Set([...ordered].sort((a, b) => (uses.get(b) ?? 0) - (uses.get(a) ?? 0)).slice(0, SECTION_LEVELS));
  const ranks = new Map<string, number>();
  let rank = 0;
  const pending: string[] = [];
  for (const key of ordered) {
    pending.push(key);
    if (!kept.has(key)) continue;
    for (const style of pending) ranks.set(style, rank);
    pending.length = 0;
    rank++;
  }
  // Smaller than every kept style: the last level.
  for (const style of pending) ranks.set(style, SECTION_LEVELS - 1);
  return ranks;
}

/**
 * The title set in the type of the sections' headings (a report generator's: `Annual Report 2025` over `1.
 * Introduction`, both 18 pt bold): the document's first heading, opening page 1, centred, unnumbered and in display
 * type, where every other heading in its size is numbered, or where its words run as the document's header on its
 * pages (a handbook's name over chapters set alike). Its index among the candidates, or -1.
 */
function centredTitle(candidates: readonly HeadingCandidate[], headingLike: readonly boolean[], body: BodyStyle, firstPage: number): number {
  const first = headingLike.indexOf(true);
  const title = candidates[first];
  if (!title || title.page !== firstPage || (title.order ?? 0) > 0 || title.centred !== true) return -1;
  if (title.size < body.size * TITLE_BIGGER || numberingDepth(title.text) !== undefined) return -1;
  if (title.runsAsHeader === true) return first;
  const size = sizeClass(title.size);
  const others = candidates.filter((candidate, i) => i !== first && headingLike[i] && sizeClass(candidate.size) === size);
  return others.length > 0 && others.every((candidate) => numberingDepth(candidate.text) !== undefined) ? first : -1;
}

export function classifyHeadings(
  candidates: readonly HeadingCandidate[],
  body: BodyStyle,
  firstPage = 1,
): (HeadingDecision | null)[] {
  const headingLike = candidates.map((candidate, i) => isHeadingLike(candidate, body) || headsSmallType(candidate, candidates[i + 1], body));
  candidates.forEach((candidate, i) => {
    if (headingLike[i] && isKicker(candidate, candidates[i + 1], headingLike[i + 1] === true)) headingLike[i] = false;
  });
  // A numbering label standing on its own line right above a heading (`CHAPTER 1.` over the chapter's title) is
  // part of that heading's hierarchy even when set at the body's size and weight.
  candidates.forEach((candidate, i) => {
    if (!headingLike[i] && headingLike[i + 1] === true && isNumberingLabelAbove(candidate, candidates[i + 1]!)) headingLike[i] = true;
  });
  const decisions: (HeadingDecision | null)[] = candidates.map(() => null);
  // Title: the largest heading on page 1, set in a size no other heading of the document uses.
  let titleClass: number | undefined;
  let largest = -Infinity;
  // Not a section numbered next to a sibling (`2 Budget` after `1 Introduction`), however big a scan measures it;
  // a title opening with a number (`11 brands to know`) over its `1.`, `2.` stays one.
  const numbered = new Set<string>();
  candidates.forEach((candidate, i) => {
    const place = headingLike[i] ? decimalPlace(candidate.text) : undefined;
    if (place) numbered.add(`${place.siblings}#${place.number}`);
  });
  const isNumberedSibling = (candidate: HeadingCandidate) => {
    const place = decimalPlace(candidate.text);
    return place !== undefined && (numbered.has(`${place.siblings}#${place.number - 1}`) || numbered.has(`${place.siblings}#${place.number + 1}`));
  };
  candidates.forEach((candidate, i) => {
    if (headingLike[i] && candidate.page === firstPage && candidate.size >= body.size * TITLE_BIGGER) {
      largest = Math.max(largest, sizeClass(candidate.size));
    }
  });
  if (Number.isFinite(largest)) {
    const same = candidates.filter((candidate, i) => headingLike[i] && sizeClass(candidate.size) === largest);
    if (same.length <= 2 && same.every((candidate) => candidate.page === firstPage && !isNumberedSibling(candidate))) titleClass = largest;
  }
  const titleAlone = titleClass === undefined ? centredTitle(candidates, headingLike, body, firstPage) : -1;
  if (titleClass !== undefined) for (const index of bylines(candidates, headingLike, titleClass)) headingLike[index] = false;
  const styles = new Map<string, { size: number; bold: boolean }>();
  candidates.forEach((candidate, i) => {
    if (!headingLike[i]) return;
    const size = sizeClass(candidate.size);
    if (size === titleClass) return;
    styles.set(`${size}|${candidate.bold}`, { size, bold: candidate.bold });
  });
  const ranked = [...styles.entries()].sort(
    ([, a], [, b]) => b.size - a.size || Number(b.bold) - Number(a.bold),
  );
  const rankOf = styleRanks(
    ranked.map(([key]) => key),
    candidates,
    headingLike,
  );
  // Numbering says where a heading stands (`4.1` under `4`); a style whose headings are numbered gives its
  // unnumbered ones (`Acknowledgments` set like `1 Introduction`) the same level.
  const depthOf = candidates.map((candidate, i) => (headingLike[i] ? numberingDepth(candidate.text) : undefined));
  const styleDepths = new Map<string, number[]>();
  candidates.forEach((candidate, i) => {
    const depth = depthOf[i];
    if (depth === undefined) return;
    const key = `${sizeClass(candidate.size)}|${candidate.bold}`;
    styleDepths.set(key, [...(styleDepths.get(key) ?? []), depth]);
  });
  const styleLevels = new Map<string, number>();
  const levelOfStyle = (key: string): number => {
    let level = styleLevels.get(key);
    if (level === undefined) {
      const depths = styleDepths.get(key);
      level = depths && depths.length > 0 ? 1 + mostCommon(depths) : 2 + (rankOf.get(key) ?? 0);
      styleLevels.set(key, level);
    }
    return level;
  };
  // Headings set bigger than a numbered one and met before it stand above it, whatever its numbering says: its
  // numbers start again under each of them (`1. Pliers` under `Electrical Tools You Need`, `a. First Looks` under
  // `2. Virtual Production`). Not a label standing over its heading (`CHAPTER 1.` over `CALIFORNIA`): the heading
  // under it is its title. The deepest level of those headings, 0 when there is none.
  // Met so far, in document order: the deepest style level of the headings of each size (a handful of sizes).
  const deepestBySize = new Map<number, number>();
  // The same, of unnumbered headings alone: a numbered heading's depth counts from theirs.
  const unnumberedBySize = new Map<number, number>();
  // Of each size met so far, the sibling place its headings' decimal numbering gives, where all share one (null
  // where they do not): `2.` set smaller than `1.` before it is its sibling all the same, where no other numbering
  // is set in its size. A scan's sizes are its lines' heights, which a line's letters move (`1. Minutes of the
  // meeting` 17 pt, `3. Action items` 14).
  const siblingsBySize = new Map<number, string | null>();
  const levelAbove = (index: number, size: number, bySize = deepestBySize): number => {
    const next = candidates[index + 1];
    if (next && headingLike[index + 1] && isNumberingLabelAbove(candidates[index]!, next)) return 0;
    // Not where its own size is another numbering's style (`3. Lighting` set as the `a. First Looks` before it).
    const siblings = bySize === deepestBySize && siblingsBySize.get(size) !== null ? decimalPlace(candidates[index]!.text)?.siblings : undefined;
    let deepest = 0;
    for (const [other, level] of bySize) {
      if (other > size && (siblings === undefined || siblingsBySize.get(other) !== siblings)) deepest = Math.max(deepest, level);
    }
    return deepest;
  };
  const meet = (candidate: HeadingCandidate, size: number, level: number, numbered: boolean) => {
    if (size === titleClass) return;
    const styleLevel = levelOfStyle(`${size}|${candidate.bold}`);
    deepestBySize.set(size, Math.max(deepestBySize.get(size) ?? 0, styleLevel));
    const siblings = decimalPlace(candidate.text)?.siblings ?? null;
    const met = siblingsBySize.get(size);
    siblingsBySize.set(size, met === undefined || met === siblings ? siblings : null);
    if (!numbered) unnumberedBySize.set(size, Math.max(unnumberedBySize.get(size) ?? 0, level));
  };
  candidates.forEach((candidate, i) => {
    if (!headingLike[i]) return;
    const size = sizeClass(candidate.size);
    if (size === titleClass || i === titleAlone) {
      decisions[i] = { type: 'title', level: 1 };
      return;
    }
    const depth = depthOf[i];
    const key = `${size}|${candidate.bold}`;
    // A style that is numbered, with its unnumbered headings (`Laptop` set like `1. Lower Screen Brightness`).
    const numbered = depth !== undefined || styleDepths.has(key);
    // Under bigger unnumbered headings its numbering counts from their level: `1.` a level below them, `1.1` two.
    const level = numbered
      ? Math.max(depth !== undefined ? 1 + depth : levelOfStyle(key), 1 + levelAbove(i, size), depth !== undefined ? levelAbove(i, size, unnumberedBySize) + depth : 0)
      : levelOfStyle(key);
    decisions[i] = { type: 'section_header', level: Math.min(MAX_LEVEL, level) };
    meet(candidate, size, level, numbered);
  });
  return decisions;
}
