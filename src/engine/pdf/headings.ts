/**
 * Headings from font size and weight, decided over the whole document. The body size is the most common size
 * by character count; short blocks set bigger than the body, or bold when the body is not, are headings. The
 * largest heading on page 1 is the title (`#`) when no other heading shares its size; the other heading styles
 * are ranked by size (then bold first) into `##`, `###`, `####`.
 */

/** Font size histogram by characters. */
export type SizeHistogram = Map<number, number>;

export function addToHistogram(histogram: SizeHistogram, size: number, chars: number): void {
  const key = Math.round(size * 2) / 2;
  histogram.set(key, (histogram.get(key) ?? 0) + chars);
}

export function mergeHistograms(into: SizeHistogram, from: SizeHistogram): void {
  for (const [size, chars] of from) into.set(size, (into.get(size) ?? 0) + chars);
}

/** The most common size by characters (the smaller on a tie); 0 when there is no text. */
export function bodySizeOf(histogram: SizeHistogram): number {
  let best = 0;
  let bestChars = -1;
  for (const [size, chars] of histogram) {
    if (chars > bestChars || (chars === bestChars && size < best)) {
      best = size;
      bestChars = chars;
    }
  }
  return best;
}

export interface HeadingCandidate {
  page: number;
  text: string;
  size: number;
  bold: boolean;
  lines: number;
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
const MAX_LEVEL = 4;

/** Could this block be a heading at all, given the body style? */
export function isHeadingLike(candidate: HeadingCandidate, body: BodyStyle): boolean {
  const text = candidate.text.trim();
  if (!text || candidate.lines > 3 || text.length > 200) return false;
  const words = text.split(/\s+/).length;
  if (words > 25) return false;
  if (!/\p{L}/u.test(text)) return false;
  if (/^\p{Ll}/u.test(text)) return false;
  if (/[,;]$/.test(text)) return false;
  if (/(?:\.\s?){4,}/.test(text)) return false;
  if (/\.$/.test(text) && words > 6) return false;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters < 0.4 * text.replace(/\s/g, '').length) return false;
  if (body.size <= 0) return false;
  if (candidate.size >= body.size * BIGGER) return true;
  return candidate.bold && !body.bold && candidate.size >= body.size * 0.95 && words <= 15;
}

function sizeClass(size: number): number {
  return Math.round(size * 2) / 2;
}

/** Decides heading type and level for each candidate (null: not a heading). `firstPage` is page 1's number. */
export function classifyHeadings(
  candidates: readonly HeadingCandidate[],
  body: BodyStyle,
  firstPage = 1,
): (HeadingDecision | null)[] {
  const headingLike = candidates.map((candidate) => isHeadingLike(candidate, body));
  const decisions: (HeadingDecision | null)[] = candidates.map(() => null);
  // Title: the largest heading on page 1, set in a size no other heading of the document uses.
  let titleClass: number | undefined;
  let largest = -Infinity;
  candidates.forEach((candidate, i) => {
    if (headingLike[i] && candidate.page === firstPage && candidate.size >= body.size * TITLE_BIGGER) {
      largest = Math.max(largest, sizeClass(candidate.size));
    }
  });
  if (Number.isFinite(largest)) {
    const same = candidates.filter((candidate, i) => headingLike[i] && sizeClass(candidate.size) === largest);
    if (same.length <= 2 && same.every((candidate) => candidate.page === firstPage)) titleClass = largest;
  }
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
  const rankOf = new Map(ranked.map(([key], index) => [key, index]));
  candidates.forEach((candidate, i) => {
    if (!headingLike[i]) return;
    const size = sizeClass(candidate.size);
    if (size === titleClass) {
      decisions[i] = { type: 'title', level: 1 };
      return;
    }
    const rank = rankOf.get(`${size}|${candidate.bold}`) ?? 0;
    decisions[i] = { type: 'section_header', level: Math.min(MAX_LEVEL, 2 + rank) };
  });
  return decisions;
}
