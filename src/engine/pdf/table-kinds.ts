/**
 * Grids of aligned text that are not tables, whoever found them (docmill's aligned-text detector or LiteParse):
 * a table of contents (entries with their page numbers), two columns of running prose side by side, a chart's
 * numbers (only numbers, or a value axis with the labels around it), a chart's labels run into its figure
 * caption, a paper's authors side by side (read author by author), a memo's fields beside their labels (a field a
 * line), and lists side by side (read list by list).
 * Their lines stay text. Pure; reads only the cells' text.
 */
import { authorStackLines } from './author-stacks.js';
import { chartLabelLines } from './charts.js';
import { contentsLines } from './contents.js';
import { fieldLines } from './field-lines.js';
import { LONE_BULLET } from './line-bullets.js';
import { LIST_NUMBER } from './numbers-apart.js';
import { listMarker, type ListMarker } from './paragraphs.js';
import { countWords } from './white-space.js';

/** Fewest rows before a pattern counts. */
const MIN_ROWS = 3;

/**
 * Two or more columns read as running prose: many of their cells (at least three and 40 %) are phrases of two
 * words or more that start in lower case, continuing the sentence of the row above.
 */
function isProseSideBySide(rows: readonly (readonly string[])[]): boolean {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  let proseColumns = 0;
  for (let col = 0; col < width; col++) {
    const cells = rows.map((row) => row[col] ?? '').filter(Boolean);
    const continuing = cells.filter((cell) => /^\p{Ll}/u.test(cell) && countWords(cell) >= 2).length;
    if (continuing >= MIN_ROWS && continuing >= 0.4 * cells.length) proseColumns++;
  }
  return proseColumns >= 2;
}

/** No cell holds a word: the values and tick labels of a chart, which a table would head with labels. */
function onlyNumbers(rows: readonly (readonly string[])[]): boolean {
  return rows.every((row) => row.every((cell) => !/\p{L}/u.test(cell)));
}

/** A figure's label ("Figure 4", "Diagram 2:", "그림 3"): the grid around it is a chart or a diagram and its caption. */
const FIGURE_LABEL = /^(?:Figure|Fig\.|Chart|Graph|Diagram|그림|도표)\s*\d+(?:[.-]\d+)*[a-z]?(?:\s*[:.|—–]|$)/iu;

function holdsFigureLabel(rows: readonly (readonly string[])[]): boolean {
  return rows.some((row) => row.some((cell) => FIGURE_LABEL.test(cell.trim())));
}

/**
 * The rows as lines of text when the grid is a table of contents, a chart's labels, an author block or a memo's
 * fields: aligned like a table's cells, read as one entry (or label row, author's line, field) a line.
 */
export function readAsLines(rows: readonly (readonly string[])[]): string[] | undefined {
  return contentsLines(rows) ?? chartLabelLines(rows) ?? authorStackLines(rows) ?? fieldLines(rows);
}


/** One of the lists set side by side: its label (`Some info:`) when a line heads it, and its items. */
export interface SideList {
  label?: string;
  items: { marker: ListMarker; text: string }[];
}

/** A list's label over its items: a short line. */
const MAX_LABEL_WORDS = 6;
/** An item's wrapped tail, read into a cell of its own under it: a word or two. */
const MAX_TAIL_WORDS = 2;
/** Where a cell holds the next item run on after one (`• I3 • I4`, `2. List2 3. List3`). */
const RUN_ON_ITEM = /\s+(?=(?:[•◦▪▫‣●○■□►▸➢✓✔]|\(?\d{1,3}[.)])\s)/u;

/**
 * Lists set side by side (a slide's text boxes of bullets and numbered items) line up like a table whose cells
 * open with list markers: each column's list, in order, when the grid is such lists. A column's first cell may be
 * the list's label, and a short cell under an item its wrapped tail; any other text makes the grid no such lists.
 * Two items or more in all, and a numbered list two items at least (a row of numbered cells is a table's).
 */
export function listColumns(found: readonly (readonly string[])[]): SideList[] | undefined {
  const rows = withItemsWhole(found);
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const lists: SideList[] = [];
  for (let col = 0; col < width; col++) {
    const list: SideList = { items: [] };
    for (const row of rows) {
      const text = (row[col] ?? '').trim();
      if (text === '') continue;
      for (const part of text.split(RUN_ON_ITEM)) {
        const marker = listMarker(part);
        const last = list.items[list.items.length - 1];
        if (marker) list.items.push({ marker, text: marker.rest });
        else if (!last && list.label === undefined && countWords(part) <= MAX_LABEL_WORDS) list.label = part;
        else if (last && countWords(part) <= MAX_TAIL_WORDS) last.text += ` ${part}`;
        else return undefined;
      }
    }
    if (list.items.length === 0) {
      if (list.label !== undefined) return undefined;
      continue;
    }
    if (list.items.some((item) => item.marker.ordered) && list.items.length < 2) return undefined;
    lists.push(list);
  }
  return lists.reduce((sum, list) => sum + list.items.length, 0) >= 2 ? lists : undefined;
}

/**
 * Whether the rows are a numbered list whose numbers stand apart from their items with no stop after them (a report
 * generator's: `1`, `2`, `3` down a column), found as a table of two columns: a number and its item, the item's
 * wrapped lines under it beside an empty cell. The numbers count up by one from the first, and every item holds
 * words: two columns of figures, or numbers that skip, are a table's. The flow reads such a list where its lines
 * tell it (numbers-apart.ts: numbers in larger type than their items).
 */
export function isNumberedList(rows: readonly (readonly string[])[]): boolean {
  let last: number | undefined;
  let items = 0;
  for (const row of rows) {
    const cells = row.map((cell) => cell.trim()).filter((cell, at) => at < 2 || cell !== '');
    if (cells.length !== 2 || cells[1] === '') return false;
    const [number, text] = cells as [string, string];
    if (number === '') {
      if (last === undefined) return false;
      continue;
    }
    if (!LIST_NUMBER.test(number) || !/\p{L}{2}/u.test(text)) return false;
    if (last !== undefined && Number(number) !== last + 1) return false;
    last = Number(number);
    items++;
  }
  return items >= 2;
}

/**
 * Lists narrower than their items, as a text box prints them, read with their items whole: a column of bullets
 * alone joined with the column right of it, row by row (the items' words hung apart from their bullets: `•` | `l`),
 * and a column of a word or two in the rows a list's column leaves empty joined with that column (the items' wrapped
 * tails, set lower: `• l` over `1`).
 */
function withItemsWhole(rows: readonly (readonly string[])[]): readonly (readonly string[])[] {
  let joined = rows;
  const cellsOf = (col: number) => joined.map((row) => (row[col] ?? '').trim());
  const join = (col: number) => {
    joined = joined.map((row) => [...row.slice(0, col), [row[col] ?? '', row[col + 1] ?? ''].map((cell) => cell.trim()).filter(Boolean).join(' '), ...row.slice(col + 2)]);
  };
  const width = () => joined.reduce((max, row) => Math.max(max, row.length), 0);
  for (let col = width() - 2; col >= 0; col--) {
    const cells = cellsOf(col).filter(Boolean);
    if (cells.length > 0 && cells.every((cell) => LONE_BULLET.test(cell))) join(col);
  }
  for (let col = width() - 1; col >= 1; col--) {
    const tails = cellsOf(col);
    const items = cellsOf(col - 1);
    const filled = tails.filter(Boolean);
    const apart = tails.every((tail, row) => tail === '' || items[row] === '');
    if (filled.length > 0 && apart && items.some((cell) => listMarker(cell)) && filled.every((tail) => !listMarker(tail) && countWords(tail) <= MAX_TAIL_WORDS)) join(col - 1);
  }
  return joined;
}

/** Whether cells found as a table (rows of cell texts, header first) read as one. */
export function readsAsTable(rows: readonly (readonly string[])[]): boolean {
  return (
    !onlyNumbers(rows) &&
    !isProseSideBySide(rows) &&
    !holdsFigureLabel(rows) &&
    readAsLines(rows) === undefined &&
    listColumns(rows) === undefined
  );
}

/** A cell of nothing but a formula's operators, or the comma after it: a piece of a display formula. */
const OPERATOR_CELL = /^[=+−×÷√∑∏∫<>≤≥≈≠±∓,;]+$/u;

/**
 * A display formula set over several lines (a fraction's numerator and denominator, a root, the equals sign
 * between them) lines its pieces up like a table's cells; one of them is a bare operator, as no table's cell is.
 */
export function isFormulaPieces(rows: readonly (readonly string[])[]): boolean {
  return rows.some((row) => row.some((cell) => OPERATOR_CELL.test(cell.replace(/\s+/g, ''))));
}
