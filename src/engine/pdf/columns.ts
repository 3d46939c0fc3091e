/**
 * Column detection and reading order. A gutter is an x-range, inside the text's horizontal extent, that text
 * covers for only a small part of the page height (titles and full-width figures may cross it). Lines that
 * cross a gutter are "spanning": they cut the page into horizontal bands, and within each band the columns are
 * read one after the other (right to left on right-to-left pages). A band whose columns do not look like prose
 * (short cells: a table whose column gap happens to line up with the gutter) is read as one full-width region.
 */
import { isTableCaptionText } from './captions.js';
import { append, type Cell, type PdfTextItem, type TextLine } from './types.js';
import { median } from './measure.js';
import { countWords } from './white-space.js';
import { holdsInterleavedStreams } from './interleaved-streams.js';
import { withoutTableChannels } from './table-channels.js';

export interface Gutter {
  x0: number;
  x1: number;
}

export interface GutterOptions {
  /** Coverage (line height summed over lines crossing an x) below this share of the peak is "empty". */
  emptyShare?: number;
  /** Narrowest gutter, in ems of the median font size. */
  minWidthEm?: number;
  /** Each side of a gutter must hold at least this share of the text area. */
  minSideShare?: number;
}

/** An empty channel this wide (in ems) sets apart a sidebar holding as little as SIDEBAR_SHARE of the text. */
const SIDEBAR_GAP_EM = 3;
const SIDEBAR_SHARE = 0.04;

/**
 * Coverage under this is none: it is summed from lines' heights added where their cells start and taken away where
 * they end, which leaves a rounding residue (1e-14) where no cell is.
 */
const EMPTY_COVERAGE = 1e-6;

/** Lines of words (two or more with letters) each side of a sidebar's channel needs: not a column of numbers. */
const SIDEBAR_WORDY_LINES = 3;

function wordyOnBothSides(lines: readonly TextLine[], x0: number, x1: number): boolean {
  let left = 0;
  let right = 0;
  for (const line of lines) {
    for (const cell of line.cells) {
      const wordy = cell.text.split(/\s+/).filter((word) => /\p{L}{2}/u.test(word)).length >= 2;
      if (!wordy) continue;
      if (cell.x1 <= x0) left++;
      else if (cell.x0 >= x1) right++;
    }
  }
  return left >= SIDEBAR_WORDY_LINES && right >= SIDEBAR_WORDY_LINES;
}

/** A line a sentence goes on from: it ends in a letter, a digit or a comma, and the next line opens in lower case. */
export const ENDS_OPEN = /[\p{L}\p{N},]$/u;
export const OPENS_LOWER = /^\p{Ll}/u;
/** The widest pitch, in ems, from a line to the next line of its paragraph. */
const WRAP_PITCH_EM = 1.6;

/** A run of text on a line (a cell, or a column's part of a line) and where its first item stands. */
interface Run {
  text: string;
  x0: number;
  items: readonly PdfTextItem[];
}

/**
 * `next`, the run under `run` in its column, carries on the sentence `run` broke off: a line of prose wrapped in a
 * narrow box (a sidebar's "Did you know?" panel), whose short lines are prose all the same.
 */
function wrapsOn(run: Run | undefined, next: Run | undefined): boolean {
  const above = run?.items[0];
  const below = next?.items[0];
  if (!above || !below || !ENDS_OPEN.test(run.text) || !OPENS_LOWER.test(next.text)) return false;
  const pitch = below.baseline - above.baseline;
  return Math.abs(next.x0 - run.x0) <= above.size && pitch > 0 && pitch <= WRAP_PITCH_EM * above.size;
}

/** Sentences wrapped from line to line a sidebar needs on its side of a channel: a paragraph, not side labels. */
const SIDEBAR_WRAPS = 2;

/** The cells wholly on one side of the channel x0…x1 wrap a sentence from line to line at least SIDEBAR_WRAPS times. */
function wrapsBeside(lines: readonly TextLine[], x0: number, x1: number, side: 'left' | 'right'): boolean {
  const runs: Cell[] = [];
  for (const line of [...lines].sort((a, b) => a.top - b.top)) {
    const cell = side === 'left' ? line.cells.findLast((c) => c.x1 <= x0) : line.cells.find((c) => c.x0 >= x1);
    if (cell) runs.push(cell);
  }
  let wraps = 0;
  for (let i = 1; i < runs.length; i++) if (wrapsOn(runs[i - 1], runs[i])) wraps++;
  return wraps >= SIDEBAR_WRAPS;
}

/** Runs of x (offsets into `coverage`) with no text at all, at least `width` wide, with text on both sides. */
function clearChannels(coverage: Float64Array, width: number): { from: number; to: number }[] {
  const channels: { from: number; to: number }[] = [];
  const last = coverage.length - 1;
  for (let x = 0; x <= last; x++) {
    if (coverage[x]! >= EMPTY_COVERAGE) continue;
    let to = x;
    while (to + 1 <= last && coverage[to + 1]! < EMPTY_COVERAGE) to++;
    if (x > 0 && to < last && to - x + 1 >= width) channels.push({ from: x, to });
    x = to;
  }
  return channels;
}

/** Text between two gutters narrower than this (ems) is no column: the ends of a column's longest lines. */
const THIN_COLUMN_EM = 2;

/**
 * Of two gutters with a strip of text under THIN_COLUMN_EM between them, the one the text covers more goes (in
 * place): a ragged column's short lines leave a channel inside the column, which its longest lines and the
 * equation numbers set flush right at its edge part from the true gutter, where no line of either column reaches.
 */
function thinColumnsOut(gutters: Gutter[], coverage: Float64Array, minX: number, em: number): void {
  const covered = (gutter: Gutter) => {
    let sum = 0;
    for (let x = Math.floor(gutter.x0 - minX); x < Math.ceil(gutter.x1 - minX); x++) sum += coverage[x] ?? 0;
    return sum / Math.max(1, gutter.x1 - gutter.x0);
  };
  for (let k = gutters.length - 1; k > 0; k--) {
    const [left, right] = [gutters[k - 1]!, gutters[k]!];
    if (right.x0 - left.x1 >= THIN_COLUMN_EM * em) continue;
    gutters.splice(covered(left) > covered(right) ? k - 1 : k, 1);
  }
}

/** Finds column gutters from the lines of a page (each line's cells). O(cells + page width). */
export function detectGutters(lines: readonly TextLine[], options: GutterOptions = {}): Gutter[] {
  const emptyShare = options.emptyShare ?? 0.3;
  const minWidthEm = options.minWidthEm ?? 0.8;
  const minSideShare = options.minSideShare ?? 0.15;
  if (lines.length < 6) return [];
  let minX = Infinity;
  let maxX = -Infinity;
  for (const line of lines) {
    minX = Math.min(minX, line.x0);
    maxX = Math.max(maxX, line.x1);
  }
  const span = Math.ceil(maxX - minX);
  if (!(span > 0) || span > 20_000) return [];
  const diff = new Float64Array(span + 2);
  for (const line of lines) {
    const h = Math.max(0, line.bottom - line.top);
    for (const cell of line.cells) {
      const a = Math.max(0, Math.floor(cell.x0 - minX));
      const b = Math.min(span + 1, Math.ceil(cell.x1 - minX));
      diff[a] = diff[a]! + h;
      diff[b] = diff[b]! - h;
    }
  }
  const coverage = new Float64Array(span + 1);
  let running = 0;
  let peak = 0;
  let area = 0;
  for (let i = 0; i <= span; i++) {
    running += diff[i]!;
    coverage[i] = running;
    peak = Math.max(peak, running);
    area += running;
  }
  if (peak <= 0) return [];
  const threshold = emptyShare * peak;
  const em = median(lines.map((line) => line.size));
  const minWidth = minWidthEm * em;
  const gutters: Gutter[] = [];
  const prefix = new Float64Array(span + 2);
  for (let i = 0; i <= span; i++) prefix[i + 1] = prefix[i]! + coverage[i]!;
  let i = 0;
  while (i <= span) {
    if (coverage[i]! > threshold) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 <= span && coverage[j + 1]! <= threshold) j++;
    const interior = i > 0 && j < span;
    if (interior && j - i + 1 >= minWidth) {
      const left = prefix[i]!;
      const right = area - prefix[j + 1]!;
      // A sidebar holds little text, but the channel beside it is wide and crossed by nothing.
      let clear = 0;
      let run = 0;
      for (let x = i; x <= j; x++) {
        run = coverage[x]! < EMPTY_COVERAGE ? run + 1 : 0;
        clear = Math.max(clear, run);
      }
      const balanced = left >= minSideShare * area && right >= minSideShare * area;
      const sidebar =
        !balanced &&
        clear >= SIDEBAR_GAP_EM * em &&
        left >= SIDEBAR_SHARE * area &&
        right >= SIDEBAR_SHARE * area &&
        wordyOnBothSides(lines, minX + i, minX + j + 1);
      if (balanced || sidebar) {
        gutters.push({ x0: minX + i, x1: minX + j + 1 });
      }
    }
    i = j + 1;
  }
  thinColumnsOut(gutters, coverage, minX, em);
  // A sidebar of so few lines that its text stays under the threshold: the empty channel beside it, where its
  // side wraps a paragraph from line to line (side labels, a list of names, do not).
  for (const channel of clearChannels(coverage, SIDEBAR_GAP_EM * em)) {
    const x0 = minX + channel.from;
    const x1 = minX + channel.to + 1;
    if (gutters.some((gutter) => gutter.x0 < x1 && gutter.x1 > x0)) continue;
    const left = prefix[channel.from]!;
    const right = area - prefix[channel.to + 1]!;
    if (left < SIDEBAR_SHARE * area || right < SIDEBAR_SHARE * area || !wordyOnBothSides(lines, x0, x1)) continue;
    if (wrapsBeside(lines, x0, x1, left < right ? 'left' : 'right')) gutters.push({ x0, x1 });
  }
  return gutters.sort((a, b) => a.x0 - b.x0);
}

/** A run of text to be laid out on its own, in reading order. */
export interface Region {
  items: PdfTextItem[];
  /** full: crosses the columns (or no columns); column: one column of one band. */
  kind: 'full' | 'column';
  x0: number;
  x1: number;
}

/**
 * A line that runs across a gutter: one of its cells crosses the gutter's middle. A cell that starts in the column
 * before the gutter and ends inside its empty channel (after it, on a right-to-left page) is that column's line set a
 * little wider (a footnote), and stays in its column beside the other column's line on the same baseline; a line
 * starting inside the channel (a centred banner) still spans.
 */
export function crossesGutter(line: TextLine, gutters: readonly Gutter[], rtl = false): boolean {
  for (const cell of line.cells) {
    for (const gutter of gutters) {
      const middle = (gutter.x0 + gutter.x1) / 2;
      if (!(cell.x0 < middle && cell.x1 > middle)) continue;
      const overhang = rtl ? cell.x1 > gutter.x1 && cell.x0 >= gutter.x0 : cell.x0 < gutter.x0 && cell.x1 <= gutter.x1;
      if (!overhang) return true;
    }
  }
  return false;
}

/** `line` goes on with the paragraph whose line is `above`: close under it, at its start, in its size. */
export function runsOnFrom(above: TextLine, line: TextLine): boolean {
  return (
    line.top - above.bottom <= 0.8 * line.size &&
    Math.abs(line.x0 - above.x0) <= 1.5 * line.size &&
    Math.abs(line.size - above.size) <= 0.12 * line.size
  );
}

function columnOf(x: number, centres: readonly number[]): number {
  let k = 0;
  while (k < centres.length && x > centres[k]!) k++;
  return k;
}

/** Whether the lines (any order) on either side of `gutter` interleave as two streams (interleaved-streams.ts). */
export function interleaveAcross(lines: readonly TextLine[], gutter: Gutter): boolean {
  const centres = [(gutter.x0 + gutter.x1) / 2];
  return holdsInterleavedStreams([...lines].sort((a, b) => a.top - b.top), (line) => soleColumnOf(line, centres));
}

/** The one column the gutters' `centres` make that holds all of the line's cells; undefined for a line over several. */
function soleColumnOf(line: TextLine, centres: readonly number[]): number | undefined {
  let column: number | undefined;
  for (const cell of line.cells) {
    const k = columnOf((cell.x0 + cell.x1) / 2, centres);
    if (column !== undefined && k !== column) return undefined;
    column = k;
  }
  return column;
}

interface ColumnCell {
  items: PdfTextItem[];
  x0: number;
  x1: number;
  text: string;
}

/** Lines of prose a column needs before a section's gutters are taken as columns (not a chart's axes). */
const MIN_PROSE_LINES = 3;

/** Widest gap, in ems, between the words of one justified line. */
const JUSTIFIED_GAP_EM = 1.2;

function looksLikeProse(cell: ColumnCell, columnWidth: number): boolean {
  const words = countWords(cell.text);
  return words >= 5 || (columnWidth > 0 && cell.x1 - cell.x0 >= 0.5 * columnWidth);
}

/** Cells of a column that read as prose: long ones, and the lines of a sentence wrapped from one to the next. */
function proseCells(column: readonly ColumnCell[], columnWidth: number): number {
  let count = 0;
  for (let i = 0; i < column.length; i++) {
    const cell = column[i]!;
    if (looksLikeProse(cell, columnWidth) || wrapsOn(column[i - 1], cell) || wrapsOn(cell, column[i + 1])) count++;
  }
  return count;
}

/** Lines a table's row may wrap its cells over, at most, and rows a run of them needs to be read as a table's. */
const ROW_LINES = 6;
const ROW_RUN = 3;

/**
 * For each section in a run of ROW_RUN or more consecutive sections that each hold cells on both sides of a gutter
 * in ROW_LINES lines or fewer, the index of the run's first section. Such a run is a table whose padded rows
 * whitespace sets apart (a word processor's borderless table), its cells wrapped over a line or three, prose as
 * they may read: its channels are no page's gutters, and its rows read across, row by row. Two columns of prose
 * have paragraphs longer than a row's, whose breaks seldom line up across the gutter three times running.
 */
function tableRowRuns(parts: readonly (readonly TextLine[])[], across: readonly boolean[]): (number | undefined)[] {
  const starts: (number | undefined)[] = parts.map(() => undefined);
  const rowLike = (k: number) => across[k]! && parts[k]!.length <= ROW_LINES;
  let at = 0;
  while (at < parts.length) {
    if (!rowLike(at)) {
      at++;
      continue;
    }
    let end = at + 1;
    while (end < parts.length && rowLike(end)) end++;
    if (end - at >= ROW_RUN) for (let k = at; k < end; k++) starts[k] = at;
    at = end;
  }
  return starts;
}

/**
 * Lines read across the gutters though none crosses one: a section of the page (set apart by whitespace, see
 * `sections`) whose cells are all short (no prose), with cells on both sides of a gutter on some line, and no prose
 * between it and the full-width text above it (or the page's top): a chart's labels or a table over the columns,
 * read row by row in its place rather than split between them; also a run of a padded table's rows, however
 * wordy their cells (`tableRowRuns`), and a row filling one column alone between two rows read so. A chart under
 * a panel's heading (prose above it in its column) stays in its column.
 */
function shortCellStrips(lines: readonly TextLine[], gutters: readonly Gutter[], bounds: readonly number[], rtl: boolean): Set<TextLine> {
  const centres = gutters.map((g) => (g.x0 + g.x1) / 2);
  const prose = (line: TextLine) =>
    line.cells.some((cell) => {
      const k = columnOf((cell.x0 + cell.x1) / 2, centres);
      return looksLikeProse(cell, bounds[k + 1]! - bounds[k]!);
    });
  const index = new Map(lines.map((line, i) => [line, i]));
  // From line `from` upwards, whether full-width text (or the page's top) comes before any prose. A table's caption
  // (`Table 1: …`) right above is as good as full-width text: the rows under it are its table's, across the page.
  const captionAt = (j: number) => j >= 0 && !crossesGutter(lines[j]!, gutters, rtl) && isTableCaptionText(lines[j]!.text);
  // The short last line of a full-width paragraph stops before the gutter, but is that paragraph's: full-width text.
  const acrossPage = (j: number) =>
    crossesGutter(lines[j]!, gutters, rtl) || (j > 0 && crossesGutter(lines[j - 1]!, gutters, rtl) && runsOnFrom(lines[j - 1]!, lines[j]!));
  const clear = (from: number) => {
    if (captionAt(from)) return true;
    for (let j = from; j >= 0; j--) {
      if (acrossPage(j)) return true;
      if (prose(lines[j]!)) return false;
    }
    return true;
  };
  const strips = new Set<TextLine>();
  const parts = sections(lines);
  const sole = (line: TextLine) => soleColumnOf(line, centres);
  // Two columns of short lines each at its own pitch (a résumé's contact lines beside its sections) are columns.
  const across = parts.map((section) => section.some((line) => line.cells.length > 0 && sole(line) === undefined) && !holdsInterleavedStreams(section, sole));
  const rowRunStarts = tableRowRuns(parts, across);
  const stripParts = parts.map((section, at) => {
    // A run of a table's rows, its cells wrapped over a few lines (prose-like), is read across from its first row.
    const first = rowRunStarts[at];
    if (first !== undefined) return clear(index.get(parts[first]![0]!)! - 1);
    return across[at]! && !section.some(prose) && clear(index.get(section[0]!)! - 1);
  });
  parts.forEach((section, at) => {
    // A row of a table set with its cells apart that fills one column only (a group label, `Region: Europe`, or
    // a row whose other cells are empty) stands between the table's other rows: it is read in their place too.
    const between = !stripParts[at] && stripParts[at - 1] === true && stripParts[at + 1] === true && !section.some(prose);
    if (stripParts[at] || between) for (const line of section) strips.add(line);
    // The caption goes across with its table, read right before it.
    const above = index.get(section[0]!)! - 1;
    if (stripParts[at] && !stripParts[at - 1] && captionAt(above)) strips.add(lines[above]!);
  });
  return strips;
}

/**
 * The cells' items in order. Loops, not nested flatMap: on a page without columns that made every item of the page
 * pass through two levels of arrays, the costliest line of orderRegions.
 */
function itemsOfCells(cells: readonly { items: readonly PdfTextItem[] }[]): PdfTextItem[] {
  const items: PdfTextItem[] = [];
  for (const cell of cells) append(items, cell.items);
  return items;
}

/**
 * Orders a page's lines into regions: spanning lines in their vertical place, column text column by column
 * within each band between them.
 */
export function orderRegions(lines: readonly TextLine[], gutters: readonly Gutter[], rtl = false): Region[] {
  const all = [...lines].sort((a, b) => a.top - b.top);
  const regionOf = (items: PdfTextItem[], kind: Region['kind']): Region => {
    let x0 = Infinity;
    let x1 = -Infinity;
    for (const item of items) {
      x0 = Math.min(x0, item.x0);
      x1 = Math.max(x1, item.x1);
    }
    return { items, kind, x0, x1 };
  };
  if (gutters.length === 0) {
    const items: PdfTextItem[] = [];
    for (const line of all) for (const cell of line.cells) append(items, cell.items);
    return items.length > 0 ? [regionOf(items, 'full')] : [];
  }
  const centres = gutters.map((g) => (g.x0 + g.x1) / 2);
  let minX = Infinity;
  let maxX = -Infinity;
  for (const line of all) {
    minX = Math.min(minX, line.x0);
    maxX = Math.max(maxX, line.x1);
  }
  const bounds = [minX, ...centres, maxX];
  const regions: Region[] = [];
  let band: ColumnCell[][] = centres.map(() => []).concat([[]]);
  let bandLines: TextLine[] = [];
  let bandBottom = -Infinity;
  let bandSize = 0;
  let spanning: PdfTextItem[] = [];

  const flushSpanning = () => {
    if (spanning.length > 0) regions.push(regionOf(spanning, 'full'));
    spanning = [];
  };
  const flushBand = () => {
    const nonEmpty = band.filter((column) => column.length > 0);
    if (nonEmpty.length === 0) return;
    let valid = true;
    if (nonEmpty.length > 1) {
      // Short cells (a chart's labels, a table's) read across the page, unless every column also holds a few lines of
      // prose: panels of a slide, each a chart under its own heading with notes below, are read panel by panel.
      let proseInEveryColumn = true;
      band.forEach((column, k) => {
        const width = bounds[k + 1]! - bounds[k]!;
        const prose = proseCells(column, width);
        if (column.length > 0 && prose < MIN_PROSE_LINES) proseInEveryColumn = false;
        if (column.length >= 3 && prose < 0.4 * column.length) valid = false;
      });
      if (proseInEveryColumn) valid = true;
      // Columns of short lines each at its own pitch, interleaving (a résumé's contact lines beside its sections),
      // are read column by column all the same: no row of a table puts them side by side.
      if (!valid && holdsInterleavedStreams(bandLines, (line) => soleColumnOf(line, centres))) valid = true;
    }
    if (valid) {
      const order = band.map((_, k) => k);
      if (rtl) order.reverse();
      for (const k of order) {
        const column = band[k]!;
        if (column.length > 0) regions.push(regionOf(itemsOfCells(column), 'column'));
      }
    } else {
      const items: PdfTextItem[] = [];
      for (const column of band) for (const cell of column) append(items, cell.items);
      regions.push(regionOf(items, 'full'));
    }
    band = centres.map(() => []).concat([[]]);
    bandLines = [];
  };

  const strips = shortCellStrips(all, gutters, bounds, rtl);
  let lastSpanning: TextLine | undefined;
  for (const [index, line] of all.entries()) {
    // The short last line of a full-width paragraph does not reach the gutter, but belongs with it.
    const underSpanning =
      lastSpanning !== undefined &&
      band.every((column) => column.length === 0) &&
      new Set(line.cells.map((cell) => columnOf((cell.x0 + cell.x1) / 2, centres))).size === 1;
    // Nor does a line centred on the page close under it (a newsletter's issue line, a title's subtitle or date),
    // which falls inside the middle column.
    const continuesSpanning =
      underSpanning &&
      (runsOnFrom(lastSpanning!, line) ||
        (Math.abs(line.x0 + line.x1 - minX - maxX) <= 2 * line.size && line.top - lastSpanning!.bottom <= CENTRED_UNDER_EM * line.size));
    if (continuesSpanning || strips.has(line) || crossesGutter(line, gutters, rtl)) {
      flushBand();
      for (const cell of line.cells) append(spanning, cell.items);
      lastSpanning = line;
      continue;
    }
    lastSpanning = undefined;
    flushSpanning();
    // Notes at the page's foot far below short columns, set no larger than their text, open a band of their own:
    // read after every column above them, not as the rest of the column they stand in.
    if (bandLines.length > 0 && line.size <= bandSize && line.top - bandBottom > FOOT_GAP * bandSize && opensFootNotes(all, index, centres)) flushBand();
    if (line.bottom >= bandBottom || bandLines.length === 0) bandSize = line.size;
    bandBottom = bandLines.length === 0 ? line.bottom : Math.max(bandBottom, line.bottom);
    bandLines.push(line);
    let previous: { k: number; cell: ColumnCell } | undefined;
    for (const cell of line.cells) {
      const k = columnOf((cell.x0 + cell.x1) / 2, centres);
      // Words of a justified line set wide apart are one run of prose, not a row of short cells.
      if (previous && previous.k === k && cell.x0 - previous.cell.x1 <= JUSTIFIED_GAP_EM * line.size) {
        const merged = previous.cell;
        append(merged.items, cell.items);
        merged.x1 = Math.max(merged.x1, cell.x1);
        merged.text = `${merged.text} ${cell.text}`;
        continue;
      }
      const entry: ColumnCell = { items: [...cell.items], x0: cell.x0, x1: cell.x1, text: cell.text };
      band[k]!.push(entry);
      previous = { k, cell: entry };
    }
  }
  flushBand();
  flushSpanning();
  return regions;
}

/** Vertical whitespace, in line heights, across the whole of a band of columns above notes at the page's foot. */
const FOOT_GAP = 4;

/** The most lines notes at the page's foot take, below the columns. */
const FOOT_LINES = 6;

/** A note's number or mark (`6. `, `12 `, `[3] `, `* `) opening a line. */
const NOTE_OPENING = /^(?:\d{1,3}\.?|\[\d{1,3}\]|[*∗†‡§¶])\s+\S/u;

/**
 * Whether `all[index]` opens the page's last few lines (its margin lines aside), all in one column and the first
 * opening with a note's number or mark: a column's footnotes, not the rest of its text.
 */
function opensFootNotes(all: readonly TextLine[], index: number, centres: readonly number[]): boolean {
  const first = all[index]!;
  if (!NOTE_OPENING.test(first.text) && !first.superscriptStart) return false;
  const column = soleColumnOf(first, centres);
  if (column === undefined) return false;
  let lines = 0;
  for (let i = index; i < all.length; i++) {
    const line = all[i]!;
    if (line.zone) continue;
    if (++lines > FOOT_LINES || soleColumnOf(line, centres) !== column) return false;
  }
  return true;
}

/** A centred line this close (ems) under a full-width line belongs with it. */
const CENTRED_UNDER_EM = 2;

/** Vertical whitespace, in line heights, that cuts a page into sections laid out on their own. */
const SECTION_GAP = 1.5;

/**
 * Splits lines (sorted top to bottom) where a horizontal strip of whitespace crosses the whole text area: a
 * chart or a figure above two columns of prose is one section, the prose another.
 */
function sections(lines: readonly TextLine[]): TextLine[][] {
  const out: TextLine[][] = [];
  let current: TextLine[] = [];
  let bottom = -Infinity;
  let size = 0;
  for (const line of lines) {
    if (current.length > 0 && line.top - bottom > SECTION_GAP * Math.max(size, line.size)) {
      out.push(current);
      current = [];
    }
    current.push(line);
    if (line.bottom >= bottom) size = line.size;
    bottom = Math.max(bottom, line.bottom);
  }
  if (current.length > 0) out.push(current);
  return out;
}


/** The line's words in each column the gutters' `centres` make: a justified line's words may stand in cells of their own. */
function wordsPerColumn(line: TextLine, centres: readonly number[]): number[] {
  const words = new Array<number>(centres.length + 1).fill(0);
  for (const cell of line.cells) {
    const k = columnOf((cell.x0 + cell.x1) / 2, centres);
    words[k] = words[k]! + countWords(cell.text);
  }
  return words;
}

/** True when every column the gutters make holds a few lines of prose (five words or more). */
export function proseOnEverySide(section: readonly TextLine[], gutters: readonly Gutter[]): boolean {
  if (gutters.length === 0) return false;
  const centres = gutters.map((g) => (g.x0 + g.x1) / 2);
  const prose = new Array<number>(centres.length + 1).fill(0);
  for (const line of section) {
    const words = wordsPerColumn(line, centres);
    words.forEach((count, k) => {
      if (count >= 5) prose[k] = prose[k]! + 1;
    });
  }
  return prose.every((count) => count >= MIN_PROSE_LINES);
}

/** Cells a line of a table's rows holds across the gutters, at least: three columns or more. */
const TABLE_ROW_CELLS = 3;

/**
 * Whether the gutters are only a table's channels: no column they make holds MIN_PROSE_LINES lines of prose (five
 * words or more) that cross no gutter, and most lines with cells on both sides of a gutter are rows of three cells
 * or more. A page's columns, or a main column beside a sidebar of short lines, hold prose; two columns of short
 * lines side by side (two lists under their headings) keep their columns.
 */
function onlyTableChannels(lines: readonly TextLine[], gutters: readonly Gutter[], rtl: boolean): boolean {
  const centres = gutters.map((g) => (g.x0 + g.x1) / 2);
  const prose = new Array<number>(centres.length + 1).fill(0);
  let across = 0;
  let rows = 0;
  for (const line of lines) {
    if (crossesGutter(line, gutters, rtl)) continue;
    const words = wordsPerColumn(line, centres);
    words.forEach((count, k) => {
      if (count >= 5) prose[k] = prose[k]! + 1;
    });
    if (words.filter((count) => count > 0).length < 2) continue;
    across++;
    if (line.cells.length >= TABLE_ROW_CELLS) rows++;
  }
  return prose.every((count) => count < MIN_PROSE_LINES) && across > 0 && rows * 2 > across;
}

/**
 * Reading order of a page: the page's gutters when its body has columns from top to bottom; else, where a
 * whitespace strip sets apart a part of the page whose own body has gutters (columns under a full-width chart),
 * each section in turn with its own; else one full-width region.
 */
export function pageRegions(lines: readonly TextLine[], body: readonly TextLine[], rtl = false): Region[] {
  const gutters = withoutTableChannels(body, detectGutters(body));
  if (gutters.length > 0 && !onlyTableChannels(body, gutters, rtl)) return orderRegions(lines, gutters, rtl);
  const inBody = new Set(body);
  const parts = sections([...lines].sort((a, b) => a.top - b.top)).map((section) => {
    const gutters = detectGutters(section.filter((line) => inBody.has(line)));
    return { section, gutters: proseOnEverySide(section, gutters) ? gutters : [] };
  });
  if (parts.every((part) => part.gutters.length === 0)) return orderRegions(lines, [], rtl);
  // Consecutive sections without columns stay one region, laid out together as they would be on their own.
  const regions: Region[] = [];
  let plain: TextLine[] = [];
  for (const part of parts) {
    if (part.gutters.length === 0) {
      append(plain, part.section);
      continue;
    }
    append(regions, orderRegions(plain, [], rtl));
    plain = [];
    append(regions, orderRegions(part.section, part.gutters, rtl));
  }
  append(regions, orderRegions(plain, [], rtl));
  return regions;
}
