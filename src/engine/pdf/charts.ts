/**
 * Chart labels: a chart's tick labels and data labels line up like a table's cells, but a column of evenly
 * spaced numbers falling down the rows (400, 350, 300 … 0) is a value axis, and the grid around it is a chart,
 * not a table. So is a row of evenly spaced numbers rising across (0.03 0.06 0.09: a bar chart laid on its side)
 * over rows whose cells beside their label are nearly all empty (the bars are drawn, not written). Its labels are
 * read as lines of text in their place. A header of words over rows that fill every column is a table all the same.
 */

/** Fewest ticks on an axis. */
const MIN_TICKS = 4;
/** How far a step may be from the first one, as a share of it. */
const STEP_TOLERANCE = 0.02;
/** Fewest ticks on an axis across: a row of a bar chart laid on its side shows few. */
const MIN_TICKS_ACROSS = 3;
/**
 * The most of the cells beside the first column, in the rows other than the axis, that a chart laid on its side
 * fills: a table under a header of years is full of values, a bar chart's rows hold their labels and little else.
 */
const MAX_FILLED_BESIDE_LABELS = 0.3;

const NUMBER = /^-?\d{1,7}(?:[.,]\d+)?%?$/;

function numbersOf(cell: string): number[] | undefined {
  const parts = cell.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0 || !parts.every((part) => NUMBER.test(part))) return undefined;
  return parts.map((part) => Number(part.replace(/%$/, '').replace(',', '.')));
}

/**
 * True when the numbers of `cells`, in order, change by one step at a time (ticks merged in a cell too): falling
 * (`direction` -1) or rising (1), at least `minTicks` of them, with at most one cell of words (an axis title).
 */
function isEvenAxis(cells: readonly string[], minTicks: number, direction: 1 | -1): boolean {
  const ticks: number[] = [];
  let other = 0;
  for (const text of cells) {
    const cell = text.trim();
    if (!cell) continue;
    const numbers = numbersOf(cell);
    if (numbers) ticks.push(...numbers);
    else other++;
  }
  if (ticks.length < minTicks || other > 1) return false;
  const step = direction * (ticks[1]! - ticks[0]!);
  if (!(step > 0)) return false;
  for (let i = 1; i < ticks.length; i++) {
    if (Math.abs(direction * (ticks[i]! - ticks[i - 1]!) - step) > STEP_TOLERANCE * step) return false;
  }
  return true;
}

/** True when the column's numbers, top to bottom, fall by one step at a time. */
function isValueAxis(rows: readonly (readonly string[])[], column: number): boolean {
  return isEvenAxis(rows.map((row) => row[column] ?? ''), MIN_TICKS, -1);
}

/** True when the row's numbers, left to right, rise by one step at a time. */
function isValueAxisAcross(row: readonly string[]): boolean {
  return isEvenAxis(row, MIN_TICKS_ACROSS, 1);
}

/** The rows but `axis` leave the cells beside their first column nearly all empty. */
function barsBesideLabels(rows: readonly (readonly string[])[], axis: number, width: number): boolean {
  let cells = 0;
  let filled = 0;
  rows.forEach((row, index) => {
    if (index === axis) return;
    for (let col = 1; col < width; col++) {
      cells++;
      if (row[col]?.trim()) filled++;
    }
  });
  return cells > 0 && filled <= MAX_FILLED_BESIDE_LABELS * cells;
}

/** A bar chart laid on its side: its first or last row a value axis across, its other rows labels and bars. */
function isChartAcross(rows: readonly (readonly string[])[], width: number): boolean {
  const last = rows.length - 1;
  return (
    (isValueAxisAcross(rows[0]!) && barsBesideLabels(rows, 0, width)) ||
    (isValueAxisAcross(rows[last]!) && barsBesideLabels(rows, last, width))
  );
}

/**
 * A header row of words over rows that fill every column: a sheet of numbers, whatever its columns count (1, 2, 3
 * down one, 5, 4, 3 down another). A chart's labels never fill its grid so: an axis's ticks stand in rows of their
 * own, or beside a few data labels and legend entries.
 */
function isFullGridUnderHeader(rows: readonly (readonly string[])[], width: number): boolean {
  const filled = (row: readonly string[]) => row.length === width && row.every((cell) => cell.trim() !== '');
  return rows.every(filled) && rows[0]!.every((cell) => /\p{L}/u.test(cell));
}

/**
 * The grid's rows as lines of text when it is a chart (its first or last column a value axis, or its first or last
 * row one across bars); else undefined.
 */
export function chartLabelLines(rows: readonly (readonly string[])[]): string[] | undefined {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  if (width < 2 || rows.length < MIN_TICKS || isFullGridUnderHeader(rows, width)) return undefined;
  if (!isValueAxis(rows, 0) && !isValueAxis(rows, width - 1) && !isChartAcross(rows, width)) return undefined;
  return rows.map((row) => row.map((cell) => cell.trim()).filter(Boolean).join(' ')).filter(Boolean);
}
