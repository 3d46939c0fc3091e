/**
 * Grids of aligned text that are not tables, whoever found them (docmill's aligned-text detector or LiteParse):
 * a table of contents (entries with their page numbers), two columns of running prose side by side, a chart's
 * numbers (only numbers, or a value axis with the labels around it), a chart's labels run into its figure
 * caption, a paper's authors side by side (read author by author), and lists side by side (read list by list).
 * Their lines stay text. Pure; reads only the cells' text.
 */
import { authorStackLines } from './author-stacks.js';
import { chartLabelLines } from './charts.js';
import { contentsLines } from './contents.js';
import { listMarker } from './paragraphs.js';
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
 * The rows as lines of text when the grid is a table of contents, a chart's labels or an author block: aligned
 * like a table's cells, read as one entry (or label row, or author's line) a line.
 */
export function readAsLines(rows: readonly (readonly string[])[]): string[] | undefined {
  return contentsLines(rows) ?? chartLabelLines(rows) ?? authorStackLines(rows);
}


/**
 * Lists set side by side (a slide's two columns of bullets) line up like a table whose every cell opens with a
 * bullet: each column's items, in order, when the grid is such lists (two bulleted cells or more, no other text).
 */
export function bulletColumns(rows: readonly (readonly string[])[]): string[][] | undefined {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const columns: string[][] = Array.from({ length: width }, () => []);
  let items = 0;
  for (const row of rows) {
    for (let col = 0; col < row.length; col++) {
      const text = row[col]!.trim();
      if (text === '') continue;
      const marker = listMarker(text);
      if (!marker || marker.ordered) return undefined;
      columns[col]!.push(marker.rest);
      items++;
    }
  }
  return items >= 2 ? columns.filter((column) => column.length > 0) : undefined;
}

/** Whether cells found as a table (rows of cell texts, header first) read as one. */
export function readsAsTable(rows: readonly (readonly string[])[]): boolean {
  return !onlyNumbers(rows) && !isProseSideBySide(rows) && !holdsFigureLabel(rows) && readAsLines(rows) === undefined && bulletColumns(rows) === undefined;
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
