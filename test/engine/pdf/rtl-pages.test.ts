/**
 * Pages set right to left, printed by LibreOffice from web pages (test/fixtures/printed/hebrew-table.pdf,
 * arabic-report.pdf, each beside its HTML). A table's first column stands at the right edge: read from the PDF, its
 * columns come in reading order, the rightmost first, as the same table reads from the web page it was printed
 * from; tables of left-to-right text keep their order. A list's bullets, each drawn against its item's first word,
 * make a list, an item a line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateParseOptions } from '../../../src/contract/validation.js';
import { parseDocument } from '../../../src/engine/engine.js';
import { mirroredGrid, readsRightToLeft } from '../../../src/engine/pdf/rtl-tables.js';

async function tableLines(name: string, mode?: 'fast'): Promise<string[]> {
  const checked = validateParseOptions(mode ? { parsers: [{ type: 'pdf', mode }] } : {});
  if (!checked.ok) throw new Error('options');
  const bytes = new Uint8Array(readFileSync(new URL(`../../fixtures/printed/${name}`, import.meta.url)));
  const data = await parseDocument({ bytes, fileName: name, options: checked.options });
  return (data.markdown ?? '').split('\n').filter((line) => line.startsWith('|'));
}

describe('a table of right-to-left text', () => {
  it('reads its columns from the right, as the web page it was printed from lists them', async () => {
    for (const name of ['hebrew-table', 'arabic-report']) expect(await tableLines(`${name}.pdf`, 'fast')).toEqual(await tableLines(`${name}.html`));
    const fromPdf = await tableLines('hebrew-table.pdf', 'fast');
    expect(fromPdf[0]).toBe('| מחלקה | רבעון 1 | רבעון 2 |');
    expect(fromPdf).toContain('| פיתוח | 142 | 151 |');
    expect(fromPdf).toEqual(await tableLines('hebrew-table.html'));
  });

  it('is told by its letters, and mirrored with its spans kept', () => {
    expect(readsRightToLeft('מחלקה רבעון 1 Tel Aviv')).toBe(true);
    expect(readsRightToLeft('Department 142 מחלקה')).toBe(false);
    expect(readsRightToLeft('142 151')).toBe(false);
    const grid = {
      rowCount: 2,
      colCount: 3,
      cells: [
        { row: 0, col: 0, rowSpan: 1, colSpan: 2, text: 'a' },
        { row: 0, col: 2, rowSpan: 2, colSpan: 1, text: 'b' },
        { row: 1, col: 0, rowSpan: 1, colSpan: 1, text: 'c' },
        { row: 1, col: 1, rowSpan: 1, colSpan: 1, text: 'd' },
      ],
    };
    expect(mirroredGrid(grid).cells.map((cell) => [cell.text, cell.col])).toEqual([
      ['a', 1],
      ['b', 0],
      ['c', 2],
      ['d', 1],
    ]);
  });
});

describe('a list set right to left', () => {
  it('is a list, an item a line, each bullet apart from the word it is drawn against', async () => {
    const checked = validateParseOptions({ parsers: [{ type: 'pdf', mode: 'fast' }] });
    if (!checked.ok) throw new Error('options');
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/arabic-report.pdf', import.meta.url)));
    const data = await parseDocument({ bytes, fileName: 'arabic-report.pdf', options: checked.options });
    expect((data.markdown ?? '').split('\n').filter((line) => line.startsWith('- '))).toEqual([
      '- افتتاح ثلاثة فروع جديدة.',
      '- زيادة عدد الموظفين إلى 450 موظفا.',
      '- إطلاق الموقع الإلكتروني الجديد.',
    ]);
  });
});
