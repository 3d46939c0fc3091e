/**
 * Chart labels: a chart's tick labels and data labels line up like a table's cells, but a column of evenly
 * spaced numbers falling down the rows (400, 350, 300 … 0) is a value axis, and the grid around it is a chart,
 * not a table. Its labels are read as lines of text in their place.
 */

/** Fewest ticks on an axis. */
const MIN_TICKS = 4;
/** How far a step may be from the first one, as a share of it. */
const STEP_TOLERANCE = 0.02;

const NUMBER = /^-?\d{1,7}(?:[.,]\d+)?%?$/;

function numbersOf(cell: string): number[] | undefined {
  const parts = cell.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0 || !parts.every((part) => NUMBER.test(part))) return undefined;
  return parts.map((part) => Number(part.replace(/%$/, '').replace(',', '.')));
}

/** True when the column's numbers, top to bottom, fall by one step at a time (ticks merged in a cell too). */
function isValueAxis(rows: readonly (readonly string[])[], column: number): boolean {
  const ticks: number[] = [];
  let other = 0;
  for (const row of rows) {
    const cell = row[column]?.trim() ?? '';
    if (!cell) continue;
    const numbers = numbersOf(cell);
    if (numbers) ticks.push(...numbers);
    else other++;
  }
  if (ticks.length < MIN_TICKS || other > 1) return false;
  const step = ticks[0]! - ticks[1]!;
  if (!(step > 0)) return false;
  for (let i = 1; i < ticks.length; i++) {
    if (Math.abs(ticks[i - 1]! - ticks[i]! - step) > STEP_TOLERANCE * step) return false;
  }
  return true;
}

/** The grid's rows as lines of text when it is a chart (its first or last column a value axis); else undefined. */
export function chartLabelLines(rows: readonly (readonly string[])[]): string[] | undefined {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  if (width < 2 || rows.length < MIN_TICKS) return undefined;
  if (!isValueAxis(rows, 0) && !isValueAxis(rows, width - 1)) return undefined;
  return rows.map((row) => row.map((cell) => cell.trim()).filter(Boolean).join(' ')).filter(Boolean);
}
