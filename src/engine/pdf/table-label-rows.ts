/**
 * Tables another reader cut at a row that holds only its label: a financial statement's section label
 * (`Operating expenses` over its indented rows of figures) leaves every column but the first empty, and LiteParse
 * ends one table above it and starts another under it, the second without the header. Two found tables of the
 * same columns, set one under the other at the same left edge, with only such label lines between them at the
 * rows' own pitch, are one table, each label a row of its own. A caption or a heading between two tables stands
 * further off than a row, or reads as a caption, and keeps them apart. Pure.
 */
import { isCaptionText } from './captions.js';
import { buildLines } from './lines.js';
import { median } from './measure.js';
import { gridOfRows, type TableGrid } from './table-grid.js';
import { itemsInside } from './table-header-above.js';
import { countWords } from './white-space.js';
import type { FoundTable, PdfTextItem, TextLine } from './types.js';

/** Most label lines between the two parts (a label and a sub-label). */
const MAX_LABEL_LINES = 2;
/** A label is a few words: a row's name, not a sentence. */
const MAX_LABEL_WORDS = 6;
/** Baseline to baseline around a label: at most this many times the rows' pitch. */
const ROW_PITCHES = 1.4;
/** The two parts' left and right edges agree within this share of the table's width. */
const ALIGN = 0.05;
/** A label starts within this share of the table's width from its left edge and ends before its middle. */
const LABEL_START_SHARE = 0.25;
const LABEL_END_SHARE = 0.5;
/** A label's type is the rows' size within this share. */
const SIZE_SHARE = 0.15;

function columnCount(table: FoundTable): number {
  return table.grid?.colCount ?? table.rows.reduce((max, row) => Math.max(max, row.length), 0);
}

/** `grids` one under the other (each of the same columns): their cells, each grid's rows after the one's before. */
function stackGrids(grids: readonly TableGrid[]): TableGrid {
  let rowCount = 0;
  const cells = grids.flatMap((grid) => {
    const offset = rowCount;
    rowCount += grid.rowCount;
    return grid.cells.map((cell) => ({ ...cell, row: cell.row + offset }));
  });
  return { rowCount, colCount: grids[0]!.colCount, cells };
}

/** Baselines of a table's lines, top down. */
function baselinesOf(table: FoundTable, items: readonly PdfTextItem[]): number[] {
  return buildLines(itemsInside(table.rect, items)).map((line) => line.baseline).sort((a, b) => a - b);
}

/**
 * The label lines between `above` and `below` when only labels stand there, at the rows' pitch; undefined where
 * anything else does (or nothing: two tables set tight are not cut at a label).
 */
function labelsBetween(above: FoundTable, below: FoundTable, items: readonly PdfTextItem[]): TextLine[] | undefined {
  const x0 = Math.min(above.rect.x0, below.rect.x0);
  const x1 = Math.max(above.rect.x1, below.rect.x1);
  const width = x1 - x0;
  if (Math.abs(above.rect.x0 - below.rect.x0) > ALIGN * width || Math.abs(above.rect.x1 - below.rect.x1) > ALIGN * width) return undefined;
  const between = items.filter((item) => {
    const middle = item.baseline - 0.3 * item.size;
    return middle > above.rect.y1 + 1 && middle < below.rect.y0 - 1 && item.x1 > x0 && item.x0 < x1;
  });
  const labels = buildLines(between);
  if (labels.length === 0 || labels.length > MAX_LABEL_LINES) return undefined;
  const upper = baselinesOf(above, items);
  const lower = baselinesOf(below, items);
  if (upper.length < 2 || lower.length < 2) return undefined;
  const steps = (baselines: readonly number[]) => baselines.slice(1).map((baseline, i) => baseline - baselines[i]!);
  const pitch = median([...steps(upper), ...steps(lower)]);
  if (!(pitch > 0)) return undefined;
  const sizes = median(buildLines(itemsInside(above.rect, items)).map((line) => line.size));
  const isLabel = (line: TextLine) =>
    line.cells.length === 1 &&
    countWords(line.text) <= MAX_LABEL_WORDS &&
    !isCaptionText(line.text) &&
    Math.abs(line.size - sizes) <= SIZE_SHARE * sizes &&
    line.x0 >= x0 - line.size &&
    line.x0 <= x0 + LABEL_START_SHARE * width &&
    line.x1 <= x0 + LABEL_END_SHARE * width;
  if (!labels.every(isLabel)) return undefined;
  const around = [upper[upper.length - 1]!, ...labels.map((line) => line.baseline), lower[0]!];
  return steps(around).every((step) => step <= ROW_PITCHES * pitch) ? labels : undefined;
}

/** The found tables (top down), those cut at label rows joined into one table each. */
export function joinedAtLabelRows(tables: readonly FoundTable[], items: readonly PdfTextItem[]): FoundTable[] {
  if (tables.length < 2) return [...tables];
  const sorted = [...tables].sort((a, b) => a.rect.y0 - b.rect.y0);
  const out: FoundTable[] = [sorted[0]!];
  for (const below of sorted.slice(1)) {
    const above = out[out.length - 1]!;
    const columns = columnCount(above);
    const labels = columns >= 2 && columnCount(below) === columns && below.rect.y0 > above.rect.y1 ? labelsBetween(above, below, items) : undefined;
    if (!labels) {
      out.push(below);
      continue;
    }
    const labelRows = labels.map((line) => [line.text, ...Array<string>(columns - 1).fill('')]);
    const rows = [...above.rows, ...labelRows, ...below.rows];
    const grid = stackGrids([above.grid ?? gridOfRows(above.rows), gridOfRows(labelRows), below.grid ?? gridOfRows(below.rows)]);
    const rect = {
      x0: Math.min(above.rect.x0, below.rect.x0),
      y0: above.rect.y0,
      x1: Math.max(above.rect.x1, below.rect.x1),
      y1: below.rect.y1,
    };
    out[out.length - 1] = { rect, rows, grid };
  }
  return out;
}
