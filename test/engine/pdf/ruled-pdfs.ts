/**
 * PDFs with ruled tables, written by the fixture writer: borders as stroked lines (`m l S`, as Word prints
 * them) or as thin filled rectangles (`re f`, as LibreOffice does), text with `Tj` in the standard fonts.
 */
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';

export type BorderStyle = 'stroke' | 'fill' | 'cells';

/** Content-stream operators ruling a grid whose column edges are `xs` and row edges `ys` (PDF space, top first). */
export function gridOperators(xs: readonly number[], ys: readonly number[], style: BorderStyle): string {
  const ops = ['0.5 w 0 G 0 g'];
  const left = xs[0]!;
  const right = xs[xs.length - 1]!;
  const top = ys[0]!;
  const bottom = ys[ys.length - 1]!;
  if (style === 'cells') {
    // One stroked rectangle per cell, as some report generators draw them.
    for (let r = 0; r + 1 < ys.length; r++) {
      for (let c = 0; c + 1 < xs.length; c++) ops.push(`${xs[c]} ${ys[r + 1]} ${xs[c + 1]! - xs[c]!} ${ys[r]! - ys[r + 1]!} re S`);
    }
    return ops.join('\n');
  }
  for (const y of ys) ops.push(style === 'stroke' ? `${left} ${y} m ${right} ${y} l S` : `${left} ${y - 0.25} ${right - left} 0.5 re f`);
  for (const x of xs) ops.push(style === 'stroke' ? `${x} ${bottom} m ${x} ${top} l S` : `${x - 0.25} ${bottom} 0.5 ${top - bottom} re f`);
  return ops.join('\n');
}

/** Text runs for a table's cells: each cell's text 5 pt right of its left edge, 14 pt below its row's top. */
export function cellRuns(
  rows: readonly (readonly string[])[],
  xs: readonly number[],
  ys: readonly number[],
  options: { boldHeader?: boolean; headerSize?: number; size?: number } = {},
): TextRun[] {
  return rows.flatMap((row, r) =>
    row.map((text, c) => ({
      x: xs[c]! + 5,
      y: ys[r]! - 14,
      text,
      size: r === 0 ? (options.headerSize ?? options.size ?? 10) : (options.size ?? 10),
      font: r === 0 && options.boldHeader ? ('bold' as const) : ('regular' as const),
    })),
  );
}

export const PLAIN_TABLE = [
  ['Name', 'Age', 'City'],
  ['Alice', '30', 'Paris'],
  ['Bob', '25', 'Berlin'],
];

/** A page with nothing but a 3 × 3 ruled table, as a word processor prints it. */
export function plainTablePdf(style: BorderStyle): Uint8Array {
  const xs = [72, 222, 372, 522];
  const ys = [700, 680, 660, 640];
  return writePdf({ pages: [{ runs: cellRuns(PLAIN_TABLE, xs, ys), graphics: gridOperators(xs, ys, style) }] });
}

export const INVENTORY_LABELS = ['Report ID: INV-2024-0042', 'Warehouse: North Depot', 'Prepared By: J. Smith', 'Date: 2024-03-31'];
export const INVENTORY_ROWS = [
  ['Item Code', 'Description', 'Qty on Hand', 'Unit Price'],
  ['A-100', 'Steel bolts M8', '1,200', '0.15'],
  ['A-200', 'Hex nuts M8', '950', '0.08'],
  ['B-310', 'Washers', '2,000', '0.03'],
  ['C-020', 'Wood screws 4x40', '600', '0.05'],
];

/**
 * An inventory report: a title, label lines, a sentence, then a ruled table whose header row is bold and set
 * larger than its rows (11 pt over 9 pt) in a taller first row; a closing line under the table.
 */
export function inventoryReportPdf(options: { ruled?: boolean } = {}): Uint8Array {
  const xs = [72, 160, 350, 440, 522];
  const ys = [600, 572, 552, 532, 512, 492];
  const runs: TextRun[] = [
    { x: 72, y: 740, text: 'Inventory Report', size: 18, font: 'bold' },
    ...INVENTORY_LABELS.map((text, i) => ({ x: 72, y: 710 - 14 * i, text, size: 10 })),
    { x: 72, y: 630, text: 'The stock counts below were taken at the close of business on the last day of the quarter.', size: 10 },
    ...INVENTORY_ROWS.flatMap((row, r) =>
      row.map((text, c) => ({
        x: xs[c]! + 5,
        y: r === 0 ? ys[0]! - 18 : ys[r]! - 14,
        text,
        size: r === 0 ? 11 : 9,
        font: r === 0 ? ('bold' as const) : ('regular' as const),
      })),
    ),
    { x: 72, y: 460, text: 'All quantities are in units; prices in euros.', size: 10 },
  ];
  return writePdf({ pages: [{ runs, ...(options.ruled === false ? {} : { graphics: gridOperators(xs, ys, 'stroke') }) }] });
}
