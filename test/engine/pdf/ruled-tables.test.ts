/**
 * Tables drawn with ruling lines: the recorder the patched worker feeds (rulings.ts), the grid builder
 * (ruled-tables.ts) on synthetic geometry, and whole PDFs written here with `m l S` / `re f` borders.
 */
import { describe, expect, it } from 'vitest';
import { findRuledTables } from '../../../src/engine/pdf/ruled-tables.js';
import { MAX_RULINGS_PER_STREAM, RulingRecorder, rulingsInViewport, type Ruling } from '../../../src/engine/pdf/rulings.js';
import { pdfjsPatchStats } from '../../../src/engine/pdf/pdfjs-worker.js';
import { writePdf } from './fixtures/pdf-writer.js';
import { allBlocks, convertBytes, convertWithPdfjs, mainMarkdown } from './helpers.js';
import {
  cellRuns,
  gridOperators,
  INVENTORY_LABELS,
  inventoryReportPdf,
  plainTablePdf,
  PLAIN_TABLE,
  type BorderStyle,
} from './ruled-pdfs.js';
import { item, words } from './synthetic.js';

const IDENTITY = [1, 0, 0, 1, 0, 0];

function quads(flat: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < flat.length; i += 4) out.push(flat.slice(i, i + 4));
  return out;
}

describe('RulingRecorder: what a content stream draws that can be a rule', () => {
  it('keeps the horizontal and vertical segments of a stroked path, not the slanted ones', () => {
    const recorder = new RulingRecorder();
    recorder.moveTo(10, 100, IDENTITY);
    recorder.lineTo(200, 100, IDENTITY);
    recorder.lineTo(200, 20, IDENTITY);
    recorder.lineTo(150, 60, IDENTITY);
    recorder.paint(true, false);
    expect(quads(recorder.take())).toEqual([
      [10, 100, 200, 100],
      [200, 20, 200, 100],
    ]);
  });

  it('gives a stroked rectangle its four edges, transformed by the current matrix', () => {
    const recorder = new RulingRecorder();
    recorder.rectangle(10, 10, 50, 20, [2, 0, 0, 2, 100, 0]);
    recorder.paint(true, false);
    expect(quads(recorder.take())).toEqual([
      [120, 20, 220, 20],
      [220, 20, 220, 60],
      [120, 60, 220, 60],
      [120, 20, 120, 60],
    ]);
  });

  it('reads a thin filled rectangle as a line and ignores a filled box, a curve and an unpainted path', () => {
    const recorder = new RulingRecorder();
    recorder.rectangle(72, 699.75, 450, 0.5, IDENTITY);
    recorder.rectangle(300, 100, 0.75, 200, IDENTITY);
    recorder.rectangle(72, 400, 100, 50, IDENTITY);
    recorder.paint(false, true);
    recorder.moveTo(0, 0, IDENTITY);
    recorder.curveTo(100, 0, IDENTITY);
    recorder.paint(true, false);
    recorder.rectangle(0, 0, 612, 792, IDENTITY);
    recorder.paint(false, false);
    expect(quads(recorder.take())).toEqual([
      [72, 700, 522, 700],
      [300.375, 100, 300.375, 300],
    ]);
  });

  it('stops recording at its cap and says so', () => {
    const recorder = new RulingRecorder();
    for (let i = 0; i <= MAX_RULINGS_PER_STREAM; i++) {
      recorder.moveTo(0, i, IDENTITY);
      recorder.lineTo(10, i, IDENTITY);
      recorder.paint(true, false);
    }
    expect(recorder.take()).toHaveLength(4 * MAX_RULINGS_PER_STREAM);
    expect(recorder.overflowed).toBe(true);
  });

  it('maps rules into the top-down viewport (y flipped) and keeps them axis-parallel', () => {
    expect(rulingsInViewport([72, 700, 522, 700], [1, 0, 0, -1, 0, 792])).toEqual([{ x0: 72, y0: 92, x1: 522, y1: 92 }]);
  });
});

/** Rules for a grid in viewport space (top-down). */
function gridRules(xs: number[], ys: number[]): Ruling[] {
  return [
    ...ys.map((y) => ({ x0: xs[0]!, y0: y, x1: xs[xs.length - 1]!, y1: y })),
    ...xs.map((x) => ({ x0: x, y0: ys[0]!, x1: x, y1: ys[ys.length - 1]! })),
  ];
}

describe('findRuledTables on synthetic geometry', () => {
  it('puts each text item in the cell it starts in, wrapped cell text joined', () => {
    const xs = [50, 150, 250];
    const ys = [100, 120, 150];
    const items = [
      item('Term', 55, 114),
      item('Meaning', 155, 114),
      item('Gutter', 55, 134),
      item('the space between', 155, 134),
      item('two columns', 155, 145),
      item('Outside the table', 55, 200),
    ];
    const [table, ...others] = findRuledTables(items, gridRules(xs, ys));
    expect(others).toEqual([]);
    expect(table!.rows).toEqual([
      ['Term', 'Meaning'],
      ['Gutter', 'the space between two columns'],
    ]);
    expect(table!.items).toHaveLength(5);
  });

  it('reads each line of a body left unruled between its rows as a row (a box, column rules, a rule under the header)', () => {
    // As tbl draws `box` with `|` columns and `_` under the header: no rule between the body's rows.
    const xs = [50, 150, 250, 350];
    const ys = [100, 118, 170];
    const items = [
      item('Kind', 55, 113),
      item('Files', 155, 113),
      item('Share', 255, 113),
      ...['Reports', 'Forms', 'Letters'].flatMap((kind, i) => [
        item(kind, 55, 132 + i * 14),
        item(['1200', '900', '900'][i]!, 155, 132 + i * 14),
        item(['40%', '30%', '30%'][i]!, 255, 132 + i * 14),
      ]),
    ];
    const [table] = findRuledTables(items, gridRules(xs, ys));
    expect(table!.rows).toEqual([
      ['Kind', 'Files', 'Share'],
      ['Reports', '1200', '40%'],
      ['Forms', '900', '30%'],
      ['Letters', '900', '30%'],
    ]);
  });

  it('keeps a row of a table ruled between its rows one row, its short cells wrapped too', () => {
    const xs = [50, 150, 250];
    const ys = [100, 118, 136, 162, 180];
    const items = [
      item('Name', 55, 113),
      item('Note', 155, 113),
      item('Mallard', 55, 131),
      item('Common', 155, 131),
      item('White-headed', 55, 149),
      item('A small diving', 155, 149),
      item('duck', 55, 159),
      item('duck', 155, 159),
      item('Teal', 55, 175),
      item('Small', 155, 175),
    ];
    const [table] = findRuledTables(items, gridRules(xs, ys));
    expect(table!.rows).toEqual([
      ['Name', 'Note'],
      ['Mallard', 'Common'],
      ['White-headed duck', 'A small diving duck'],
      ['Teal', 'Small'],
    ]);
  });

  it('keeps a row whose cells all wrap over two lines one row', () => {
    const xs = [50, 150, 250];
    const ys = [100, 118, 150];
    const items = [
      item('Term', 55, 113),
      item('Meaning', 155, 113),
      item('Gutter between', 55, 132),
      item('the space kept', 155, 132),
      item('columns', 55, 144),
      item('between columns', 155, 144),
    ];
    const [table] = findRuledTables(items, gridRules(xs, ys));
    expect(table!.rows).toEqual([
      ['Term', 'Meaning'],
      ['Gutter between columns', 'the space kept between columns'],
    ]);
  });

  it('writes a two-level header (a label over three columns, underlined there only) as an HTML table with spans', () => {
    const rules: Ruling[] = [
      { x0: 0, y0: 0, x1: 240, y1: 0 },
      { x0: 60, y0: 20, x1: 240, y1: 20 }, // under the spanning label only
      { x0: 0, y0: 40, x1: 240, y1: 40 },
      { x0: 0, y0: 60, x1: 240, y1: 60 },
      ...[0, 60, 240].map((x) => ({ x0: x, y0: 0, x1: x, y1: 60 })),
      ...[120, 180].map((x) => ({ x0: x, y0: 20, x1: x, y1: 60 })), // not through the label
    ];
    const items = [
      item('Model', 5, 24),
      item('Score', 130, 14),
      item('low', 65, 34),
      item('mid', 125, 34),
      item('high', 185, 34),
      item('A', 5, 54),
      item('1', 65, 54),
      item('2', 125, 54),
      item('3', 185, 54),
    ];
    const [table] = findRuledTables(items, rules);
    expect(table!.markdown).toBe(
      [
        '<table>',
        '<tr><th rowspan="2">Model</th><th colspan="3">Score</th></tr>',
        '<tr><th>low</th><th>mid</th><th>high</th></tr>',
        '<tr><td>A</td><td>1</td><td>2</td><td>3</td></tr>',
        '</table>',
      ].join('\n'),
    );
    expect(table!.rows).toEqual([
      ['Model', 'Score', '', ''],
      ['', 'low', 'mid', 'high'],
      ['A', '1', '2', '3'],
    ]);
  });

  it('leaves a title row across the whole table to the text above it; the columns\' row is the header', () => {
    const rules: Ruling[] = [
      ...[0, 20, 40, 60].map((y) => ({ x0: 0, y0: y, x1: 180, y1: y })),
      ...[0, 180].map((x) => ({ x0: x, y0: 0, x1: x, y1: 60 })),
      ...[60, 120].map((x) => ({ x0: x, y0: 20, x1: x, y1: 60 })),
    ];
    const items = [
      item('Stock at 31 March', 50, 14),
      ...['Item', 'Site', 'Qty'].map((text, c) => item(text, 5 + 60 * c, 34)),
      ...['A-100', 'North', '12'].map((text, c) => item(text, 5 + 60 * c, 54)),
    ];
    const [table] = findRuledTables(items, rules);
    expect(table!.rows).toEqual([
      ['Item', 'Site', 'Qty'],
      ['A-100', 'North', '12'],
    ]);
    expect(table!.items.map((entry) => entry.str)).not.toContain('Stock at 31 March');
    expect(table!.rect).toEqual({ x0: 0, y0: 20, x1: 180, y1: 60 });
  });

  it('does not take a frame around two columns of prose for a table', () => {
    const xs = [50, 300, 550];
    const ys = [50, 80, 700];
    const items = [item('A Title Across The Frame', 60, 70)];
    for (let line = 0; line < 40; line++) {
      items.push(item(words(9, line), 55, 100 + 14 * line, { size: 9 }));
      items.push(item(words(9, line + 3), 305, 100 + 14 * line, { size: 9 }));
    }
    expect(findRuledTables(items, gridRules(xs, ys))).toEqual([]);
  });

  it('does not take a chart grid with a few labels for a table', () => {
    const xs = [100, 150, 200, 250, 300, 350];
    const ys = [100, 140, 180, 220, 260];
    const items = [item('peak', 210, 130), item('dip', 260, 250)];
    expect(findRuledTables(items, gridRules(xs, ys))).toEqual([]);
  });

  it('gives up on grids too dense to be tables (graph paper, hatching), whatever text they hold', () => {
    const lines = Array.from({ length: 301 }, (_, i) => 10 + 2.5 * i);
    const items = lines.slice(0, -1).map((y, i) => item(`n${i}`, 11, y + 2, { size: 1.5 }));
    expect(findRuledTables(items, gridRules(lines, lines))).toEqual([]);
    const crossing: Ruling[] = Array.from({ length: 3000 }, (_, i) => [
      { x0: 0, y0: i / 10, x1: 600, y1: i / 10 },
      { x0: i / 10 + 0.05, y0: 0, x1: i / 10 + 0.05, y1: 600 },
    ]).flat();
    expect(findRuledTables(items, crossing)).toEqual([]);
  });

  it('ignores rules that form no grid (underlines, a box around one paragraph)', () => {
    const rules: Ruling[] = [
      { x0: 50, y0: 100, x1: 300, y1: 100 },
      { x0: 50, y0: 200, x1: 300, y1: 200 },
      { x0: 50, y0: 100, x1: 50, y1: 200 },
      { x0: 300, y0: 100, x1: 300, y1: 200 },
    ];
    expect(findRuledTables([item('Boxed note', 60, 150), item('second line', 60, 164)], rules)).toEqual([]);
  });
});

const PLAIN_MARKDOWN = ['| Name | Age | City |', '| --- | --- | --- |', '| Alice | 30 | Paris |', '| Bob | 25 | Berlin |'].join('\n');

describe('ruled tables in PDFs', () => {
  for (const style of ['stroke', 'fill', 'cells'] as BorderStyle[]) {
    it(`a plain 3 × 3 table with borders (${style}) becomes one GFM table, its first row the header`, async () => {
      const doc = await convertBytes(plainTablePdf(style));
      const tables = allBlocks(doc).filter((block) => block.type === 'table');
      expect(tables.map((table) => table.markdown)).toEqual([PLAIN_MARKDOWN]);
      expect(mainMarkdown(doc)).toBe(PLAIN_MARKDOWN);
      expect(tables[0]!.bbox).toEqual([
        Number((72 / 612).toFixed(4)),
        Number((92 / 792).toFixed(4)),
        Number((522 / 612).toFixed(4)),
        Number((152 / 792).toFixed(4)),
      ]);
    });
  }

  it('a table drawn under a scaling matrix (cm) is found where it is drawn', async () => {
    const xs = [144, 444, 744, 1044];
    const ys = [1400, 1360, 1320, 1280];
    const graphics = `q 0.5 0 0 0.5 0 0 cm\n${gridOperators(xs, ys, 'stroke')}\nQ`;
    const runs = cellRuns(PLAIN_TABLE, [72, 222, 372, 522], [700, 680, 660, 640]);
    const doc = await convertBytes(writePdf({ pages: [{ runs, graphics }] }));
    expect(mainMarkdown(doc)).toBe(PLAIN_MARKDOWN);
  });

  it('a table on a page turned by /Rotate 90 is read upright (rules and text through the same viewport)', async () => {
    // With /Rotate 90 a point (x, y) of the page shows at (y, x) from the top-left: draw the table transposed.
    const xs = [72, 222, 372, 522];
    const ys = [100, 120, 140, 160];
    const rules = [
      ...ys.map((y) => `${y} ${xs[0]} m ${y} ${xs[3]} l S`),
      ...xs.map((x) => `${ys[0]} ${x} m ${ys[3]} ${x} l S`),
    ];
    const runs = PLAIN_TABLE.flatMap((row, r) =>
      row.map((text, c) => ({ x: ys[r]! + 14, y: xs[c]! + 5, text, size: 10, angle: 90 as const })),
    );
    const doc = await convertBytes(writePdf({ pages: [{ rotate: 90, runs, graphics: `0.5 w\n${rules.join('\n')}` }] }));
    expect(mainMarkdown(doc)).toBe(PLAIN_MARKDOWN);
  });

  it('lists in the cells of a ruled table stay in their cells, not rows of their own', async () => {
    const xs = [72, 297, 522];
    const ys = [700, 680, 610];
    const cell = (x: number, lines: readonly string[]) => lines.map((text, i) => ({ x: x + 5, y: ys[1]! - 14 - 14 * i, text, size: 10 }));
    const runs = [
      ...cellRuns([['Column A', 'Column B']], xs, ys),
      ...cell(xs[0]!, ['This is a list:', '• A First', '• A Second', '• A Third']),
      ...cell(xs[1]!, ['This is a formatted list:', '• B First', '• B Second', '• B Third']),
    ];
    const doc = await convertBytes(writePdf({ pages: [{ runs, graphics: gridOperators(xs, ys, 'stroke') }] }));
    const rows = mainMarkdown(doc).split('\n').filter((line) => line.startsWith('|'));
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatch(/^\| This is a list:.*A First.*A Second.*A Third \| This is a formatted list:.*B First.*B Second.*B Third \|$/);
  });

  it('a ruled grid of rows whose cells each hold a list is a table of lists, a list a cell', async () => {
    // A document's table with a bulleted list in each cell, two rows ruled apart (an OpenDocument file printed by
    // LibreOffice): the rows set the lists apart, as lists side by side on a slide are not.
    const xs = [72, 288, 504];
    const ys = [700, 670, 640];
    const list = (x: number, top: number, texts: readonly string[]) =>
      texts.flatMap((text, i) => [
        { x: x + 5, y: top - 12 - 12 * i, text: '•', size: 10 },
        { x: x + 20, y: top - 12 - 12 * i, text, size: 10 },
      ]);
    const runs = [
      ...list(xs[0]!, ys[0]!, ['R1C1 item 1', 'R1C1 item 2']),
      ...list(xs[1]!, ys[0]!, ['R1C2 item 1', 'R1C2 item 2']),
      ...list(xs[0]!, ys[1]!, ['R2C1 item 1', 'R2C1 item 2']),
      ...list(xs[1]!, ys[1]!, ['R2C2 item 1', 'R2C2 item 2']),
    ];
    const doc = await convertBytes(writePdf({ pages: [{ runs, graphics: gridOperators(xs, ys, 'stroke') }] }), { mode: 'fast' });
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]!.markdown.split('\n')).toEqual([
      '| • R1C1 item 1 • R1C1 item 2 | • R1C2 item 1 • R1C2 item 2 |',
      '| --- | --- |',
      '| • R2C1 item 1 • R2C1 item 2 | • R2C2 item 1 • R2C2 item 2 |',
    ]);
  });

  it('a ruled table keeps its place between the paragraphs around it', async () => {
    const xs = [72, 222, 372, 522];
    const ys = [600, 580, 560, 540];
    const runs = [
      { x: 72, y: 700, text: 'The table below lists the people who answered the survey.', size: 10 },
      ...cellRuns(PLAIN_TABLE, xs, ys),
      { x: 72, y: 500, text: 'Both of them live in Europe.', size: 10 },
    ];
    const doc = await convertBytes(writePdf({ pages: [{ runs, graphics: gridOperators(xs, ys, 'fill') }] }));
    expect(mainMarkdown(doc)).toBe(
      ['The table below lists the people who answered the survey.', PLAIN_MARKDOWN, 'Both of them live in Europe.'].join('\n\n'),
    );
  });

  it('inventory report: label lines one per line, the bold header row heads the ruled table', async () => {
    const markdown = mainMarkdown(await convertBytes(inventoryReportPdf()));
    expect(markdown).toBe(
      [
        '# Inventory Report',
        ...INVENTORY_LABELS,
        'The stock counts below were taken at the close of business on the last day of the quarter.',
        [
          '| Item Code | Description | Qty on Hand | Unit Price |',
          '| --- | --- | --- | --- |',
          '| A-100 | Steel bolts M8 | 1,200 | 0.15 |',
          '| A-200 | Hex nuts M8 | 950 | 0.08 |',
          '| B-310 | Washers | 2,000 | 0.03 |',
          '| C-020 | Wood screws 4x40 | 600 | 0.05 |',
        ].join('\n'),
        'All quantities are in units; prices in euros.',
      ].join('\n\n'),
    );
  });

  it('inventory report without rules: the larger bold header row still heads the aligned table', async () => {
    const markdown = mainMarkdown(await convertBytes(inventoryReportPdf({ ruled: false })));
    expect(markdown).not.toMatch(/^##/m);
    expect(markdown).toContain('| Item Code | Description | Qty on Hand | Unit Price |\n| --- | --- | --- | --- |\n| A-100 |');
  });

  it('a page of thousands of rules (vector art) is read for its text without tables, and the cap is counted', async () => {
    const hatch = Array.from({ length: MAX_RULINGS_PER_STREAM + 10 }, (_, i) => `72 ${100 + (i % 500)} m 80 ${100 + (i % 500)} l S`);
    const runs = [{ x: 72, y: 700, text: 'A figure drawn with many short strokes.', size: 10 }];
    const pdf = writePdf({ pages: [{ runs, graphics: hatch.join('\n') }] });
    // The cap is the patched pdfjs worker's: counted where pdfjs reads the page (LiteParse reads it in every mode).
    const before = pdfjsPatchStats().rulingsDropped;
    const doc = await convertWithPdfjs(pdf);
    expect(pdfjsPatchStats().rulingsDropped - before).toBe(1);
    expect(mainMarkdown(doc)).toBe('A figure drawn with many short strokes.');
    expect(mainMarkdown(await convertBytes(pdf))).toBe('A figure drawn with many short strokes.');
  });
});
