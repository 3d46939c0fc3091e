/**
 * Headings made by hand, told apart from the body the way a reader sees them, for any format that writes its
 * paragraphs' type (Word, OpenDocument). Many documents never use a heading style: their writer set a short line in
 * bold, or larger, on a line of its own. Such a paragraph is a heading when it is short, ends in no sentence
 * punctuation, is set wholly in bold or in a type larger than the body's, and is followed by a paragraph set
 * otherwise: a section's text, or the heading of a section below it (a bold label over a short value, as a form sets
 * it, is none; nor is a look most of whose lines are such labels). Its level comes from its type: the largest such
 * type is level 1, the next level 2, bold at the body's size the last. A document half of whose paragraphs would
 * qualify (a poster, a list of names in bold) is left as it is. Pure.
 */

/** A body paragraph as a reader sees it. */
export interface ParagraphLook {
  /** Its text, white space collapsed. */
  text: string;
  /** The look of its text (`size|bold`) where every run agrees; null where they differ or it holds an object. */
  look: string | null;
  /** The type size (any unit, one for the document) and weight of that look. */
  size: number;
  bold: boolean;
  /** An item of a list: never a heading here. */
  listed: boolean;
}

/** A heading is at most this long. */
const MAX_WORDS = 15;
const MAX_CHARACTERS = 120;
/** A type this much larger than the body's sets a line apart without bold. */
const LARGER = 1.15;
/** Past this share of the body's paragraphs, bold or large lines are the document's way of writing, not headings. */
const MAX_HEADING_SHARE = 0.5;
/** A body needs a paragraph this long to have text that headings head. */
const MIN_BODY_WORDS = 8;
/** The text under a heading, before the next, holds at least this many words. */
const MIN_SECTION_WORDS = 5;

/**
 * The paragraphs that are headings made by hand, by their index in `paragraphs`, with their levels: from `firstLevel`
 * (2 under a title its document styled as one) to 6.
 */
export function handMadeHeadingLevels(paragraphs: readonly ParagraphLook[], defaultSize: number, firstLevel = 1): Map<number, number> {
  const levels = new Map<number, number>();
  const filled = paragraphs.map((paragraph, index) => ({ paragraph, index })).filter(({ paragraph }) => paragraph.text !== '');
  if (!filled.some(({ paragraph }) => countWords(paragraph.text) >= MIN_BODY_WORDS)) return levels;
  const bodySize = mostWrittenSize(filled.map(({ paragraph }) => paragraph), defaultSize);
  const apart = new Set(
    filled
      .filter(({ paragraph }, at) => {
        const next = filled[at + 1];
        return standsApart(paragraph, bodySize) && next !== undefined && next.paragraph.look !== paragraph.look;
      })
      .map(({ index }) => index),
  );
  const heading = filled.filter(({ index }, at) => {
    if (!apart.has(index)) return false;
    if (apart.has(filled[at + 1]?.index ?? -1)) return true;
    let words = 0;
    for (let next = at + 1; next < filled.length && !apart.has(filled[next]!.index); next++) words += countWords(filled[next]!.paragraph.text);
    return words >= MIN_SECTION_WORDS;
  });
  const headingLooks = countLooks(heading.map(({ paragraph }) => paragraph));
  const apartLooks = countLooks([...apart].map((index) => paragraphs[index]!));
  const candidates = heading.filter(({ paragraph }) => 2 * (headingLooks.get(paragraph.look) ?? 0) >= (apartLooks.get(paragraph.look) ?? 0));
  if (candidates.length === 0 || candidates.length > MAX_HEADING_SHARE * filled.length) return levels;
  const looks = [...new Set(candidates.map(({ paragraph }) => paragraph.look as string))].sort(byProminence);
  for (const { paragraph, index } of candidates) levels.set(index, Math.min(looks.indexOf(paragraph.look as string) + firstLevel, 6));
  return levels;
}

/** Whether a paragraph is set apart as a heading is: short, unpunctuated, bold throughout or larger than the body. */
function standsApart(paragraph: ParagraphLook, bodySize: number): boolean {
  if (paragraph.look === null || paragraph.listed) return false;
  const text = paragraph.text;
  if (text.length > MAX_CHARACTERS || countWords(text) > MAX_WORDS || /[.!?;:,]$/.test(text)) return false;
  if (!/\p{L}/u.test(text)) return false;
  return paragraph.bold ? paragraph.size >= bodySize : paragraph.size >= LARGER * bodySize;
}

function countLooks(paragraphs: Iterable<ParagraphLook>): Map<string | null, number> {
  const counts = new Map<string | null, number>();
  for (const paragraph of paragraphs) counts.set(paragraph.look, (counts.get(paragraph.look) ?? 0) + 1);
  return counts;
}

/** Larger type first; at one size, bold first. */
function byProminence(a: string, b: string): number {
  const [sizeA = 0, boldA] = a.split('|');
  const [sizeB = 0, boldB] = b.split('|');
  return Number(sizeB) - Number(sizeA) || (boldA === boldB ? 0 : boldA === 'true' ? -1 : 1);
}

/** The size most of the body's text is set in, weighed by its length. */
function mostWrittenSize(paragraphs: readonly ParagraphLook[], defaultSize: number): number {
  const lengths = new Map<number, number>();
  for (const paragraph of paragraphs) lengths.set(paragraph.size, (lengths.get(paragraph.size) ?? 0) + paragraph.text.length);
  let best = defaultSize;
  let most = 0;
  for (const [size, length] of lengths) {
    if (length > most) {
      best = size;
      most = length;
    }
  }
  return best;
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((part) => part !== '').length;
}
