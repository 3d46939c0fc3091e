/**
 * Headings as an untagged PDF's outline (its bookmarks) names them. Word, LibreOffice and LaTeX's hyperref write a
 * bookmark for each heading, nested as the headings are: where the outline's titles are found among the blocks
 * (on the page each bookmark points to), a block found is a heading, however its size and weight read, nested as
 * its bookmark is: at the level the layout gave it where that is deeper than its parent's, else one under its parent
 * (an outline's depths are relative; sizes keep a level a document skips). An outline whose titles are mostly not on
 * its pages (a sheet's name, a scan's page labels) is not the document's headings and is not used. Blocks no
 * bookmark names keep the layout's decision, but for those set as the named ones are: body text. Pure.
 */
import type { HeadingDecision } from './headings.js';
import { canHead } from './tagged-headings.js';
import type { ProtoBlock } from './types.js';

/** One bookmark: its title, its depth in the outline (0 at the top) and the page it points to, when it points to one. */
export interface OutlineEntry {
  title: string;
  depth: number;
  page?: number;
}

/** The most bookmarks either outline reader reads, and how deep it follows them. */
export const MAX_BOOKMARKS = 2_000;
export const MAX_BOOKMARK_DEPTH = 16;

/** A block of the flow, with its page. */
export interface PagedBlock {
  page: number;
  block: ProtoBlock;
}

/** At least this share of the bookmarks with a title must be found for the outline to be the headings'. */
const MOST_FOUND = 0.5;
const DEEPEST = 6;
/** The level of the outline's top where the layout found none of its headings: the layout's first below a title. */
const FIRST_SECTION_LEVEL = 2;
/** A title above the outline's headings is set this much bigger than the biggest of them. */
const TITLE_BIGGER = 1.05;

/** A heading's number or label before its words: `1.2`, `IV.`, `A)`, `Chapter 3`, `제 2 장`. */
const LEADING_NUMBER = /^(?:(?:chapter|section|part|appendix|annex)\s+)?(?:\d+(?:\.\d+)*|[ivxlcdm]+|[a-z])[.):]?\s+(?=\S)|^제\s*\d+\s*[장절편]\s*/iu;

/** The words of a title or a block, compared without case, punctuation, spacing or the heading's number. */
export function titleKey(text: string): string {
  const words = text.normalize('NFKC').trim().replace(LEADING_NUMBER, '');
  return words.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** A block's type: its size to the half point, and its weight. */
function styleKey(block: ProtoBlock): string {
  return `${Math.round(block.size * 2) / 2}${block.bold ? 'b' : ''}`;
}

/**
 * The outline's decision for the blocks it names (each found once, in the outline's order), given the layout's
 * own decisions, and null for the layout's headings set as those it names but not named; undefined when the
 * outline is not the document's headings. A title the layout found above the outline's first heading and named by
 * no bookmark stays the title, the outline's top level then under it.
 */
export function outlineHeadings(
  flow: readonly PagedBlock[],
  outline: readonly OutlineEntry[],
  layout: ReadonlyMap<ProtoBlock, HeadingDecision>,
): Map<ProtoBlock, HeadingDecision | null> | undefined {
  const keyed = outline.map((entry) => ({ entry, key: titleKey(entry.title) })).filter(({ key }) => key.length > 0);
  if (keyed.length === 0) return undefined;
  const candidates = flow.map(({ page, block }, order) => ({ page, block, order, key: canHead(block) ? titleKey(block.text) : '' }));
  const byKey = new Map<string, typeof candidates>();
  for (const candidate of candidates) {
    if (candidate.key.length === 0) continue;
    const same = byKey.get(candidate.key);
    if (same) same.push(candidate);
    else byKey.set(candidate.key, [candidate]);
  }
  const found = new Map<ProtoBlock, { depth: number; order: number }>();
  let after = -1;
  for (const { entry, key } of keyed) {
    const unused = (byKey.get(key) ?? []).filter(({ block }) => !found.has(block));
    // On the page the bookmark points to; else the next one on from the last found (a bookmark set just above its
    // heading, at the foot of the page before).
    const match =
      entry.page !== undefined
        ? (unused.find(({ page }) => page === entry.page) ?? unused.find(({ page }) => page === entry.page! + 1))
        : (unused.find(({ order }) => order > after) ?? unused[0]);
    if (!match) continue;
    found.set(match.block, { depth: entry.depth, order: match.order });
    after = match.order;
  }
  if (found.size === 0 || found.size < MOST_FOUND * keyed.length) return undefined;

  const decisions = new Map<ProtoBlock, HeadingDecision | null>();
  // The outline names every heading of the styles it names: a line set so that it does not name is body text.
  const namedStyles = new Set([...found.keys()].map(styleKey));
  for (const [block, decision] of layout) {
    if (decision.type === 'section_header' && !found.has(block) && namedStyles.has(styleKey(block))) decisions.set(block, null);
  }
  const title = titleAbove(candidates, found, layout);
  if (title) decisions.set(title, { type: 'title', level: 1 });
  const top = title ? FIRST_SECTION_LEVEL : topLevel(found, layout);
  // Each level as the layout has it (sizes keep a level a document skips) where it is deeper than the bookmark's
  // parent's, else one under the parent, or the top's; a title the layout levelled as a section lifts the layout's
  // levels under it as it is lifted.
  const lifted = title ? layout.get(title)!.level - 1 : 0;
  const levels: number[] = [];
  for (const [block, { depth }] of found) {
    const parent = depth === 0 ? (title ? 1 : 0) : (levels[Math.min(depth, levels.length) - 1] ?? 0);
    const layoutLevel = layout.get(block)?.level;
    const own = layoutLevel === undefined ? undefined : layoutLevel - lifted;
    const level = Math.min(DEEPEST, own !== undefined && own > parent ? own : depth === 0 ? Math.max(top, parent + 1) : parent + 1);
    levels.length = Math.min(levels.length, depth);
    levels[depth] = level;
    decisions.set(block, layout.get(block)?.type === 'title' && level === 1 ? { type: 'title', level: 1 } : { type: 'section_header', level });
  }
  return decisions;
}

/**
 * The document's title where no bookmark names it: a heading of the layout's before the first heading found, the
 * document's first block or set bigger than any heading the outline names (a paper's title above its numbered
 * sections).
 */
function titleAbove(
  candidates: readonly { block: ProtoBlock; order: number }[],
  found: ReadonlyMap<ProtoBlock, { order: number }>,
  layout: ReadonlyMap<ProtoBlock, HeadingDecision>,
): ProtoBlock | undefined {
  let firstFound = Infinity;
  let biggest = 0;
  for (const [block, { order }] of found) {
    firstFound = Math.min(firstFound, order);
    biggest = Math.max(biggest, block.size);
  }
  return candidates.find(
    ({ block, order }) => order < firstFound && layout.has(block) && !found.has(block) && (order === 0 || block.size > TITLE_BIGGER * biggest),
  )?.block;
}

/**
 * The heading level of the outline's top: where the layout found most of the headings it names, as the layout
 * levels them (an outline's depths are relative: a document whose headings start at Heading 2 has them at its top).
 */
function topLevel(found: ReadonlyMap<ProtoBlock, { depth: number }>, layout: ReadonlyMap<ProtoBlock, HeadingDecision>): number {
  const votes = new Map<number, number>();
  for (const [block, { depth }] of found) {
    const decision = layout.get(block);
    if (decision) votes.set(decision.level - depth, (votes.get(decision.level - depth) ?? 0) + 1);
  }
  let best = FIRST_SECTION_LEVEL;
  let most = 0;
  for (const [top, count] of votes) {
    if (count > most || (count === most && top < best)) {
      best = top;
      most = count;
    }
  }
  return best;
}
