/**
 * HTML tables to GFM tables.
 *
 * The table is first laid out as a grid the way a browser would place its cells:
 * - `rowspan` repeats the cell's content in every row it covers, `colspan` in every column it covers (so each
 *   column and row reads on its own, as docling's output does); Excel's "overflow" colspans
 *   (`style="mso-ignore:colspan"`, text running into empty neighbours) fill only their first column;
 * - rows and columns left entirely empty are dropped (spacer rows, Excel's empty columns);
 * - the header row is the `<thead>` rows, else the leading rows made only of `<th>`, else the first row (GFM
 *   requires one); several header rows are merged column by column ("Year ended" over "2021" → "Year ended 2021").
 *
 * Cell content is converted to Markdown by the caller's converter, then made to fit on one line: line breaks and
 * paragraphs become `<br>`, lists stay recognisable (`- Pond<br>- Marsh`), pipes are escaped. A nested table inside
 * a cell is flattened to its rows (`<br>` between rows, ` | ` between cells).
 */
import { type DomElement, elementChildren, normalisedText, tagOf } from './dom.js';

/** Browsers cap spans at these values; a hostile table cannot make the grid explode beyond them. */
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;
const MAX_GRID_CELLS = 1_000_000;

export type CellToMarkdown = (cell: DomElement) => string;

interface RowInfo {
  row: DomElement;
  header: boolean;
}

/** The rows of this table (not of tables nested in its cells), thead first and tfoot last. */
export function tableRows(table: DomElement): RowInfo[] {
  const head: RowInfo[] = [];
  const body: RowInfo[] = [];
  const foot: RowInfo[] = [];
  for (const child of elementChildren(table)) {
    const tag = tagOf(child);
    if (tag === 'tr') body.push({ row: child, header: false });
    else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') {
      const target = tag === 'thead' ? head : tag === 'tfoot' ? foot : body;
      for (const row of elementChildren(child)) {
        if (tagOf(row) === 'tr') target.push({ row, header: tag === 'thead' });
      }
    }
  }
  return [...head, ...body, ...foot];
}

export function rowCells(row: DomElement): DomElement[] {
  return [...elementChildren(row)].filter((cell) => {
    const tag = tagOf(cell);
    return tag === 'td' || tag === 'th';
  });
}

/**
 * Where a table was made: on a web page, where tables often lay out the page, or in a document (Word,
 * OpenDocument), where a table is a table, its nested tables included (a form's grid of sub-tables).
 */
export type TableOrigin = 'web' | 'document';

/**
 * A table used for page layout rather than data: a single cell; a single column with no header cells; or, on a
 * web page, one whose cells hold other tables while it has no header cells of its own. Its cells are read as
 * ordinary content.
 */
export function isLayoutTable(table: DomElement, origin: TableOrigin = 'web'): boolean {
  const rows = tableRows(table);
  if (rows.length === 0) return true;
  let maxCells = 0;
  let hasHeaderCell = false;
  for (const { row, header } of rows) {
    const cells = rowCells(row);
    maxCells = Math.max(maxCells, cells.reduce((sum, cell) => sum + span(cell, 'colspan', MAX_COLSPAN), 0));
    if (header || cells.some((cell) => tagOf(cell) === 'th')) hasHeaderCell = true;
  }
  if (maxCells <= 1 && (rows.length === 1 || !hasHeaderCell)) return true;
  if (origin === 'web' && !hasHeaderCell && table.querySelector('table') !== null) return true;
  return false;
}

export function tableToGfm(table: DomElement, cellToMarkdown: CellToMarkdown): string {
  const rows = tableRows(table);
  if (rows.length === 0) return '';

  // Place the cells first (the table's width is known only once every row is placed), then fill the grid.
  interface Placement {
    row: number;
    column: number;
    rowspan: number;
    colspan: number;
    cell: DomElement;
    overflow: boolean;
  }
  const occupied: boolean[][] = [];
  const placements: Placement[] = [];
  const headerFlags: boolean[] = [];
  let width = 0;
  let area = 0;
  rows.forEach(({ row, header }, rowIndex) => {
    headerFlags[rowIndex] = header;
    const taken = (occupied[rowIndex] ??= []);
    let column = 0;
    for (const cell of rowCells(row)) {
      while (taken[column] === true) column += 1;
      const colspan = span(cell, 'colspan', MAX_COLSPAN);
      const rawRowspan = Number.parseInt(cell.getAttribute('rowspan') ?? '1', 10);
      // rowspan=0 means "to the end of the section"; treat it as the rest of the table.
      const rowspan =
        rawRowspan === 0 ? rows.length - rowIndex : Math.min(span(cell, 'rowspan', MAX_ROWSPAN), rows.length - rowIndex);
      area += rowspan * colspan;
      if (area > MAX_GRID_CELLS) break;
      for (let dr = 0; dr < rowspan; dr += 1) {
        const target = (occupied[rowIndex + dr] ??= []);
        for (let dc = 0; dc < colspan; dc += 1) target[column + dc] = true;
      }
      const overflow = /mso-ignore\s*:\s*colspan/i.test(cell.getAttribute('style') ?? '');
      placements.push({ row: rowIndex, column, rowspan, colspan, cell, overflow });
      column += colspan;
      width = Math.max(width, column);
    }
  });
  // Leading rows made only of <th> are header rows too when there is no <thead>.
  let headerCount = headerFlags.filter(Boolean).length;
  if (headerCount === 0) {
    for (const { row } of rows) {
      const cells = rowCells(row);
      if (cells.length > 0 && cells.every((cell) => tagOf(cell) === 'th')) headerCount += 1;
      else break;
    }
    if (headerCount === rows.length && rows.length > 1) headerCount = 1;
  }

  const grid: string[][] = rows.map(() => new Array<string>(width).fill(''));
  for (const placement of placements) {
    const content = cellText(placement.cell, cellToMarkdown);
    if (content === '') continue;
    // A cell spanning the whole width (a title or section row, an infobox image) is written once, not repeated in
    // every column; Excel's overflow spans likewise fill only their first column.
    const firstColumnOnly = placement.overflow || (placement.colspan === width && width > 1);
    for (let dr = 0; dr < placement.rowspan; dr += 1) {
      const target = grid[placement.row + dr] as string[];
      for (let dc = 0; dc < placement.colspan; dc += 1) {
        if (dc > 0 && firstColumnOnly) break;
        target[placement.column + dc] = content;
      }
    }
  }

  // Drop rows and columns with nothing in them.
  const keptRows: number[] = [];
  grid.forEach((row, index) => {
    if (row.some((cell) => cell !== '')) keptRows.push(index);
  });
  if (keptRows.length === 0) return '';
  const keptColumns: number[] = [];
  for (let column = 0; column < width; column += 1) {
    if (keptRows.some((index) => (grid[index]?.[column] ?? '') !== '')) keptColumns.push(column);
  }
  const project = (index: number) => keptColumns.map((column) => grid[index]?.[column] ?? '');
  const headerRows = keptRows.filter((index) => index < headerCount);
  const bodyRows = keptRows.filter((index) => index >= headerCount);

  let header: string[];
  if (headerRows.length === 0) {
    // No header row: the first row becomes the GFM header.
    header = project(bodyRows.shift() as number);
  } else {
    const parts = headerRows.map(project);
    header = keptColumns.map((_column, position) => {
      const values: string[] = [];
      for (const row of parts) {
        const value = row[position] ?? '';
        if (value !== '' && values[values.length - 1] !== value) values.push(value);
      }
      return values.join(' ');
    });
  }

  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const lines = [line(header), `| ${header.map(() => '---').join(' | ')} |`];
  for (const index of bodyRows) lines.push(line(project(index)));
  return lines.join('\n');
}

function span(cell: DomElement, attribute: 'colspan' | 'rowspan', max: number): number {
  const value = Number.parseInt(cell.getAttribute(attribute) ?? '1', 10);
  if (!Number.isFinite(value) || value < 1) return 1;
  return Math.min(value, max);
}

/** One cell's Markdown on a single line. */
function cellText(cell: DomElement, cellToMarkdown: CellToMarkdown): string {
  let source = cell;
  if (cell.querySelector('table') !== null) {
    // Flatten nested tables in a copy: rows on their own lines, cells separated by " | ".
    source = cell.cloneNode(true) as DomElement;
    const nested = [...source.querySelectorAll('table')].filter((table) => isInside(table, source));
    for (const table of nested) {
      const document = table.ownerDocument;
      if (document === null) continue;
      const replacement = document.createElement('div');
      for (const { row } of tableRows(table)) {
        const texts = rowCells(row)
          .map((nestedCell) => normalisedText(nestedCell))
          .filter((text) => text !== '');
        if (texts.length === 0) continue;
        const paragraph = document.createElement('p');
        paragraph.appendChild(document.createTextNode(texts.join(' | ')));
        replacement.appendChild(paragraph);
      }
      table.replaceWith(replacement);
    }
  }
  const markdown = cellToMarkdown(source);
  return markdown
    .replace(/\s*\n+\s*/g, '<br>')
    .replace(/(?:<br>){2,}/g, '<br>')
    .replace(/(?<!\\)\|/g, '\\|')
    .trim();
}

/** True when `table` is a descendant of `root` (a table nested deeper is flattened with its outer table). */
function isInside(table: DomElement, root: DomElement): boolean {
  for (let parent = table.parentElement; parent !== null; parent = parent.parentElement) {
    if (parent === root) return true;
    if (tagOf(parent) === 'table') return false;
  }
  return false;
}
