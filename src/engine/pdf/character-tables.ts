/**
 * Tables typed with characters in a monospaced font: borders of `+----+----+` and `|` (an RFC's tables, a program's
 * output, an e-mail), a Markdown pipe table printed as text (`| a | b |` over `|---|---|`), `psql`'s `----+----`, or
 * box-drawing characters (`┌──┬──┐`, `│`, `├──┼──┤`). Nothing is drawn on the page: the characters are the table,
 * so their `|` part the cells and their rule lines part the header from the body, and, where a rule follows every
 * row, the rows from one another (a row's cell then wraps over the lines between two rules). A line whose first
 * cell is empty carries on the row above where no rule parts the rows. Pure.
 */
import { gridOfRows, renderTableGrid } from './table-grid.js';
import type { FoundTable } from './tables.js';
import { boundingRect } from './measure.js';
import type { TextLine } from './types.js';

/** A rule line: only borders, joints and runs of dashes (three at least). */
const RULE = /^[\s+|:=─━═┼┿╋┬┴├┤┌┐└┘╞╡╪╬╔╗╚╝╠╣╦╩╤╧-]+$/u;
const DASHES = /[-=─━═]{3}/u;
/** A cell border. */
const BAR = /[|│┃║]/u;
/** Lines typed in a monospaced font: a table typed in a proportional one would not line up its borders. */
const MONOSPACED = 0.8;
/** Box-drawing characters: a table typed with them is one whatever the font (they often come from a fallback font). */
const BOX_DRAWING = /[\u2500-\u257f]/u;

type Kind = 'rule' | 'row' | null;

function kindOf(line: TextLine, ascii: boolean): Kind {
  const text = line.text.trim();
  if (!BOX_DRAWING.test(text) && (!ascii || line.monoShare < MONOSPACED)) return null;
  if (RULE.test(text) && DASHES.test(text)) return 'rule';
  return BAR.test(text) ? 'row' : null;
}

/** A row line's cells: its text between the bars, the empty ends outside the outer borders left out. */
function cellsOf(text: string): string[] {
  const cells = text.trim().split(BAR).map((cell) => cell.trim().replace(/\s+/g, ' '));
  if (cells[0] === '' && /^[|│┃║]/u.test(text.trim())) cells.shift();
  if (cells[cells.length - 1] === '' && /[|│┃║]$/u.test(text.trim())) cells.pop();
  return cells;
}

/** The rows of one table: its row lines in groups (rules apart), each group one row or a row a line. */
function rowsOf(groups: readonly (readonly string[][])[]): string[][] {
  // A rule after every row: each group is a row. Else each line is one, but a line whose first cell is empty, which
  // carries on the wrapped cells of the row above it in its group.
  const ruledRows = groups.length >= 3;
  const rowLines: (readonly string[])[][] = [];
  for (const group of groups) {
    group.forEach((cells, i) => {
      if (i === 0 || (!ruledRows && cells[0] !== '')) rowLines.push([cells]);
      else rowLines[rowLines.length - 1]!.push(cells);
    });
  }
  return rowLines.map((lines) => lines[0]!.map((_, col) => lines.map((cells) => cells[col] ?? '').filter(Boolean).join(' ')));
}

/** Whether any of the items holds a cell border (`|`, `│`): no table typed with characters is there without one. */
export function holdsCellBorders(items: readonly { str: string }[]): boolean {
  return items.some((item) => BAR.test(item.str));
}

/**
 * The tables typed with characters among a region's lines (top to bottom), in order: with box-drawing characters
 * anywhere, with ASCII ones (`+`, `-`, `|`) where `ascii` is set (a typewriter page: elsewhere such lines are code).
 */
export function findCharacterTables(lines: readonly TextLine[], ascii: boolean): FoundTable[] {
  const kinds = lines.map((line) => kindOf(line, ascii));
  const tables: FoundTable[] = [];
  for (let start = 0; start < lines.length; start++) {
    if (kinds[start] === null) continue;
    let end = start;
    while (end < lines.length && kinds[end] !== null) end++;
    const table = tableOf(lines, kinds, start, end);
    if (table) tables.push(table);
    start = end;
  }
  return tables;
}

function tableOf(lines: readonly TextLine[], kinds: readonly Kind[], start: number, end: number): FoundTable | undefined {
  const groups: string[][][] = [];
  let rules = 0;
  let current: string[][] | undefined;
  let columns: number | undefined;
  for (let i = start; i < end; i++) {
    if (kinds[i] === 'rule') {
      rules++;
      current = undefined;
      continue;
    }
    const cells = cellsOf(lines[i]!.text);
    // Every row line parts the same columns, two at least.
    if (cells.length < 2 || (columns !== undefined && cells.length !== columns)) return undefined;
    columns = cells.length;
    if (!current) groups.push((current = []));
    current.push(cells);
  }
  const rowLines = groups.reduce((sum, group) => sum + group.length, 0);
  if (rules === 0 || rowLines < 2) return undefined;
  const rows = rowsOf(groups);
  if (rows.length < 2) return undefined;
  const grid = gridOfRows(rows);
  return { start, end, rows, grid, markdown: renderTableGrid(grid), rect: boundingRect(lines.slice(start, end)) };
}
