/**
 * Table kinds on real pages of the PDF benchmark (copied into test/fixtures/pdf-bench with their origin): what a
 * reader of the Markdown sees, a pipe table when no cell spans, an HTML table with rowspan/colspan when cells do,
 * and the table block on its page. Pages are read by LiteParse (mode fast, the path every page with a text
 * layer takes there); the kinds the built-in pdfjs path reads the same way are checked on it too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DocumentModel } from '../../../src/engine/model.js';
import { allBlocks, convertBytes, convertWithPdfjs, mainMarkdown } from './helpers.js';

const PAGES = new URL('../../fixtures/pdf-bench/', import.meta.url);

function page(id: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`${id}.pdf`, PAGES)));
}

const liteParse = (bytes: Uint8Array) => convertBytes(bytes, { mode: 'fast' });
const pdfjs = (bytes: Uint8Array) => convertWithPdfjs(bytes, { mode: 'fast' });

function tables(model: DocumentModel): string[] {
  return allBlocks(model)
    .filter((block) => block.type === 'table')
    .map((block) => block.markdown);
}

describe('tables on benchmark pages, read by LiteParse', () => {
  const convert = liteParse;
  it('a two-level ruled header: labels over two columns and labels down both header rows, as HTML spans', async () => {
    const [table, ...others] = tables(await convert(page('tables-01030000000047')));
    expect(others).toEqual([]);
    const lines = table!.split('\n');
    expect(lines[0]).toBe('<table>');
    expect(lines[1]).toBe(
      '<tr><th rowspan="2">No.</th><th rowspan="2">Political party</th>' +
        '<th colspan="2">Provisional registration result on 7 March</th>' +
        '<th colspan="2">Official registration result on 29 April</th>' +
        '<th rowspan="2">Difference in the number of candidates</th></tr>',
    );
    expect(lines[2]).toBe(
      '<tr><th>Number of commune/ sangkat</th><th>Number of candidates</th><th>Number of commune/ sangkat</th><th>Number of candidates</th></tr>',
    );
    expect(lines[3]).toBe('<tr><td>11</td><td>Khmer United Party</td><td>35</td><td>498</td><td>30</td><td>457</td><td>-41</td></tr>');
    expect(lines.at(-2)).toBe('<tr><td></td><td>Total</td><td></td><td>84,208</td><td></td><td>86,092</td><td>+1,884</td></tr>');
    expect(lines.at(-1)).toBe('</table>');
  });

  it('a first column spanning several rows is one cell with rowspan, its rows beside it', async () => {
    const [table] = tables(await convert(page('tables-01030000000146')));
    expect(table!.split('\n').slice(0, 6)).toEqual([
      '<table>',
      '<tr><th>Area</th><th>Competence</th></tr>',
      '<tr><td rowspan="3">1. Embodying sustainability values</td><td>1.1 Valuing sustainability</td></tr>',
      '<tr><td>1.2 Supporting fairness</td></tr>',
      '<tr><td>1.3 Promoting nature</td></tr>',
      '<tr><td rowspan="3">2. Embracing complexity in sustainability</td><td>2.1 Systems thinking</td></tr>',
    ]);
  });

  it('a column border the table left undrawn still separates its columns', async () => {
    const [table] = tables(await convert(page('tables-01030000000180')));
    expect(table!.split('\n')).toEqual([
      '| Version | Date | Change | Affected Sections |',
      '| --- | --- | --- | --- |',
      '| 1.0 | April 30, 2022 | Original |  |',
      '| 1.0 | June 3, 2022 | Small edits for clarity on Creative Commons licensing and attribution. | 1. Introduction to Open Educational Resources |',
    ]);
  });

  it('labels centred over several columns span them (two header levels), the stub label spans the header rows; no row is lost', async () => {
    const [table, ...others] = tables(await convert(page('tables-01030000000187')));
    expect(others).toEqual([]);
    const lines = table!.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '<table>',
      '<tr><th rowspan="3">Properties</th><th colspan="6">Training Datasets</th></tr>',
      '<tr><th colspan="3">Instruction</th><th colspan="3">Alignment</th></tr>',
      '<tr><th>Alpaca-GPT4</th><th>OpenOrca</th><th>Synth. Math-Instruct</th><th>Orca DPO Pairs</th><th>Ultrafeedback Cleaned</th><th>Synth. Math-Alignment</th></tr>',
    ]);
    expect(lines.at(-2)).toBe('<tr><td>Open Source</td><td>O</td><td>O</td><td>✗</td><td>O</td><td>O</td><td>✗</td></tr>');
  });

  it('header lines above a borderless body join its table: a group label over the columns its rule marks, labels wrapped in one column', async () => {
    const model = await convert(page('tables-01030000000078'));
    const [table, ...others] = tables(model);
    expect(others).toEqual([]);
    expect(table!.split('\n').slice(0, 4)).toEqual([
      '<table>',
      '<tr><th rowspan="2">AMS</th><th colspan="5">Average Annual Growth</th><th rowspan="2">Remittance inflows in 2020 (US$ Million)</th></tr>',
      '<tr><th>2000-2004</th><th>2004-2009</th><th>2009-2014</th><th>2014-2019</th><th>2019-2020</th></tr>',
      '<tr><td>Cambodia</td><td>7.5%</td><td>-0.7%</td><td>50.6%</td><td>6.7%</td><td>-16.6%</td><td>1,272</td></tr>',
    ]);
    // The header's text is the table's only: no line of it stays in the text, and the caption above does.
    const text = mainMarkdown(model).replace(/<table>[\s\S]*<\/table>/, '');
    expect(text).not.toMatch(/Average Annual Growth|2000-2004/);
    expect(text).toMatch(/^Table 1\.4\. Growth in migrant remittance inflows$/m);
  });

  it('cells boxed apart (each box its own grid) are one table with all its rows; the heading above stays a heading', async () => {
    const model = await convert(page('tables-01030000000200'));
    const [table, ...others] = tables(model);
    expect(others).toEqual([]);
    const lines = table!.split('\n');
    expect(lines[0]).toBe('| Service Stage | Function Name | Explanation | Expected Benefit |');
    expect(lines.some((line) => line.startsWith('|  | Guide and help |'))).toBe(true);
    // A box's text run out of its box stays in its cell, not in the text after the table.
    expect(lines.some((line) => line.includes('| Model training | Various basic models for each selected document'))).toBe(true);
    // A note number in a small box of its own between two rows marks the cell above it: no row (or spans) of its own.
    expect(lines.some((line) => line.includes('data set version management 3 |'))).toBe(true);
    expect(lines).toHaveLength(2 + 9);
    const outsideTable = mainMarkdown(model).split('\n').filter((line) => !line.startsWith('|'));
    expect(outsideTable.join('\n')).not.toMatch(/Various basic models/);
    expect(mainMarkdown(model)).toMatch(/^# Key Functions by Main Service Flow$/m);
  });

});

describe.each([
  ['LiteParse', liteParse],
  ['pdfjs', pdfjs],
])('table kinds both readers find, read by %s', (_reader, convert) => {
  it('a column of boxed entries is a one-column table, the prose around it stays text', async () => {
    const model = await convert(page('tables-01030000000149'));
    const [table, ...others] = tables(model);
    expect(others).toEqual([]);
    expect(table!.split('\n')).toEqual([
      '| Eco-Circle Competence Framework |',
      '| --- |',
      '| #1: The 3 Rs: Recycle-Reuse-Reduce |',
      '| #2: Lifecycle of Circular Economy |',
      '| #3: Social Entrepreneurship and Circular Economy |',
      '| #4: Corporate Environmental Sustainability |',
      '| #5: Embodying Sustainable Values |',
      '| #6: Environmental Engagement |',
      '| #7: Supporting Local Eco-friendly and Green Activities |',
    ]);
    expect(mainMarkdown(model)).toMatch(/here we have the 7 key competence areas/);
  });

  it('cells drawn as shaded boxes keep their rows; a row across both columns spans them', async () => {
    const [table] = tables(await convert(page('tables-01030000000150')));
    const lines = table!.split('\n');
    expect(lines[1]).toBe('<tr><th>Competence Area</th><th>#1 THE 3 RS: RECYCLE-REUSE-REDUCE</th></tr>');
    expect(lines[2]).toMatch(/^<tr><td>Competence Statement<\/td><td>To know the basics of the 3 Rs .*<\/td><\/tr>$/);
    expect(lines[3]).toBe('<tr><td colspan="2">Learning Outcomes</td></tr>');
    expect(lines.filter((line) => line.startsWith('<tr>'))).toHaveLength(6);
  });

  it('a header cell wrapped over two lines is one cell, not a row of its own', async () => {
    const [first, second, ...others] = tables(await convert(page('tables-01030000000170')));
    expect(others).toEqual([]);
    expect(first!.split('\n').slice(2, 4)).toEqual([
      '| Slope Gradient (%) | Max Slope Length (ft) | P Value | Strip Width (ft) | P Value, RGMM | P Value, RRGM |',
      '| 1 - 2 | 400 | 0.6 | 130 | 0.30 | 0.45 |',
    ]);
    expect(second!.split('\n')[0]).toBe('| Terrace Interval | Underground Outlets | Waterways with percent grade of: |  |  |');
    expect(second!.split('\n')[2]).toBe('| (ft) |  | 0.1-0.3 | 0.4-0.7 | 0.8 |');
  });

  it('a bold header centred over its columns heads the table; the caption above stays text', async () => {
    const model = await convert(page('tables-01030000000116'));
    const [table] = tables(model);
    expect(table!.split('\n').slice(0, 3)).toEqual([
      '| Saccharometer | DI Water | Glucose Solution | Yeast Suspension |',
      '| --- | --- | --- | --- |',
      '| 1 | *8 ml | *6 ml | 0 ml |',
    ]);
    expect(mainMarkdown(model)).toMatch(/Table 2\. Contents of Saccharometers when testing fermentation with various yeast concentrations\./);
  });

  it('a header whose labels are set a word-space apart heads the one row under it, at the foot of the page', async () => {
    const model = await convert(page('tables-01030000000116'));
    // The second table, cut by the page's end: its header reads as one run of words, and each cell of the row under
    // it starts where a label starts.
    const second = tables(model)[1];
    expect(second!.split('\n')).toEqual([
      '| Saccharometer | DI Water | Glucose Solution | Yeast Suspension |',
      '| --- | --- | --- | --- |',
      '| 1 | 16 ml | 12 ml | 0 ml |',
    ]);
    expect(mainMarkdown(model)).not.toContain('Saccharometer DI Water Glucose Solution Yeast Suspension');
  });

  it('a header row set above the grid\'s top rule heads the ruled table', async () => {
    const [table, ...others] = tables(await convert(page('tables-01030000000182')));
    expect(others).toEqual([]);
    const lines = table!.split('\n');
    expect(lines[0]).toBe('|  | OCR | Recommendation | Product semantic search |');
    expect(lines.slice(2).map((line) => line.split(' | ')[0])).toEqual(['| Pack', '| Application', '| Highlight']);
  });

  it('a contents list with its page numbers in a column is text, not a table', async () => {
    const model = await convert(page('structure-01030000000155'));
    expect(tables(model)).toEqual([]);
    // One entry a line, its number kept (escaped so that it reads as text, not as a numbered list).
    expect(mainMarkdown(model)).toMatch(/^2\\\. Introduction to Researching Wicked Problems 3 {2}$/m);
  });
});

describe('tables on benchmark pages LiteParse flags for OCR, in mode auto', () => {
  // LiteParse judges these pages to need OCR (sparse text): their text layer is whole, and mode auto keeps
  // LiteParse's reading of it, tables and all, as mode fast does.
  for (const id of ['tables-01030000000047', 'tables-01030000000180']) {
    it(`${id}: the same tables as mode fast`, async () => {
      const auto = tables(await convertBytes(page(id), { mode: 'auto' }));
      expect(auto.length).toBeGreaterThan(0);
      expect(auto).toEqual(tables(await liteParse(page(id))));
    });
  }
});
