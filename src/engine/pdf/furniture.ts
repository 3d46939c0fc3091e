/**
 * Page furniture: running headers, footers and page numbers. On each page, the few isolated lines at the very
 * top and bottom are candidates; across the document, a candidate whose text (digits ignored) recurs in the
 * same zone on at least two pages is a header or footer, and one that is just a page number is a page number.
 */
import { listMarker } from './paragraphs.js';
import type { TextLine } from './types.js';

export type FurnitureType = 'page_header' | 'page_footer' | 'page_number';

export interface ZoneLines {
  top: TextLine[];
  bottom: TextLine[];
  body: TextLine[];
}

export interface ZoneOptions {
  /** Share of the page height at the top and bottom that counts as the margin zone. */
  zoneShare?: number;
  /** An isolated first/last line this close to the edge also counts (big margins). */
  isolatedShare?: number;
  /** At most this many lines per zone. */
  maxLines?: number;
  /**
   * The page's body stands elsewhere too (its tables, taken out of these lines): every line may be a candidate,
   * where otherwise one line is always left to the body.
   */
  bodyElsewhere?: boolean;
}

const MAX_CANDIDATE_CHARS = 160;
const HAS_LETTER = /\p{L}/u;

/** A line that wraps into the next holds at least this many words: a running line is a name or a title, short. */
const WRAPPED_WORDS = 6;

/**
 * Whether `lower` goes on from `upper` as the text of one paragraph or list does: the last two lines of a
 * paragraph at a page's foot (a sentence broken at the line's end, the next line opening in lower case) or two
 * items of one list (both open with a bullet, or with numbers one after the other). Such lines are the body's,
 * not a running header or footer of two lines, which the document would otherwise read one line a block.
 */
function readsOn(upper: TextLine, lower: TextLine): boolean {
  if (Math.abs(upper.size - lower.size) > 0.1 * Math.max(upper.size, lower.size)) return false;
  const above = listMarker(upper.text);
  const below = listMarker(lower.text);
  if (above && below) return above.ordered === below.ordered && (!above.ordered || above.number === undefined || below.number === (above.number ?? 0) + 1);
  const text = upper.text.trim();
  return text.split(/\s+/).length >= WRAPPED_WORDS && !/[.!?:;)]$/.test(text) && /^\p{Ll}/u.test(lower.text.trim());
}

/** How far apart (a share of the gap) two gaps between lines may be and still be one leading. */
const SAME_LEADING = 0.2;

/** `upper` reads on into `lower` as the body's lines do: `lower` continues its sentence, `leading` apart. */
function inBodyLeading(upper: TextLine, lower: TextLine | undefined, leading: number): boolean {
  if (!lower || !readsOn(upper, lower)) return false;
  const gap = lower.top - upper.bottom;
  return Math.abs(gap - leading) <= SAME_LEADING * Math.max(gap, leading);
}

/** The page's usual gap between a line and the next (lines sorted top to bottom). */
function usualGap(sorted: readonly TextLine[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const gap = sorted[i]!.top - sorted[i - 1]!.bottom;
    if (gap > 0) gaps.push(gap);
  }
  gaps.sort((a, b) => a - b);
  return gaps.length > 0 ? gaps[Math.floor(gaps.length / 2)]! : 0;
}

/** Takes the isolated top and bottom lines of a page (lines sorted top to bottom) apart from the body. */
export function splitZones(lines: readonly TextLine[], pageHeight: number, options: ZoneOptions = {}): ZoneLines {
  const zoneShare = options.zoneShare ?? 0.12;
  const isolatedShare = options.isolatedShare ?? 0.2;
  const maxLines = options.maxLines ?? 2;
  const leftToBody = options.bodyElsewhere ? 0 : 1;
  const sorted = [...lines].sort((a, b) => a.top - b.top);
  let usual: number | undefined;
  const leading = () => (usual ??= usualGap(sorted));
  const isolatedBelow = (i: number) => {
    const line = sorted[i]!;
    const next = sorted[i + 1];
    return !next || next.top - line.bottom >= 0.6 * Math.max(line.size, next.size);
  };
  const isolatedAbove = (i: number) => {
    const line = sorted[i]!;
    const prev = sorted[i - 1];
    return !prev || line.top - prev.bottom >= 0.6 * Math.max(line.size, prev.size);
  };
  let topCount = 0;
  for (let i = 0; i < Math.min(maxLines, sorted.length - leftToBody); i++) {
    const line = sorted[i]!;
    if (line.chars > MAX_CANDIDATE_CHARS) break;
    const inZone = line.bottom <= zoneShare * pageHeight || (i === 0 && line.bottom <= isolatedShare * pageHeight);
    if (!inZone || (i > 0 && readsOn(sorted[i - 1]!, line))) break;
    // A line whose sentence goes on in the next, as far from it as the page's lines usually are from one another,
    // is the body's (double-spaced text); a running head stands further off the body than its lines do.
    if (inBodyLeading(line, sorted[i + 1], leading())) break;
    if (isolatedBelow(i)) topCount = i + 1;
  }
  let bottomCount = 0;
  for (let k = 0; k < Math.min(maxLines, sorted.length - leftToBody - topCount); k++) {
    const i = sorted.length - 1 - k;
    const line = sorted[i]!;
    if (line.chars > MAX_CANDIDATE_CHARS) break;
    const inZone = line.top >= (1 - zoneShare) * pageHeight || (k === 0 && line.top >= (1 - isolatedShare) * pageHeight);
    if (!inZone || (k > 0 && readsOn(line, sorted[i + 1]!))) break;
    if (i > 0 && inBodyLeading(sorted[i - 1]!, line, leading())) break;
    if (isolatedAbove(i)) bottomCount = k + 1;
  }
  return {
    top: sorted.slice(0, topCount),
    bottom: sorted.slice(sorted.length - bottomCount),
    body: sorted.slice(topCount, sorted.length - bottomCount),
  };
}

/**
 * The text of a candidate with digits, case and spaces ignored, so "Page 3" and "Page 4" match, and so do two
 * readings of one header that space its letters differently.
 */
export function furnitureKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\d+/g, '#')
    .replace(/\b[ivxlc]+\b/g, '#')
    .replace(/\s+/g, '');
}

const PAGE_NUMBER = [
  /^\d{1,4}$/,
  /^(?:page|p\.|pg\.?|seite|página|pagina|страница|페이지)\s*\d{1,4}(?:\s*(?:of|\/|von|de|из)\s*\d{1,4})?$/i,
  /^\d{1,4}\s*(?:\/|of)\s*\d{1,4}$/i,
  /^[-–—]\s*\d{1,4}\s*[-–—]$/,
  /^[([]\s*\d{1,4}\s*[)\]]$/,
  /^[ivxlcdm]{1,7}$/i,
];

export function isPageNumberText(text: string): boolean {
  const trimmed = text.trim();
  return PAGE_NUMBER.some((pattern) => pattern.test(trimmed));
}

/**
 * A footnote: its number set apart, then a sentence (a running head is a title, not a sentence): one that ends on
 * the line, or one that ends a sentence within it and runs on to the next line (a word broken at the line end).
 */
function isFootnoteText(text: string): boolean {
  const trimmed = text.trim();
  if (!/^\d{1,3}\s+\S/.test(trimmed) || trimmed.split(/\s+/).length < 6) return false;
  return /[.!?)]$/.test(trimmed) || (/\p{L}-$/u.test(trimmed) && /[.!?]\s/.test(trimmed));
}

export interface FurnitureCandidate {
  page: number;
  zone: 'top' | 'bottom';
  text: string;
  /** A number stands alone as the line's first or last cell: a running head's page number set apart. */
  numberApart: boolean;
  /** Its cells set apart (one, the whole line, where it has no gaps), with their left edges. */
  cells?: readonly { text: string; x0: number }[];
}

/** How far (pt) a running head's part may stand from where it stands on another page. */
const SAME_PLACE = 2;
/** A running head's part that names the document holds this many letters at least. */
const MIN_PART_LETTERS = 4;
/** A running head is two or three parts: the document's name, a chapter's, a page number. */
const MAX_PARTS = 3;

/**
 * Whether the candidate is a running head of parts set apart, one of which (the document's name) recurs at its
 * place in the zone on another page, while another part changes (the chapter's name): "Feasibility Study …
 * Chapter 3: The costs" under pages headed "Feasibility Study … Chapter 2: The building". Every part has letters
 * or is a page number: a table's last row with a repeated label and its figures is no running head.
 */
function hasRecurringPart(candidate: FurnitureCandidate, partsAt: ReadonlyMap<string, readonly { page: number; x0: number }[]>): boolean {
  const parts = candidate.cells ?? [];
  if (parts.length < 2 || parts.length > MAX_PARTS || !parts.every((part) => HAS_LETTER.test(part.text) || isPageNumberText(part.text))) return false;
  return parts.some((part) => {
    if ((part.text.match(/\p{L}/gu)?.length ?? 0) < MIN_PART_LETTERS) return false;
    const places = partsAt.get(`${candidate.zone}|${furnitureKey(part.text)}`) ?? [];
    return places.some((place) => place.page !== candidate.page && Math.abs(place.x0 - part.x0) <= SAME_PLACE);
  });
}

/** Where each candidate's parts stand, by zone and text (furnitureKey): the pages and left edges. */
function partPlaces(candidates: readonly FurnitureCandidate[]): Map<string, { page: number; x0: number }[]> {
  const places = new Map<string, { page: number; x0: number }[]>();
  for (const candidate of candidates) {
    for (const cell of candidate.cells ?? []) {
      const key = `${candidate.zone}|${furnitureKey(cell.text)}`;
      let list = places.get(key);
      if (!list) places.set(key, (list = []));
      list.push({ page: candidate.page, x0: cell.x0 });
    }
  }
  return places;
}

/**
 * Decides, for every candidate, whether it is furniture. A candidate repeated (digits ignored) in the same zone
 * on two pages or more is a header/footer; a bare page number is a page number; a line whose first or last cell
 * is a number alone (a running head with its page number) is a header or footer even on a single page.
 */
export function classifyFurniture(candidates: readonly FurnitureCandidate[]): (FurnitureType | null)[] {
  const pagesByKey = new Map<string, Set<number>>();
  for (const candidate of candidates) {
    const key = `${candidate.zone}|${furnitureKey(candidate.text)}`;
    let pages = pagesByKey.get(key);
    if (!pages) pagesByKey.set(key, (pages = new Set()));
    pages.add(candidate.page);
  }
  let partsAt: Map<string, { page: number; x0: number }[]> | undefined;
  return candidates.map((candidate) => {
    if (isPageNumberText(candidate.text)) return 'page_number';
    const key = `${candidate.zone}|${furnitureKey(candidate.text)}`;
    const repeated = (pagesByKey.get(key)?.size ?? 0) >= 2;
    if (repeated && /\p{L}|\p{N}/u.test(candidate.text)) return candidate.zone === 'top' ? 'page_header' : 'page_footer';
    // The number must be a cell of its own: a line that merely ends in one ("… Exchange Act of 1934") is no running
    // head, and there must be a head to run: a line of numbers alone (a table's years over its columns) is none.
    const runningHead = candidate.numberApart && HAS_LETTER.test(candidate.text) && !isFootnoteText(candidate.text);
    if (runningHead || hasRecurringPart(candidate, (partsAt ??= partPlaces(candidates)))) return candidate.zone === 'top' ? 'page_header' : 'page_footer';
    return null;
  });
}

/** Where a running header or footer found in a margin zone stands on its page. */
export interface RunningLine {
  type: 'page_header' | 'page_footer';
  /** furnitureKey of its text. */
  key: string;
  /** Its top, in page units. */
  top: number;
}

/** How far (pt) from a running line's height another page's line may stand and still be that line. */
const RUNNING_LINE_TOLERANCE = 2;

/**
 * The running header or footer that a one-line block of the body is, when it is one found on other pages: the same
 * text (digits, case and spaces ignored) at the same height. Such a line was set too close to the text beside it
 * to be taken apart by the margin zones: a browser's printed header right above the page's first line, on the
 * pages whose text starts at the top. Null when it is none.
 */
export function runningLineOf(text: string, top: number, known: readonly RunningLine[]): RunningLine['type'] | null {
  if (known.length === 0 || text.length > MAX_CANDIDATE_CHARS) return null;
  const key = furnitureKey(text);
  const match = known.find((line) => line.key === key && Math.abs(line.top - top) <= RUNNING_LINE_TOLERANCE);
  return match?.type ?? null;
}
