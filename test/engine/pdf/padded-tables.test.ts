/**
 * Borderless tables as a word processor prints them from a document's table: no rules, each cell padded, so
 * whitespace sets every row apart from the next, and the columns' channels run down the page like a page's gutters.
 * A comparison table whose cells wrap over two or three lines in several columns at once (the cells of a row's
 * single line centred down it) is one table, a row for each feature; a table whose rows are grouped under label
 * rows (`Region: Europe`) keeps its header and its label rows in it. A paper's results table whose header labels
 * are centred over columns set flush left heads each column with its own label, and its row labels centred down
 * their groups of rows (two, three or four rows) span those rows. A table whose header stands on three bold lines
 * (levels over modes over years, the stub left empty) keeps the three as its header, each label spanning its group.
 * A table at the very top of a page keeps its header row there, though a running head would stand in its place.
 * The comparison set tight (cells barely padded, top-aligned) leaves the last line of the paragraph above it, a short
 * line close over its header, to that paragraph. Group label rows that run on past the first column
 * (`Region: Europe, the Middle East and Africa`) stay rows of the table, each one cell across it. A header whose rows
 * stand as far apart as the body's (cells padded alike) is the table's, a label down both its rows and quarters'
 * labels centred over the names of their columns, names wider than the numbers under them. Minutes' action items,
 * each a long action wrapped over two lines beside its number and owner centred down the row, are one row each.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

async function printed(name: string) {
  const bytes = new Uint8Array(readFileSync(new URL(`../../fixtures/printed/${name}`, import.meta.url)));
  return convertBytes(bytes, { mode: 'fast' });
}

describe('a borderless table whose padded rows stand apart', () => {
  it('reads a comparison whose cells wrap in several columns as one table, a row a feature', async () => {
    const doc = await printed('comparison-table.pdf');
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables.map((table) => table.markdown.split('\n'))).toEqual([
      [
        '| Feature | Basic plan | Family plan | Premium plan |',
        '| --- | --- | --- | --- |',
        '| Monthly price | $9.99 | $19.99 | $29.99 |',
        '| Devices at once | One phone or tablet at a time | Up to four devices in the same home | Up to six devices anywhere in the world |',
        '| Offline downloads |  | Up to 50 titles on two devices | Unlimited titles on every device |',
        '| Customer support | Email only, answered within two working days | Email and chat during office hours | Dedicated phone line open every day |',
        '| Contract length | Monthly, cancel at any time | Twelve months | Twelve months |',
      ],
    ]);
    const markdown = mainMarkdown(doc);
    expect(markdown).not.toMatch(/^#+ (?:Family|Premium) plan/m);
    expect(markdown.indexOf('Prices include sales tax.')).toBeGreaterThan(markdown.indexOf('| Contract length'));
  });

  it('keeps its header and the label rows of its groups in the table', async () => {
    const doc = await printed('grouped-table.pdf');
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables.map((table) => table.markdown.split('\n'))).toEqual([
      [
        '| Country | 2023 | 2024 | Change (%) |',
        '| --- | --- | --- | --- |',
        '| Region: Europe |  |  |  |',
        '| Germany | 1,204 | 1,310 | 8.8 |',
        '| France | 987 | 954 | (3.3) |',
        '| Italy | 640 | 702 | 9.7 |',
        '| Region: Asia |  |  |  |',
        '| Japan | 1,530 | 1,498 | (2.1) |',
        '| Korea | 811 | 905 | 11.6 |',
        '| Total | 5,172 | 5,369 | 3.8 |',
      ],
    ]);
    const markdown = mainMarkdown(doc);
    expect(markdown).not.toContain('## Country');
    expect(markdown).toMatch(/Table 2: Sales by country[^\n]*\n\n\| Country/);
    expect(markdown).toMatch(/\| Total [^\n]*\n\nSource: National statistics offices\./);
  });

  it('heads each column with its centred label and spans each row label down its group of rows', async () => {
    const doc = await printed('row-groups.pdf');
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables.map((table) => table.markdown.split('\n'))).toEqual([
      [
        '<table>',
        '<tr><th>Model</th><th>Setting</th><th>Test A</th><th>Test B</th><th>Mean</th></tr>',
        '<tr><td rowspan="2">Baseline</td><td>Scratch</td><td>71.2</td><td>68.4</td><td>69.8</td></tr>',
        '<tr><td>Pre-trained</td><td>75.9</td><td>72.1</td><td>74.0</td></tr>',
        '<tr><td rowspan="2">Large</td><td>Scratch</td><td>74.5</td><td>70.3*</td><td>72.4</td></tr>',
        '<tr><td>Pre-trained</td><td>80.2</td><td>77.8</td><td>79.0</td></tr>',
        '<tr><td rowspan="2">Ours</td><td>Scratch</td><td>76.1</td><td>n/a†</td><td>-</td></tr>',
        '<tr><td>Pre-trained</td><td>83.4</td><td>81.0</td><td>82.2</td></tr>',
        '</table>',
      ],
      [
        '<table>',
        '<tr><th>Model</th><th>Test set</th><th>Error (%)</th><th>Time (s)</th></tr>',
        '<tr><td rowspan="3">Baseline</td><td>News</td><td>12.1</td><td>0.8</td></tr>',
        '<tr><td>Forums</td><td>15.4</td><td>0.9</td></tr>',
        '<tr><td>Papers</td><td>9.8</td><td>1.1</td></tr>',
        '<tr><td rowspan="4">Ours</td><td>News</td><td>8.2</td><td>1.0</td></tr>',
        '<tr><td>Forums</td><td>11.0</td><td>1.2</td></tr>',
        '<tr><td>Papers</td><td>6.5</td><td>1.3</td></tr>',
        '<tr><td>Letters</td><td>7.7</td><td>1.2</td></tr>',
        '<tr><td>Human</td><td>News</td><td>3.1</td><td>41.0</td></tr>',
        '</table>',
      ],
    ]);
  });

  it('keeps a header of three bold lines, each group label spanning its columns and the empty stub down the header', async () => {
    const doc = await printed('three-level-header.pdf');
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]!.markdown.split('\n').slice(0, 5)).toEqual([
      '<table>',
      '<tr><th rowspan="3"></th><th colspan="4">Undergraduate</th><th colspan="4">Postgraduate</th></tr>',
      '<tr><th colspan="2">Full-time</th><th colspan="2">Part-time</th><th colspan="2">Full-time</th><th colspan="2">Part-time</th></tr>',
      '<tr><th>2022</th><th>2023</th><th>2022</th><th>2023</th><th>2022</th><th>2023</th><th>2022</th><th>2023</th></tr>',
      '<tr><td>Arts</td><td>1,240</td><td>1,198</td><td>310</td><td>295</td><td>402</td><td>415</td><td>188</td><td>201</td></tr>',
    ]);
    expect(mainMarkdown(doc)).not.toMatch(/^#+ (?:Undergraduate|Postgraduate|Full-time)/m);
  });

  it("keeps the header row of a table at the page's top in the table", async () => {
    const doc = await printed('page-top-table.pdf');
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables.map((table) => table.markdown.split('\n').slice(0, 3))).toEqual([
      ['| Country | 2023 | 2024 | Change (%) |', '| --- | --- | --- | --- |', '| Region: Europe |  |  |  |'],
    ]);
    expect(mainMarkdown(doc)).not.toContain('## Country');
  });

  it('leaves the last line of the paragraph right above a tight table to the paragraph', async () => {
    const doc = await printed('comparison-tight.pdf');
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables.map((table) => table.markdown.split('\n').slice(0, 3))).toEqual([
      ['| Feature | Basic plan | Family plan | Premium plan |', '| --- | --- | --- | --- |', '| Monthly price | $9.99 | $19.99 | $29.99 |'],
    ]);
    expect(mainMarkdown(doc)).toContain('what they include and what they cost.\n\n| Feature |');
  });

  it('keeps label rows that run past the first column in the table, each one cell across it', async () => {
    const doc = await printed('group-label-rows.pdf');
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables.map((table) => table.markdown.split('\n').slice(0, 5))).toEqual([
      [
        '<table>',
        '<tr><th>Country</th><th>2023</th><th>2024</th><th>Change (%)</th></tr>',
        '<tr><td colspan="4">Region: Europe, the Middle East and Africa</td></tr>',
        '<tr><td>Germany</td><td>1,204</td><td>1,310</td><td>8.8</td></tr>',
        '<tr><td>France</td><td>987</td><td>954</td><td>(3.3)</td></tr>',
      ],
    ]);
    expect(tables[0]!.markdown).toContain('<tr><td colspan="4">Region: Asia and the Pacific islands</td></tr>');
  });

  it('keeps a two-level header set as far apart as its rows, its group labels over names wider than their numbers', async () => {
    const doc = await printed('spanned-header-loose.pdf');
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables.map((table) => table.markdown.split('\n'))).toEqual([
      [
        '<table>',
        '<tr><th rowspan="2">Department</th><th colspan="2">Q1 2026</th><th colspan="2">Q2 2026</th></tr>',
        '<tr><th>Permanent</th><th>Contract</th><th>Permanent</th><th>Contract</th></tr>',
        '<tr><td>Engineering</td><td>142</td><td>18</td><td>151</td><td>22</td></tr>',
        '<tr><td>Sales</td><td>64</td><td>5</td><td>61</td><td>4</td></tr>',
        '<tr><td rowspan="2">Operations</td><td>37</td><td>11</td><td>39</td><td>9</td></tr>',
        '<tr><td>12</td><td>3</td><td>12</td><td>2</td></tr>',
        '<tr><td>Total</td><td>255</td><td>37</td><td>263</td><td>37</td></tr>',
        '</table>',
      ],
    ]);
    const markdown = mainMarkdown(doc);
    expect(markdown).not.toMatch(/^#+ (?:Department|Permanent)/m);
    expect(markdown).toContain('counted separately from permanent staff.\n\n<table>');
  });

  it("reads rows whose long cell wraps beside cells centred down the row, the row's first line no paragraph", async () => {
    const doc = await printed('action-items.pdf');
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables.map((table) => table.markdown.split('\n')).at(-1)).toEqual([
      '| No. | Action | Owner | Due |',
      '| --- | --- | --- | --- |',
      '| 3.1 | Draft the travel policy for trade fairs, including a cap per person and a rule for booking early. | M. Rossi | 12 Dec 2026 |',
      '| 3.2 | Ask the auditors for a quote for the 2026 accounts. | L. Brandt | 30 Nov 2026 |',
      '| 3.3 | Circulate the revised risk register to all board members before the next meeting. | S. Tanaka | 5 Jan 2027 |',
    ]);
    expect(mainMarkdown(doc)).not.toMatch(/^#+ No\. Action/m);
  });
});
