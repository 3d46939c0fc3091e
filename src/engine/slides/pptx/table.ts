/**
 * DrawingML tables (`a:tbl`) → rows of plain cell text. Every grid position has its own `a:tc`; the ones covered
 * by a merge (`hMerge`, `vMerge`) repeat the text of the cell whose `gridSpan`/`rowSpan` covers them, as the Word
 * converter does, so each row reads on its own.
 */
import { tooComplex, MAX_TABLE_CELLS } from '../package.js';
import { plainText } from '../paragraphs.js';
import { attr, elements, type XmlElement } from '../xml.js';
import { type TextContext, textBodyParagraphs } from './text.js';

export function tableRows(table: XmlElement, context: TextContext): string[][] {
  const rows: string[][] = [];
  // Text of the merge origin for each covered position, keyed "row:column".
  const covered = new Map<string, string>();
  let cells = 0;
  let mergeSteps = 0;
  const rowElements = elements(table, 'tr');
  rowElements.forEach((row, rowIndex) => {
    const values: string[] = [];
    elements(row, 'tc').forEach((cell, columnIndex) => {
      cells += 1;
      if (cells > MAX_TABLE_CELLS) throw tooComplex(`a table has more than ${MAX_TABLE_CELLS.toLocaleString('en-US')} cells`);
      const key = `${rowIndex}:${columnIndex}`;
      if (attr(cell, 'hMerge') === '1' || attr(cell, 'vMerge') === '1') {
        values.push(covered.get(key) ?? '');
        return;
      }
      const text = plainText(textBodyParagraphs(elements(cell, 'txBody')[0], context));
      values.push(text);
      const columnSpan = span(attr(cell, 'gridSpan'));
      const rowSpan = Math.min(span(attr(cell, 'rowSpan')), rowElements.length - rowIndex);
      mergeSteps += columnSpan * rowSpan;
      if (mergeSteps > MAX_TABLE_CELLS * 4) throw tooComplex('a table has too many merged cells');
      for (let down = 0; down < rowSpan; down += 1) {
        for (let across = 0; across < columnSpan; across += 1) {
          if (down !== 0 || across !== 0) covered.set(`${rowIndex + down}:${columnIndex + across}`, text);
        }
      }
    });
    rows.push(values);
  });
  return rows;
}

function span(value: string | undefined): number {
  const parsed = Number(value ?? '1');
  return Number.isFinite(parsed) && parsed > 1 ? Math.min(Math.floor(parsed), 1000) : 1;
}
