/** The CSV converter on the corpus (against docling's expected Markdown) and on generated files. */
import * as XLSX from '@e965/xlsx';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { convertCsv } from '../../../src/engine/csv/convert-csv.js';
import { csvTextToTable, MAX_CSV_CELLS } from '../../../src/engine/csv/csv-document.js';
import type { DocumentModel } from '../../../src/engine/model.js';
import { convertInput, corpusBytes, corpusText, expectEngineError, readGfmTable, tableOnPage } from '../sheets/helpers.js';

function convert(bytes: Uint8Array | string, fileName = 'data.csv'): Promise<DocumentModel> {
  return convertCsv(convertInput(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes, fileName));
}

function tableMarkdown(model: DocumentModel): string {
  return model.pages[0]?.blocks[0]?.markdown ?? '';
}

describe('convertCsv on the corpus', () => {
  it('csv-comma.csv: the same header and cells as docling', async () => {
    const model = await convert(corpusBytes('csv/csv-comma.csv'), 'csv-comma.csv');
    expect(model.pages).toHaveLength(1);
    expect(model.pages[0]).toMatchObject({ pageNumber: 1, width: null, height: null, status: 'ok' });
    expect(model.pages[0]?.blocks).toHaveLength(1);
    expect(model.pages[0]?.blocks[0]).toMatchObject({ type: 'table', source: 'csv' });
    expect(tableOnPage(model, 1)).toEqual(readGfmTable(corpusText('csv/csv-comma.expected.md')));
    expect(tableOnPage(model, 1)[2]?.[3]).toBe('Lozano, Dr');
    expect(model.warnings).toBeUndefined();
  });

  it('csv-too-many-columns.csv: ragged rows padded to the widest, header included, as docling does', async () => {
    const model = await convert(corpusBytes('csv/csv-too-many-columns.csv'), 'csv-too-many-columns.csv');
    const expected = readGfmTable(corpusText('csv/csv-too-many-columns.expected.md'));
    expect(tableOnPage(model, 1)).toEqual(expected);
    expect(expected[0]).toEqual(['1', '2', '3', '4', '']);
    expect(tableMarkdown(model).split('\n')[0]).toBe('| 1 | 2 | 3 | 4 |  |');
  });

  it('stanley-cups-utf-16.csv: UTF-16 (big-endian) with a BOM', async () => {
    const model = await convert(corpusBytes('csv/stanley-cups-utf-16.csv'), 'stanley-cups-utf-16.csv');
    expect(tableOnPage(model, 1)).toEqual([
      ['Stanley Cups', '', ''],
      ['Team', 'Location', 'Stanley Cups'],
      ['Blues', 'STL', '1'],
      ['Flyers', 'PHI', '2'],
      ['Maple Leafs', 'TOR', '13'],
    ]);
  });
});

describe('convertCsv encodings', () => {
  const text = 'Produit;Prix\nCafé crème;3,50 €\nÉclair;2 €\n';

  it('a windows-1252 file with é and € is decoded, with a warning naming the encoding', async () => {
    const model = await convert(iconv.encode(text, 'windows-1252'));
    expect(tableOnPage(model, 1)).toEqual([['Produit', 'Prix'], ['Café crème', '3,50 €'], ['Éclair', '2 €']]);
    expect(model.warnings).toEqual(['The file is not UTF-8; it was read as windows-1252 (detected).']);
  });

  it('UTF-8 with a BOM, UTF-16 LE without one', async () => {
    const bom = await convert(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    expect(tableOnPage(bom, 1)[0]).toEqual(['Produit', 'Prix']);
    const utf16 = await convert(Buffer.from(text, 'utf16le'));
    expect(tableOnPage(utf16, 1)[1]).toEqual(['Café crème', '3,50 €']);
    expect(utf16.warnings).toBeUndefined();
  });
});

describe('convertCsv delimiters and quoting', () => {
  it('semicolon, tab and pipe delimited files', async () => {
    expect(tableOnPage(await convert('a;b\n1;2\n'), 1)).toEqual([['a', 'b'], ['1', '2']]);
    expect(tableOnPage(await convert('a\tb\n1,5\t2\n'), 1)).toEqual([['a', 'b'], ['1,5', '2']]);
    expect(tableOnPage(await convert('a|b\n1|2\n'), 1)).toEqual([['a', 'b'], ['1', '2']]);
  });

  it("Excel's sep= line chooses the delimiter and is dropped", async () => {
    expect(tableOnPage(await convert('sep=;\r\na,b;c\r\n1,5;2\r\n'), 1)).toEqual([['a,b', 'c'], ['1,5', '2']]);
  });

  it('quoted fields with commas, line breaks and doubled quotes', async () => {
    const model = await convert('name,note\r\n"Doe, Jane","line one\r\nline two"\r\n"The ""best""",plain\r\n');
    expect(tableMarkdown(model)).toBe(
      ['| name | note |', '| --- | --- |', '| Doe, Jane | line one<br>line two |', '| The "best" | plain |'].join('\n'),
    );
  });

  it('escapes pipes in cells', async () => {
    const model = await convert('expr,result\n"a | b",1\n');
    expect(tableMarkdown(model).split('\n')[2]).toBe('| a \\| b | 1 |');
    expect(tableOnPage(model, 1)[1]).toEqual(['a | b', '1']);
  });

  it('skips blank lines and rows of empty fields', async () => {
    expect(tableOnPage(await convert('a,b\n\n1,2\n,\n  ,\n3,4\n\n'), 1)).toEqual([['a', 'b'], ['1', '2'], ['3', '4']]);
  });

  it('an unterminated quote is read as a character, with a warning naming its line', async () => {
    const model = await convert('a,b\n1,"2\n3,4\n');
    expect(tableOnPage(model, 1)).toEqual([['a', 'b'], ['1', '"2'], ['3', '4']]);
    expect(model.warnings).toEqual(['A quoted field opened on line 2 is never closed; its quote was read as a plain character.']);
  });
});

describe('convertCsv edge cases', () => {
  it('an empty file gives a page with no blocks and a warning', async () => {
    for (const content of ['', '\n\n', '\uFEFF', ',,\n,,\n']) {
      const model = await convert(content);
      expect(model.pages).toEqual([{ pageNumber: 1, width: null, height: null, status: 'ok', blocks: [] }]);
      expect(model.warnings).toEqual(['The file is empty: it holds no rows of data.']);
    }
  });

  it('a workbook saved as .csv is converted as a spreadsheet, with a warning', async () => {
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([['x', 'y'], [1, 2]]), 'Data');
    const bytes = new Uint8Array(XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const model = await convert(bytes, 'really-a-workbook.csv');
    expect(model.pages[0]?.blocks[0]?.markdown).toBe('## Data');
    expect(tableOnPage(model, 1)).toEqual([['x', 'y'], ['1', '2']]);
    expect(model.warnings?.[0]).toMatch(/is a spreadsheet workbook, not text/);
  });

  it('binary content → CORRUPT_DOCUMENT', async () => {
    await expectEngineError(convert(corpusBytes('pdf/password.pdf'), 'x.csv'), 'CORRUPT_DOCUMENT', /looks like a PDF document/);
    const noise = Uint8Array.from({ length: 2048 }, (_value, index) => (index * 31) % 7);
    await expectEngineError(convert(noise, 'noise.csv'), 'CORRUPT_DOCUMENT', /binary data/);
  });

  it('a few very long rows that would pad into too many cells → DOCUMENT_TOO_COMPLEX before rendering', () => {
    const wide = 'x,'.repeat(30_000);
    const text = `${wide}\n${'y\n'.repeat(Math.ceil(MAX_CSV_CELLS / 30_000) + 10)}`;
    expect(() => csvTextToTable(text)).toThrow(/the CSV table is too large to convert: .* exceeds 25,000,000 cells/);
  });

  it('a large CSV (~10 MB, 100k rows) converts whole (a quadratic parser would overrun the test timeout)', async () => {
    const lines = ['id,name,amount,comment'];
    for (let index = 0; index < 100_000; index += 1) {
      lines.push(`${index},"Name ${index}",${(index * 1.37).toFixed(2)},"a comment, with ""quotes"" and some more text ${index}"`);
    }
    const text = lines.join('\r\n');
    const model = await convert(text);
    const markdown = tableMarkdown(model);
    expect(markdown.split('\n')).toHaveLength(100_002);
    expect(markdown.endsWith('| 99999 | Name 99999 | 136998.63 | a comment, with "quotes" and some more text 99999 |')).toBe(true);
  });
});
