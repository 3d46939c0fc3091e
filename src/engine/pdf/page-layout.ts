/**
 * One page's layout, from normalised items to blocks in reading order: margin-zone candidates (headers,
 * footers) apart, columns and bands, then per region lines → tables → paragraphs, lists, code. Pure.
 */
import { detectGutters, orderRegions } from './columns.js';
import { splitZones } from './furniture.js';
import { addToHistogram, type SizeHistogram } from './headings.js';
import { buildLines } from './lines.js';
import { escapeMarkdownText } from './markdown.js';
import { buildBlocks } from './paragraphs.js';
import { groupRotated } from './rotated.js';
import { findTables } from './tables.js';
import type { RotatedItem } from './text-items.js';
import { append, type PdfTextItem, type ProtoBlock } from './types.js';

export interface PageLayoutInput {
  items: readonly PdfTextItem[];
  rotated?: readonly RotatedItem[];
  width: number;
  height: number;
}

export interface PageLayout {
  blocks: ProtoBlock[];
  /** Body-text font sizes by characters (margin zones left out), for the document's body size. */
  sizes: SizeHistogram;
  /** Characters in bold among those counted in `sizes`, by size. */
  boldSizes: SizeHistogram;
}

/** Lays out one region: its own lines (baselines local to the column), tables first, then text blocks. */
function layoutRegion(
  items: PdfTextItem[],
  x0: number,
  x1: number,
  zoneOf: Map<PdfTextItem, 'top' | 'bottom'>,
  monospaceBody: boolean,
) {
  const blockOptions = { deferHyphens: true, monospaceBody };
  const lines = buildLines(items);
  for (const line of lines) {
    const first = line.cells[0]?.items[0];
    const zone = first ? zoneOf.get(first) : undefined;
    if (zone && line.cells.every((cell) => cell.items.every((item) => zoneOf.get(item) === zone))) line.zone = zone;
  }
  const tables = findTables(lines, { skipMonospace: !monospaceBody });
  const blocks: ProtoBlock[] = [];
  let next = 0;
  const region = { x0, x1 };
  for (const table of tables) {
    if (table.start > next) append(blocks, buildBlocks(lines.slice(next, table.start), region, blockOptions));
    const tableLines = lines.slice(table.start, table.end);
    blocks.push({
      kind: 'table',
      markdown: table.markdown,
      text: table.rows.map((row) => row.join(' ')).join('\n'),
      rect: table.rect,
      lines: tableLines.length,
      size: tableLines[0]?.size ?? 0,
      bold: false,
      chars: tableLines.reduce((sum, line) => sum + line.chars, 0),
    });
    next = table.end;
  }
  if (next < lines.length) append(blocks, buildBlocks(lines.slice(next), region, blockOptions));
  return blocks;
}

export function layoutPage(input: PageLayoutInput): PageLayout {
  const sizes: SizeHistogram = new Map();
  const boldSizes: SizeHistogram = new Map();
  const lines = buildLines(input.items);
  const zones = splitZones(lines, input.height);
  let rtlChars = 0;
  let allChars = 0;
  let monoChars = 0;
  for (const line of zones.body) {
    addToHistogram(sizes, line.size, line.chars);
    if (line.bold) addToHistogram(boldSizes, line.size, line.chars);
    allChars += line.chars;
    monoChars += line.monoShare * line.chars;
    if (line.rtl) rtlChars += line.chars;
  }
  const monospaceBody = monoChars > 0.5 * allChars;
  const zoneOf = new Map<PdfTextItem, 'top' | 'bottom'>();
  for (const [zone, zoneLines] of [['top', zones.top], ['bottom', zones.bottom]] as const) {
    for (const line of zoneLines) for (const cell of line.cells) for (const item of cell.items) zoneOf.set(item, zone);
  }
  // Zone lines stay in the flow (a panel title is not furniture until the document says so); the blocks they
  // form are tagged as candidates and decided over the whole document.
  const gutters = detectGutters(zones.body);
  const regions = orderRegions(lines, gutters, rtlChars > allChars / 2);
  let textX0 = Infinity;
  let textX1 = -Infinity;
  for (const line of zones.body) {
    textX0 = Math.min(textX0, line.x0);
    textX1 = Math.max(textX1, line.x1);
  }
  const blocks: ProtoBlock[] = [];
  for (const region of regions) {
    const x0 = region.kind === 'full' ? Math.min(region.x0, textX0) : region.x0;
    const x1 = region.kind === 'full' ? Math.max(region.x1, textX1) : region.x1;
    append(blocks, layoutRegion(region.items, x0, x1, zoneOf, monospaceBody));
  }
  for (const line of groupRotated(input.rotated ?? [])) {
    const inMargin = Number.isFinite(textX0) && (line.rect.x1 <= textX0 + 1 || line.rect.x0 >= textX1 - 1);
    blocks.push({
      kind: 'rotated',
      markdown: escapeMarkdownText(line.text),
      text: line.text,
      rect: line.rect,
      lines: 1,
      size: line.size,
      bold: false,
      chars: line.text.replace(/\s/g, '').length,
      furniture: inMargin,
    });
  }
  return { blocks, sizes, boldSizes };
}
