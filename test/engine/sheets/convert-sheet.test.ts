/** The spreadsheet converter on the test corpus: every workbook, the encrypted ones and broken inputs. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DocumentModel } from '../../../src/engine/model.js';
import { convertSpreadsheet, EMPTY_SHEET_TEXT } from '../../../src/engine/sheets/convert-sheet.js';
import { cutInside } from '../../helpers/cut-zip.js';
import {
  blocksOf,
  CORPUS,
  convertInput,
  corpusBytes,
  corpusText,
  expectEngineError,
  readGfmTable,
  tableOnPage,
  tablesOnPage,
} from './helpers.js';

function convertCorpus(relative: string): Promise<DocumentModel> {
  return convertSpreadsheet(convertInput(corpusBytes(relative), relative.split('/').pop() ?? relative));
}

/** Docling's expected Markdown for a workbook: `## name` sections, each with its tables. */
function expectedSections(relative: string): Map<string, string[][][]> {
  const sections = new Map<string, string[][][]>();
  let current: string[][][] = [];
  for (const chunk of corpusText(relative).split(/\n{2,}/)) {
    const heading = /^## (.*)$/.exec(chunk.trim());
    if (heading) {
      current = [];
      sections.set(heading[1] ?? '', current);
    } else if (chunk.trim().startsWith('| ') && /\n\| -/.test(chunk)) {
      current.push(readGfmTable(chunk));
    }
  }
  return sections;
}

describe('convertSpreadsheet on the corpus', () => {
  it('finds the corpus next to the checkout', () => {
    expect(existsSync(new URL('xlsx/xlsx_01.xlsx', CORPUS))).toBe(true);
  });

  const workbooks: [string, string[]][] = [
    ['xlsx/2023-half-year-analyses-by-segment.xlsx', [
      'OS-Rev.and results 30 06 2023',
      'OS-Other information 30 06 2023',
      'Prod.Rev.and results 30 06 2023',
      'Prod.-Other inform. 30 06 23',
      'Reconciliation 30 06 2023',
    ]],
    ['xlsx/empty.xlsx', ['Sheet1']],
    ['xlsx/xlsx_01.xlsx', ['Sheet1', 'Sheet2', 'Sheet3', 'Sheet4']],
    ['xlsx/xlsx_06_edge_cases_.xlsx', ['missing_header_head', 'Attached_left', 'Diagonal']],
    ['xlsm/vba.xlsm', ['Sheet1', 'Sheet2', 'Sheet3']],
    ['xlsm/xlsx_02_sample_sales_data.xlsm', ['SalesData']],
    ['xlsb/sample.xlsb', ['Sheet1', 'rich test', 'Sheet3']],
    ['xls/biff5-rich-text-string.xls', ['Sheet1']],
    ['xls/tests-example.xls', ['Example Test', 'Format Abbr.', 'Readme']],
    ['ods/merged_cells.ods', ['Sheet1']],
  ];

  it.each(workbooks)('%s: one page per sheet, a section header then tables, lines or "(empty sheet)"', async (file, names) => {
    const model = await convertCorpus(file);
    expect(model.metadata.sheetNames).toEqual(names);
    expect(model.pages.map((page) => page.pageNumber)).toEqual(names.map((_name, index) => index + 1));
    model.pages.forEach((page, index) => {
      expect(page.width).toBeNull();
      expect(page.height).toBeNull();
      expect(page.status).toBe('ok');
      expect(page.blocks[0]).toMatchObject({ type: 'section_header', markdown: `## ${names[index]}`, source: 'sheet' });
      const body = page.blocks.slice(1);
      expect(body.length).toBeGreaterThan(0);
      for (const block of body) {
        expect(block.source).toBe('sheet');
        if (block.type === 'table') {
          const lines = block.markdown.split('\n');
          expect(lines[1]).toMatch(/^\|( --- \|)+$/);
          const width = lines[1]?.split('---').length;
          for (const line of lines) expect(line.split(/(?<!\\)\|/).length).toBe((width ?? 0) + 1);
        } else {
          expect(['text', 'caption']).toContain(block.type);
          expect(block.markdown).not.toMatch(/\n\n/);
        }
      }
      if (body.length === 1 && body[0]?.type === 'text') expect(body[0].markdown).not.toBe('');
    });
  });

  it('xlsx_01: tables match docling, one table per region of the sheet; the hidden sheet is kept and listed', async () => {
    const model = await convertCorpus('xlsx/xlsx_01.xlsx');
    const expected = expectedSections('xlsx/xlsx_01.expected.md');
    expect(tableOnPage(model, 1)).toEqual(expected.get('Sheet1')?.[0]);
    // Sheet2 holds three tables, two side by side and one below: three tables in reading order, as docling has
    // them (its chart tables are the two after them).
    const sheet2 = tablesOnPage(model, 2);
    const [first, second, third] = expected.get('Sheet2') ?? [];
    expect(sheet2.slice(0, 3)).toEqual([first, second, third]);
    // Its two charts follow, in the order they sit on the sheet: title, kind, and the series they plot.
    const captions = model.pages[1]?.blocks.filter((block) => block.type === 'caption').map((block) => block.markdown);
    expect(captions).toEqual(["Line chart: 'col-3'", "Scatter chart: 'col-2', 'col-3', 'col-4' by 'col-1'"]);
    expect(sheet2[3]).toEqual([['', 'col-3'], ['1', '3'], ['2', '6'], ['3', '9'], ['4', '12']]);
    expect(sheet2[4]?.[0]).toEqual(['', 'col-2', 'col-3', 'col-4']);
    expect(sheet2[4]?.[8]).toEqual(['8', '16', '24', '32']);
    // Sheet4 is hidden in the workbook (docling leaves it out).
    expect(model.metadata.hiddenSheets).toEqual(['Sheet4']);
    expect(tableOnPage(model, 4)).toEqual([['header'], ['1']]);
    expect(model.metadata.author).toBe('Peter Staar');
  });

  it('xlsx_01 Sheet3: a merged value stays in the top-left cell, the rest of the merge is left empty', async () => {
    const model = await convertCorpus('xlsx/xlsx_01.xlsx');
    const rows = tableOnPage(model, 3);
    // B1:C1 is one merged "header" cell, A1:A2 one merged "first" cell.
    expect(rows[0]?.slice(0, 3)).toEqual(['first', 'header', '']);
    expect(rows[1]?.slice(0, 3)).toEqual(['', 'second', 'third']);
  });

  it('xlsx_06 edge cases: missing header cell, a left column, two tables touching at a corner', async () => {
    const model = await convertCorpus('xlsx/xlsx_06_edge_cases_.xlsx');
    const expected = expectedSections('xlsx/xlsx_06_edge_cases_.expected.md');
    expect(tablesOnPage(model, 1)).toEqual(expected.get('missing_header_head'));
    expect(tablesOnPage(model, 2)).toEqual(expected.get('Attached_left'));
    expect(tablesOnPage(model, 3)).toEqual(expected.get('Diagonal'));
    expect(model.metadata.language).toBe('en-US');
  });

  it('xlsm sales data: dates shown with their number format, numbers as Excel shows them', async () => {
    const model = await convertCorpus('xlsm/xlsx_02_sample_sales_data.xlsm');
    const rows = tableOnPage(model, 1);
    const expected = readGfmTable(corpusText('xlsm/xlsx_02_sample_sales_data.expected.md').split('\n\n')[1] ?? '');
    expect(rows[0]).toEqual(['Product', 'Date', 'Quantity', 'Revenue']);
    expect(rows).toHaveLength(expected.length);
    // The cells carry the format yyyy-mm-dd h:mm:ss, so Excel shows "2024-01-01 0:00:00" (docling: 00:00:00).
    expect(rows[1]).toEqual(['Widget A', '2024-01-01 0:00:00', '5', '5000']);
    rows.forEach((row, index) => {
      expect(row[0]).toBe(expected[index]?.[0]);
      expect(row[2]).toBe(expected[index]?.[2]);
      expect(row[3]).toBe(expected[index]?.[3]);
    });
  });

  it('the Nestlé report: formula results and accounting formats, line breaks in cells, author', async () => {
    const model = await convertCorpus('xlsx/2023-half-year-analyses-by-segment.xlsx');
    // The heading typed above the tables is a line, not a one-cell table header.
    expect(model.pages[0]?.blocks[1]).toMatchObject({ type: 'text', markdown: '3\\. Analyses by segment' });
    const rows = tableOnPage(model, 1);
    expect(rows[0]?.[0]).toBe('In millions of CHF');
    // The 2-character spacer columns between column groups and the 4.5-point row under the header do not split
    // the statement; the two blank rows before the 2022 figures do.
    const total = rows.find((row) => row[0] === 'Total');
    expect(total).toEqual(['Total', '46,293', '7,904', '7,351', '(553)', '(110)', '(262)', '(1,722)']);
    const other = rows.find((row) => row[0] === 'Other businesses (d)');
    expect(other?.[4]).toBe('—');
    expect(tablesOnPage(model, 1)).toHaveLength(2);
    expect(tablesOnPage(model, 1)[1]?.find((row) => row[0] === 'Total')?.[1]).toBe('45,580');
    const table = model.pages[0]?.blocks.find((block) => block.type === 'table')?.markdown ?? '';
    expect(table).toContain('| Underlying Trading<br>operating profit (b) |');
    expect(table).not.toMatch(/\n(?!\|)/);
    expect(model.metadata.author).toBe('ibays');
    expect(model.metadata.title).toBeUndefined();
  });

  it('merged_cells.ods: the merged A2:A3 shows its value once, in A2', async () => {
    const model = await convertCorpus('ods/merged_cells.ods');
    expect(tableOnPage(model, 1)).toEqual([
      ['A', 'B', 'C'],
      ['A', 'B', 'C'],
      ['', '', 'C'],
    ]);
  });

  it('tests-example.xls: several BIFF8 sheets, merged titles, Greek letters', async () => {
    const model = await convertCorpus('xls/tests-example.xls');
    expect(model.pages).toHaveLength(3);
    const questions = tableOnPage(model, 1);
    expect(questions[0]).toEqual(['MC', 'What is 2+2?', '4', 'correct', '3', 'incorrect', '', '', '']);
    expect(questions.find((row) => row[0] === 'MAT')).toEqual([
      'MAT', 'Match the lower-case greek letter with its capital form.', 'λ', 'Λ', 'α', 'γ', 'Γ', 'φ', 'Φ',
    ]);
    // A merged title above the table is a line, not the header.
    const abbreviations = tableOnPage(model, 2);
    const titleIndex = model.pages[1]?.blocks.findIndex((block) => block.markdown === 'Question Format Abbreviations') ?? -1;
    expect(model.pages[1]?.blocks[titleIndex]).toMatchObject({ type: 'text', label: 'table-title' });
    expect(model.pages[1]?.blocks[titleIndex + 1]?.type).toBe('table');
    expect(abbreviations[0]).toEqual(['Abbreviation', 'Question Type']);
    expect(abbreviations).toContainEqual(['FIB_PLUS', 'Multiple Fill in the Blank']);
    // The Readme sheet is headings and paragraphs in one column: lines, not one-column tables.
    const readme = model.pages[2]?.blocks.slice(1) ?? [];
    expect(readme.every((block) => block.type === 'text')).toBe(true);
    expect(readme.map((block) => block.markdown).slice(0, 4)).toEqual([
      'http://www.cmu.edu/blackboard',
      'File Information',
      'Source',
      'http://www.cmu.edu/blackboard/files/evaluate/tests-example.xls',
    ]);
  });

  it('biff5-rich-text-string.xls: BIFF5 rich-text strings come out as plain text', async () => {
    const model = await convertCorpus('xls/biff5-rich-text-string.xls');
    const rows = tableOnPage(model, 1);
    expect(model.pages[0]?.blocks[1]).toMatchObject({
      type: 'text',
      label: 'table-title',
      markdown: 'ELECTORAL DIVISION OF SOMERSET EAST ; FIELD-CÓRNËTCY No. 5, ZWAGERSHÓÊN.',
    });
    expect(rows[0]?.slice(0, 3)).toEqual(['No.', 'Surname in full.', 'Christian Names (if any) in full.']);
    expect(rows[1]).toEqual(['1788', 'McNally', 'Henry', 'Cape Police', 'Salary', 'Grootvlakte', 'Colonial Government', 'E']);
    expect(rows.some((row) => row.includes('Luípésklip'))).toBe(true);
  });

  it('sample.xlsb: text, numbers and an empty third sheet', async () => {
    const model = await convertCorpus('xlsb/sample.xlsb');
    const rows = tableOnPage(model, 1);
    expect(rows[0]).toEqual(['Lorem', '111']);
    expect(rows).toHaveLength(10);
    expect(model.pages[1]?.blocks[1]?.markdown).toBe('The quick brown fox jumps over the lazy dog');
    expect(model.pages[2]?.blocks[1]).toMatchObject({ type: 'text', markdown: EMPTY_SHEET_TEXT });
  });

  it('empty.xlsx and vba.xlsm: sheets without data say so', async () => {
    for (const file of ['xlsx/empty.xlsx', 'xlsm/vba.xlsm']) {
      const model = await convertCorpus(file);
      for (const block of blocksOf(model).filter((b) => b.type !== 'section_header')) {
        expect(block).toEqual({ type: 'text', label: null, markdown: EMPTY_SHEET_TEXT, bbox: null, source: 'sheet' });
      }
    }
  });
});

describe('convertSpreadsheet on protected and broken files', () => {
  it.each(['xlsx/password_protected.xlsx', 'xlsb/protected_passtika.xlsb', 'ods/pass_protected.ods'])(
    '%s → ENCRYPTED_DOCUMENT',
    async (file) => {
      await expectEngineError(convertCorpus(file), 'ENCRYPTED_DOCUMENT', /the workbook is password-protected/);
    },
  );

  it('an empty file → EMPTY_DOCUMENT', async () => {
    await expectEngineError(convertSpreadsheet(convertInput(new Uint8Array(0), 'e.xlsx')), 'EMPTY_DOCUMENT', /empty/);
  });

  it('a PDF named .xlsx → CORRUPT_DOCUMENT naming what it looks like', async () => {
    await expectEngineError(
      convertSpreadsheet(convertInput(corpusBytes('pdf/password.pdf'), 'report.xlsx')),
      'CORRUPT_DOCUMENT',
      /not a spreadsheet \(it looks like a PDF document\)/,
    );
  });

  it('a Word document named .xlsx → CORRUPT_DOCUMENT saying so', async () => {
    await expectEngineError(
      convertSpreadsheet(convertInput(corpusBytes('docx/footnotes.docx'), 'notes.xlsx')),
      'CORRUPT_DOCUMENT',
      /not a spreadsheet: it is a Word document/,
    );
  });

  it('a Word 97 .doc named .xls → CORRUPT_DOCUMENT with the cause', async () => {
    await expectEngineError(
      convertSpreadsheet(convertInput(corpusBytes('doc/legacy_sample.doc'), 'legacy.xls')),
      'CORRUPT_DOCUMENT',
      /cannot be read \(.+\)/,
    );
  });

  it('truncated .xlsx and .xls → CORRUPT_DOCUMENT', async () => {
    const xlsx = corpusBytes('xlsx/xlsx_01.xlsx');
    await expectEngineError(
      // Cut inside the workbook part: what is whole before it is no workbook (a later cut is read: bytes/zip-repair.test.ts).
      convertSpreadsheet(convertInput(cutInside(xlsx, 'xl/workbook.xml'), 'half.xlsx')),
      'CORRUPT_DOCUMENT',
      /damaged or truncated/,
    );
    const xls = corpusBytes('xls/tests-example.xls');
    await expectEngineError(convertSpreadsheet(convertInput(xls.subarray(0, 8000), 'half.xls')), 'CORRUPT_DOCUMENT');
  });

  it('random bytes → CORRUPT_DOCUMENT rather than a sheet of garbage', async () => {
    const bytes = new Uint8Array(4096).map((_value, index) => (index * 7919 + 13) % 256);
    await expectEngineError(convertSpreadsheet(convertInput(bytes, 'noise.xls')), 'CORRUPT_DOCUMENT');
  });

  it('delimited text saved as .xls is read as CSV, with a warning', async () => {
    const bytes = new TextEncoder().encode('name\tqty\nbolt\t4\nnut\t10\n');
    const model = await convertSpreadsheet(convertInput(bytes, 'export.xls'));
    expect(tableOnPage(model, 1)).toEqual([['name', 'qty'], ['bolt', '4'], ['nut', '10']]);
    expect(model.warnings?.[0]).toMatch(/\.xls file holds delimited text/);
  });
});
