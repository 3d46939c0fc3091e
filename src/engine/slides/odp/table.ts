/**
 * OpenDocument tables (`table:table`, in slides and in chart objects) → rows of plain cell text. Rows may sit in
 * header-row, row and row-group containers; `number-rows-repeated` / `number-columns-repeated` are expanded
 * (bounded); positions covered by a merge (`table:covered-table-cell`) repeat the text of the cell whose span covers
 * them, as the PowerPoint reader does.
 */
import { MAX_TABLE_CELLS, tooComplex } from '../package.js';
import { plainText } from '../paragraphs.js';
import { attr, elements, MAX_XML_DEPTH, type XmlElement } from '../xml.js';
import { odfParagraphs, type OdpTextContext } from './text.js';

/** Repeats honoured per row or cell: beyond this, repeated rows and columns are formatting, not content. */
const MAX_REPEAT = 1_000;

export function odfTableRows(table: XmlElement, context: OdpTextContext): string[][] {
  const rowElements: XmlElement[] = [];
  const gather = (container: XmlElement, depth: number) => {
    if (depth > MAX_XML_DEPTH) return;
    for (const element of elements(container)) {
      if (element.name === 'table-row') rowElements.push(element);
      else if (['table-header-rows', 'table-rows', 'table-row-group'].includes(element.name)) gather(element, depth + 1);
    }
  };
  gather(table, 0);

  const rows: string[][] = [];
  const covered = new Map<string, string>();
  let cells = 0;
  let mergeSteps = 0;
  for (const row of rowElements) {
    const rowRepeat = repeat(attr(row, 'table:number-rows-repeated'));
    const values: string[] = [];
    const rowIndex = rows.length;
    for (const cell of elements(row, 'table-cell', 'covered-table-cell')) {
      const columnRepeat = repeat(attr(cell, 'table:number-columns-repeated'));
      for (let copy = 0; copy < columnRepeat; copy += 1) {
        cells += rowRepeat;
        if (cells > MAX_TABLE_CELLS) throw tooComplex(`a table has more than ${MAX_TABLE_CELLS.toLocaleString('en-US')} cells`);
        const column = values.length;
        if (cell.name === 'covered-table-cell') {
          values.push(covered.get(`${rowIndex}:${column}`) ?? '');
          continue;
        }
        const text = plainText(odfParagraphs(cell, context));
        values.push(text);
        const columnSpan = span(attr(cell, 'table:number-columns-spanned'));
        const rowSpan = span(attr(cell, 'table:number-rows-spanned'));
        mergeSteps += columnSpan * rowSpan;
        if (mergeSteps > MAX_TABLE_CELLS * 4) throw tooComplex('a table has too many merged cells');
        for (let down = 0; down < rowSpan; down += 1) {
          for (let across = 0; across < columnSpan; across += 1) {
            if (down !== 0 || across !== 0) covered.set(`${rowIndex + down}:${column + across}`, text);
          }
        }
      }
    }
    for (let copy = 0; copy < rowRepeat; copy += 1) rows.push(copy === 0 ? values : [...values]);
  }
  return rows;
}

function repeat(value: string | undefined): number {
  const parsed = Number(value ?? '1');
  return Number.isInteger(parsed) && parsed > 1 ? Math.min(parsed, MAX_REPEAT) : 1;
}

function span(value: string | undefined): number {
  const parsed = Number(value ?? '1');
  return Number.isInteger(parsed) && parsed > 1 ? Math.min(parsed, MAX_REPEAT) : 1;
}
