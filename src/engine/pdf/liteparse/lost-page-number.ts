/**
 * A page number PDFium's text items leave out. LiteParse drops a lone page number at the head or foot of a page
 * from a page's text items, but keeps it in the page's plain text, which is laid out as a grid of characters (a
 * line per text row, columns by position). The number is taken from there: the first or last row's last cell,
 * when it reads as a page number and its characters are among those the items lack. Its place is estimated from
 * the grid (its column across the page, its row down it) and kept beyond the items' top or bottom, where
 * docmill's furniture pass finds a page number; the layout needs no more of it. Pure.
 */
import { isPageNumberText } from '../furniture.js';
import type { PdfTextItem } from '../types.js';
import { isWhiteSpaceCode } from '../white-space.js';

/** Non-space characters of `text`, counted (white space as `\s` matches it, told by its first unit: none is astral). */
function characterCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const ch of text) if (!isWhiteSpaceCode(ch.charCodeAt(0))) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  return counts;
}

/** Characters of the page's text its items lack, counted. */
function lackingCharacters(pageText: string, items: readonly PdfTextItem[]): Map<string, number> {
  const lacking = characterCounts(pageText);
  for (const item of items) {
    for (const ch of item.str) {
      const n = lacking.get(ch);
      if (n !== undefined) lacking.set(ch, n - 1);
    }
  }
  for (const [ch, n] of lacking) if (n <= 0) lacking.delete(ch);
  return lacking;
}

/** Cells of a grid row: runs of text set apart by two spaces or more. */
function cellsOf(row: string): { text: string; column: number }[] {
  const cells: { text: string; column: number }[] = [];
  for (const match of row.matchAll(/\S+(?: \S+)*/g)) cells.push({ text: match[0], column: match.index });
  return cells;
}

function takes(lacking: Map<string, number>, text: string): boolean {
  const needed = characterCounts(text);
  for (const [ch, n] of needed) if ((lacking.get(ch) ?? 0) < n) return false;
  return true;
}

export interface LostPageNumber {
  item: PdfTextItem;
  /** Characters it accounts for. */
  chars: number;
}

/**
 * The page number the items lack, as an item placed at the page's head or foot, or undefined when the page's
 * text has none there.
 */
export function lostPageNumber(pageText: string, items: readonly PdfTextItem[], width: number, height: number): LostPageNumber | undefined {
  if (items.length === 0) return undefined;
  const grid = pageText.replace(/\n+$/, '').split('\n');
  const rows = grid.filter((row) => row.trim().length > 0);
  if (rows.length < 2) return undefined;
  // The last cell of the last row and of the first: the page's characters are counted only where one reads as a
  // page number (most pages whose items hold less than their text lack something else).
  const ends = [
    { cell: cellsOf(rows.at(-1)!).at(-1), atFoot: true },
    { cell: cellsOf(rows[0]!).at(-1), atFoot: false },
  ];
  if (!ends.some(({ cell }) => cell && isPageNumberText(cell.text))) return undefined;
  const lacking = lackingCharacters(pageText, items);
  if (lacking.size === 0) return undefined;
  const gridWidth = Math.max(...rows.map((row) => row.trimEnd().length));
  let top = Infinity;
  let bottom = -Infinity;
  let size = 0;
  for (const item of items) {
    top = Math.min(top, item.baseline - item.size);
    bottom = Math.max(bottom, item.baseline);
    size = Math.max(size, item.size);
  }
  for (const { cell, atFoot } of ends) {
    if (!cell || !isPageNumberText(cell.text) || !takes(lacking, cell.text)) continue;
    const fontSize = Math.min(size, 10);
    // The grid keeps blank rows for vertical space: the row's place down the grid, beyond the items' text.
    const down = ((atFoot ? grid.length - 0.5 : 0.5) / grid.length) * height;
    const baseline = atFoot ? Math.min(height - 2, Math.max(bottom + 2 * fontSize, down)) : Math.max(fontSize, Math.min(top - fontSize, down));
    const x0 = (cell.column / Math.max(1, gridWidth)) * width;
    const x1 = Math.min(width, x0 + 0.6 * fontSize * cell.text.length);
    const item: PdfTextItem = { str: cell.text, x0, x1, baseline, size: fontSize, fontName: '', bold: false, monospace: false, rtl: false, spaceBefore: false };
    let chars = 0;
    for (const n of characterCounts(cell.text).values()) chars += n;
    return { item, chars };
  }
  return undefined;
}
