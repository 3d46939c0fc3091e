/**
 * Columns within one band of a page that has no columns from top to bottom: a paragraph beside a figure's caption
 * set to its right, two panels side by side between full-width text. The channel between them runs only down
 * the band; full-width lines above and below it cross where it would run, so the page's gutters (columns.ts),
 * counted over the whole page, never find it, and the lines of both sides read as one, line by line.
 *
 * A band is grown from a line whose cells stand apart on both sides of a channel, up and down over the lines that
 * do not cross it; its sides must each hold a few lines of prose (`proseOnEverySide`), as a page's columns must,
 * so that a table's or a form's aligned cells stay rows.
 */
import { crossesGutter, orderRegions, proseOnEverySide, runsOnFrom, type Gutter, type Region } from './columns.js';
import { median } from './measure.js';
import { CODE_LINE_SHARE } from './text-items.js';
import { append, type TextLine } from './types.js';

/** Narrowest channel, in ems of the band's median size (as a page's gutter: columns.ts). */
const MIN_CHANNEL_EM = 0.8;

/** The channels a line's cells leave between them, left to right. */
function channelsOf(line: TextLine, minWidth: number): Gutter[] {
  const cells = [...line.cells].sort((a, b) => a.x0 - b.x0);
  const channels: Gutter[] = [];
  for (let i = 1; i < cells.length; i++) {
    const gap = cells[i]!.x0 - cells[i - 1]!.x1;
    if (gap >= minWidth) channels.push({ x0: cells[i - 1]!.x1, x1: cells[i]!.x0 });
  }
  return channels;
}

/** The empty channel the band's lines leave around `seed`'s middle: from the left cells' ends to the right cells' starts. */
function bandChannel(band: readonly TextLine[], seed: Gutter): Gutter {
  const middle = (seed.x0 + seed.x1) / 2;
  let x0 = seed.x0;
  let x1 = seed.x1;
  for (const line of band) {
    for (const cell of line.cells) {
      if ((cell.x0 + cell.x1) / 2 < middle) x0 = Math.max(x0, cell.x1);
      else x1 = Math.min(x1, cell.x0);
    }
  }
  return { x0, x1 };
}

interface Band {
  start: number;
  end: number;
  channel: Gutter;
}

/**
 * Whether the band is lines of code set apart on a page of proportional text: a dump's or a table's columns of
 * figures (`00000020  00 05 64 69 …  |..diff..|`) line up down its lines, and their words count as prose, but they
 * are one listing. On a typewriter page, where every line is monospaced, two columns are columns.
 */
function isCodeBand(band: readonly TextLine[], typed: boolean): boolean {
  return !typed && band.every((line) => line.monoShare >= CODE_LINE_SHARE);
}

/** The first band with columns at or after line `from` of `lines` (top to bottom), if any. */
function nextBand(lines: readonly TextLine[], inBody: ReadonlySet<TextLine>, from: number, minWidth: number, rtl: boolean, typed: boolean): Band | undefined {
  // Bands already tried: the lines of a table, each with the same channel, would grow the same band once a line.
  const tried: Band[] = [];
  // A running header or footer stands apart from any band: it is not a column's last line.
  const apart = (line: TextLine, seed: Gutter) => !inBody.has(line) || crossesGutter(line, [seed], rtl);
  for (let i = from; i < lines.length; i++) {
    if (!inBody.has(lines[i]!)) continue;
    for (const seed of channelsOf(lines[i]!, minWidth)) {
      const middle = (seed.x0 + seed.x1) / 2;
      if (tried.some((band) => i >= band.start && i < band.end && middle > band.channel.x0 && middle < band.channel.x1)) continue;
      let start = i;
      let end = i + 1;
      while (start > from && !apart(lines[start - 1]!, seed)) start--;
      while (end < lines.length && !apart(lines[end]!, seed)) end++;
      // The short last lines of a full-width paragraph above stop short of the channel, but are that paragraph's.
      while (start < i && start > 0 && crossesGutter(lines[start - 1]!, [seed], rtl) && runsOnFrom(lines[start - 1]!, lines[start]!)) start++;
      const band = lines.slice(start, end);
      const channel = bandChannel(band, seed);
      if (channel.x1 - channel.x0 >= minWidth && proseOnEverySide(band, [channel]) && !isCodeBand(band, typed)) return { start, end, channel };
      tried.push({ start, end, channel: seed });
    }
  }
  return undefined;
}

/**
 * The page's regions where bands of it have columns of their own; undefined when none has. `lines`: every line of
 * the page; `body`: those outside the top and bottom margins, which alone decide the channels' width.
 */
export function bandRegions(lines: readonly TextLine[], body: readonly TextLine[], rtl = false, typed = false): Region[] | undefined {
  const sorted = [...lines].sort((a, b) => a.top - b.top);
  const inBody = new Set(body);
  const minWidth = MIN_CHANNEL_EM * median(body.map((line) => line.size));
  if (!(minWidth > 0)) return undefined;
  const regions: Region[] = [];
  let found = false;
  let at = 0;
  while (at < sorted.length) {
    const band = nextBand(sorted, inBody, at, minWidth, rtl, typed);
    const plainEnd = band?.start ?? sorted.length;
    if (plainEnd > at) append(regions, orderRegions(sorted.slice(at, plainEnd), [], rtl));
    if (!band) break;
    found = true;
    append(regions, orderRegions(sorted.slice(band.start, band.end), [band.channel], rtl));
    at = band.end;
  }
  return found ? regions : undefined;
}
