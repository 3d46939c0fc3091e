/**
 * LiteParse's words mended where the content stream says where the glyphs stand (../char-spaced-runs.ts): parted
 * where their gap is set as character spacing (`with -l,print` reads `with -l, print`, as pdfjs and poppler read
 * it), joined where a space is drawn with its width taken back (`--rev erse` reads `--reverse`). Each run is matched
 * to the item whose box holds its start, on its baseline, and to the place in the item's text where its glyphs are
 * written nearest to where it starts; a run not found so, or a cut that would part all of one word, changes
 * nothing. The item's text gets or loses the space, its word boxes are cut or joined, and its glyph codes (where they
 * reach that far) follow: a code 0 for a space added, as PDFium writes for one it adds. LiteParse's tables have their
 * cells' text from the same glyphs: a word mended inside one is mended in its cell too.
 */
import { escapeRegExp } from '../../../common/escape-regexp.js';
import type { CharSpacedRun } from '../char-spaced-runs.js';
import type { FoundTable } from '../types.js';
import type { NativeTextItem } from './page-items.js';

type WordBox = NonNullable<NativeTextItem['words']>[number];

/** How far (ems of the run's type) a run's start may stand outside its item's box, or from where its text is. */
const REACH_EM = 0.3;

/** The words of an item with where each stands in its text (-1: not found there). */
function wordStarts(item: NativeTextItem): number[] {
  let at = 0;
  return item.words!.map((word) => {
    const text = word.text.trim();
    const found = text === '' ? -1 : item.text.indexOf(text, at);
    if (found >= 0) at = found + text.length;
    return found;
  });
}

/** The word of `item` holding text unit `unit`, or -1. */
function wordAtUnit(item: NativeTextItem, starts: readonly number[], unit: number): number {
  return starts.findIndex((start, i) => start >= 0 && unit >= start && unit < start + item.words![i]!.text.trim().length);
}

interface Place {
  item: NativeTextItem;
  starts: number[];
  /** Where the run's glyphs start in the item's text. */
  at: number;
}

/** The item and the place in its text where the run is written. */
function placeOf(items: readonly NativeTextItem[], run: CharSpacedRun): Place | undefined {
  const reach = REACH_EM * run.size;
  let best: (Place & { off: number }) | undefined;
  for (const item of items) {
    if ((item.rotation ?? 0) % 360 !== 0 || !item.words || item.words.length === 0) continue;
    if (run.x < item.x - reach || run.x > item.x + item.width + reach || run.y < item.y - reach || run.y > item.y + item.height + reach) continue;
    if (!item.text.includes(run.text)) continue;
    const starts = wordStarts(item);
    for (let at = item.text.indexOf(run.text); at >= 0; at = item.text.indexOf(run.text, at + 1)) {
      const index = wordAtUnit(item, starts, at);
      if (index < 0) continue;
      const word = item.words[index]!;
      const length = word.text.trim().length;
      const perChar = word.width / Math.max(1, length);
      const off = Math.abs(word.x + (at - starts[index]!) * perChar - run.x);
      if (off <= reach + perChar && (!best || off < best.off)) best = { item, starts, at, off };
    }
  }
  return best;
}

/** A word's box cut at `cut` (a unit of its text): the part before, and the part after set `gap` further on. */
function cutBox(word: WordBox, cut: number, gap: number): [WordBox, WordBox] {
  const text = word.text.trim();
  const right = Math.min(word.x + word.width, word.x + (cut / text.length) * word.width);
  const next = Math.min(word.x + word.width, right + gap);
  return [
    { ...word, text: text.slice(0, cut), width: Math.max(0, right - word.x) },
    { ...word, text: text.slice(cut), x: next, width: Math.max(0, word.x + word.width - next) },
  ];
}

function joinBoxes(first: WordBox, second: WordBox): WordBox {
  const x = Math.min(first.x, second.x);
  const y = Math.min(first.y, second.y);
  const right = Math.max(first.x + first.width, second.x + second.width);
  const bottom = Math.max(first.y + first.height, second.y + second.height);
  return { ...first, text: first.text.trim() + second.text.trim(), x, y, width: right - x, height: bottom - y };
}

/** One change to an item's text: a space added before unit `unit`, or the space at `unit` taken out. */
type Edit = { unit: number; kind: 'part' | 'join' };

/** Makes the edits on the item (from the last back, so that each leaves the earlier places where they were); the words changed. */
function editItem(item: NativeTextItem, starts: readonly number[], edits: readonly Edit[], gap: number): MendedWord[] {
  let text = item.text;
  const codes = item.charCodes ? [...item.charCodes] : undefined;
  const words = [...item.words!];
  const changed: MendedWord[] = [];
  for (const { unit, kind } of [...edits].sort((a, b) => b.unit - a.unit)) {
    if (kind === 'part') {
      const index = wordAtUnit(item, starts, unit);
      if (index < 0 || unit === starts[index]) continue;
      const word = words[index]!;
      const parts = cutBox(word, unit - starts[index]!, gap);
      words.splice(index, 1, ...parts);
      text = `${text.slice(0, unit)} ${text.slice(unit)}`;
      if (codes && codes.length > unit) codes.splice(unit, 0, 0);
      changed.push({ box: word, from: word.text.trim(), to: `${parts[0].text} ${parts[1].text}` });
    } else {
      const index = wordAtUnit(item, starts, unit - 1);
      const next = index + 1;
      if (index < 0 || next >= words.length || starts[next] !== unit + 1 || text[unit] !== ' ') continue;
      if (starts[index]! + words[index]!.text.trim().length !== unit) continue;
      const joined = joinBoxes(words[index]!, words[next]!);
      changed.push({ box: joined, from: `${words[index]!.text.trim()} ${words[next]!.text.trim()}`, to: joined.text });
      words.splice(index, 2, joined);
      text = text.slice(0, unit) + text.slice(unit + 1);
      if (codes && codes.length > unit) codes.splice(unit, 1);
    }
  }
  item.text = text;
  if (codes) item.charCodes = codes;
  item.words = words;
  return changed;
}

/**
 * A word with punctuation run into a letter (`-l,print`, `by,and`, `(-U)disables`, `directory.However`): the sign
 * that a page may have words run together so, and that its content stream is worth reading. On the PDF benchmark's
 * dev half 5 pages of 99 have one (`(G1),the`, a footnote's `1)M`), on a groff man page every page but a few.
 */
const RUN_TOGETHER = /[,;:)][A-Za-z(]|[a-z]\.[A-Z][a-z]/;

/** The numbers of the pages with a word that looks run together. */
export function pagesWithRunTogetherWords(pages: readonly { pageNum: number; textItems: readonly NativeTextItem[] }[]): Set<number> {
  const numbers = new Set<number>();
  for (const page of pages) {
    if (page.textItems.some((item) => item.words?.some((word) => RUN_TOGETHER.test(word.text)))) numbers.add(page.pageNum);
  }
  return numbers;
}

/** A word mended: where it stands (LiteParse's view), its text before and after. */
export interface MendedWord {
  box: WordBox;
  from: string;
  to: string;
}

/**
 * Mends the words of each page (by page number) at the runs found for it, in place; the words mended, by page
 * number, for the tables LiteParse made of them (`mendCellWords`).
 */
export function mendCharSpacedWords(pages: readonly { pageNum: number; textItems: readonly NativeTextItem[] }[], runs: ReadonlyMap<number, readonly CharSpacedRun[]>): Map<number, MendedWord[]> {
  const mended = new Map<number, MendedWord[]>();
  if (runs.size === 0) return mended;
  for (const page of pages) {
    const edits = new Map<NativeTextItem, { starts: number[]; edits: Edit[]; gap: number }>();
    for (const run of runs.get(page.pageNum) ?? []) {
      const place = placeOf(page.textItems, run);
      if (!place) continue;
      const { item, starts, at } = place;
      // A run that is all of its word (two letters set apart, `O F`) parts nothing: it is one word.
      const index = wordAtUnit(item, starts, at);
      const wordEnd = starts[index]! + item.words![index]!.text.trim().length;
      const wholeWord = starts[index] === at && wordEnd <= at + run.text.length;
      let entry = edits.get(item);
      if (!entry) edits.set(item, (entry = { starts, edits: [], gap: run.gap }));
      if (!wholeWord) for (const after of run.partsAfter) entry.edits.push({ unit: at + after + 1, kind: 'part' });
      for (const space of run.joinsAt) entry.edits.push({ unit: at + space, kind: 'join' });
    }
    const changed: MendedWord[] = [];
    for (const [item, entry] of edits) changed.push(...editItem(item, entry.starts, entry.edits, entry.gap));
    if (changed.length > 0) mended.set(page.pageNum, changed);
  }
  return mended;
}

/** The tables with each word mended on their page mended in the cell that holds it (the first cell whose text has it). */
export function mendCellWords(tables: FoundTable[], mended: readonly MendedWord[] | undefined): FoundTable[] {
  if (!mended || tables.length === 0) return tables;
  for (const { box, from, to } of mended) {
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    const table = tables.find(({ rect }) => x >= rect.x0 && x <= rect.x1 && y >= rect.y0 && y <= rect.y1);
    if (!table) continue;
    const word = new RegExp(`(^|\\s)${escapeRegExp(from)}(?=\\s|$)`);
    for (const row of table.rows) {
      const cell = row.findIndex((text) => word.test(text));
      if (cell < 0) continue;
      row[cell] = row[cell]!.replace(word, (_, lead: string) => `${lead}${to}`);
      break;
    }
  }
  return tables;
}
