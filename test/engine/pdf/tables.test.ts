import { describe, expect, it } from 'vitest';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { renderGfmTable } from '../../../src/engine/pdf/markdown.js';
import { findTables } from '../../../src/engine/pdf/tables.js';
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';
import { item, words } from './synthetic.js';

function grid(rows: string[][], xs: number[], top = 100, pitch = 14): PdfTextItem[] {
  return rows.flatMap((row, r) => row.flatMap((text, c) => (text ? [item(text, xs[c]!, top + r * pitch)] : [])));
}

describe('findTables', () => {
  it('turns rows of aligned cells into one GFM table', () => {
    const lines = buildLines(
      grid(
        [
          ['Region', 'Revenue', 'Growth'],
          ['North', '1,200', '4%'],
          ['South', '950', '-2%'],
          ['West | East', '1,010', '7%'],
        ],
        [72, 220, 360],
      ),
    );
    const tables = findTables(lines);
    expect(tables).toHaveLength(1);
    expect(tables[0]!.start).toBe(0);
    expect(tables[0]!.end).toBe(4);
    expect(tables[0]!.markdown).toBe(
      [
        '| Region | Revenue | Growth |',
        '| --- | --- | --- |',
        '| North | 1,200 | 4% |',
        '| South | 950 | -2% |',
        '| West \\| East | 1,010 | 7% |',
      ].join('\n'),
    );
  });

  it('leaves prose alone, even justified prose with wide word gaps', () => {
    const items: PdfTextItem[] = [];
    for (let i = 0; i < 8; i++) {
      // Two runs per line with a gap that moves from line to line: no channel is free in every line.
      const split = 120 + ((i * 37) % 150);
      items.push(item(words(3, i), 50, 100 + i * 12, { width: split - 50 - 12 }));
      items.push(item(words(6, i + 1), split, 100 + i * 12, { width: 400 - split }));
    }
    expect(findTables(buildLines(items))).toEqual([]);
  });

  it('does not take two columns of prose for a two-column table', () => {
    const items: PdfTextItem[] = [];
    for (let i = 0; i < 8; i++) {
      items.push(item(words(9, i), 50, 100 + i * 12));
      items.push(item(words(9, i + 4), 320, 100 + i * 12));
    }
    expect(findTables(buildLines(items))).toEqual([]);
  });

  it('does not take display equations with their numbers for a table', () => {
    const lines = buildLines(
      grid(
        [
          ['a = b + c', '(1)'],
          ['d = e · f', '(2)'],
          ['g = h / i', '(3)'],
        ],
        [150, 400],
      ),
    );
    expect(findTables(lines)).toEqual([]);
  });

  it('needs three rows', () => {
    const lines = buildLines(grid([['a', '1'], ['b', '2']], [72, 220]));
    expect(findTables(lines)).toEqual([]);
  });

  it('merges a label centred across two rows (a row-spanning cell) into one row', () => {
    const items = [
      ...grid([['', 'Lang', 'Score']], [72, 160, 260], 100),
      item('OTSL', 160, 114),
      item('0.96', 260, 114),
      item('6', 72, 119),
      item('HTML', 160, 125),
      item('0.95', 260, 125),
      item('OTSL', 160, 139),
      item('0.93', 260, 139),
      item('4', 72, 144),
      item('HTML', 160, 150),
      item('0.92', 260, 150),
    ];
    const tables = findTables(buildLines(items));
    expect(tables).toHaveLength(1);
    expect(tables[0]!.rows).toEqual([
      ['', 'Lang', 'Score'],
      ['6', 'OTSL HTML', '0.96 0.95'],
      ['4', 'OTSL HTML', '0.93 0.92'],
    ]);
  });

  it('joins a wrapped cell into the row above', () => {
    const items = [
      ...grid(
        [
          ['Shop', 'Partners'],
          ['Online', 'Alpha, Beta,'],
        ],
        [72, 200],
      ),
      item('Gamma', 200, 126),
      ...grid([['Fuel', 'All stations']], [72, 200], 142),
    ];
    const tables = findTables(buildLines(items));
    expect(tables).toHaveLength(1);
    expect(tables[0]!.rows).toEqual([
      ['Shop', 'Partners'],
      ['Online', 'Alpha, Beta, Gamma'],
      ['Fuel', 'All stations'],
    ]);
  });

  it('does not swallow a heading set above the table in a bigger bold font', () => {
    const items = [
      item('Regional revenue', 72, 80, { size: 12, bold: true }),
      ...grid(
        [
          ['Region', 'Revenue'],
          ['North', '1,200'],
          ['South', '950'],
        ],
        [72, 220],
      ),
    ];
    const tables = findTables(buildLines(items));
    expect(tables).toHaveLength(1);
    expect(tables[0]!.start).toBe(1);
  });

  it('takes a bold header row set larger than the rows as the header, not the first data row', () => {
    const xs = [72, 160, 350];
    const items = [
      ...['Item Code', 'Description', 'Qty'].map((text, c) => item(text, xs[c]!, 80, { size: 11, bold: true })),
      ...grid(
        [
          ['A-100', 'Steel bolts M8', '1,200'],
          ['A-200', 'Hex nuts M8', '950'],
          ['B-310', 'Washers', '2,000'],
        ],
        xs,
        100,
        14,
      ).map((cell) => ({ ...cell, size: 9, x1: cell.x0 + (cell.x1 - cell.x0) * 0.9 })),
    ];
    const tables = findTables(buildLines(items));
    expect(tables).toHaveLength(1);
    expect(tables[0]!.start).toBe(0);
    expect(tables[0]!.rows[0]).toEqual(['Item Code', 'Description', 'Qty']);
    expect(tables[0]!.rows[1]).toEqual(['A-100', 'Steel bolts M8', '1,200']);
  });

  it('leaves a bold line whose text crosses the columns out of the table', () => {
    const xs = [72, 160, 350];
    const items = [
      item('Stock by item and site this quarter', 72, 80, { size: 11, bold: true }),
      item('page 2', 400, 80, { size: 11, bold: true }),
      ...grid(
        [
          ['A-100', 'Steel bolts M8', '1,200'],
          ['A-200', 'Hex nuts M8', '950'],
          ['B-310', 'Washers', '2,000'],
        ],
        xs,
        100,
        14,
      ).map((cell) => ({ ...cell, size: 9 })),
    ];
    const tables = findTables(buildLines(items));
    expect(tables).toHaveLength(1);
    expect(tables[0]!.start).toBe(1);
  });
});

/** The table under the group-label tests' header labels: a row of column names, then three rows of values. */
const GROUPED_BODY = [
  ['Item', 'name11', 'name12', 'name21', 'name22'],
  ['first', '1.0000', '2.0000', '3.0000', '4.0000'],
  ['second', '5.0000', '6.0000', '7.0000', '8.0000'],
  ['third', '9.0000', '1.5000', '2.5000', '3.5000'],
];
const GROUPED_XS = [72, 160, 230, 300, 370];

describe('renderGfmTable', () => {
  it('writes group labels centred over their column names as HTML cells spanning those columns', () => {
    const items = [
      // Each group label centred over two column names (30 wide each, 40 apart): over the gap between them.
      item('Group A', 192.5, 100),
      item('Group B', 332.5, 100),
      ...grid(
        GROUPED_BODY,
        GROUPED_XS,
        114,
      ),
    ];
    const [table, ...others] = findTables(buildLines(items));
    expect(others).toEqual([]);
    expect(table!.markdown.split('\n').slice(0, 4)).toEqual([
      '<table>',
      '<tr><th rowspan="2">Item</th><th colspan="2">Group A</th><th colspan="2">Group B</th></tr>',
      '<tr><th>name11</th><th>name12</th><th>name21</th><th>name22</th></tr>',
      '<tr><td>first</td><td>1.0000</td><td>2.0000</td><td>3.0000</td><td>4.0000</td></tr>',
    ]);
  });

  it('takes a label over the whole table for no group: no cell spans all the columns', () => {
    const items = [
      item('All the values', 200, 100),
      ...grid(
        GROUPED_BODY,
        GROUPED_XS,
        114,
      ),
    ];
    for (const table of findTables(buildLines(items))) expect(table.markdown).not.toMatch(/colspan/);
  });

  it('takes a caption centred over some columns for no group label: no cell spans', () => {
    const items = [
      // Centred over the second to fourth column names, as a caption over a table may fall.
      item('Table 2: Results', 205, 100),
      ...grid(
        GROUPED_BODY,
        GROUPED_XS,
        114,
      ),
    ];
    for (const table of findTables(buildLines(items))) expect(table.markdown).not.toMatch(/colspan/);
  });

  it('keeps a header whose labels each sit over one column as a pipe table', () => {
    const items = [
      item('Left', 165, 100),
      item('Right', 302, 100),
      ...grid(
        GROUPED_BODY,
        GROUPED_XS,
        114,
      ),
    ];
    const [table] = findTables(buildLines(items));
    expect(table!.markdown.split('\n')[0]).toBe('|  | Left |  | Right |  |');
  });

  it('pads ragged rows and escapes pipes', () => {
    expect(renderGfmTable([['a', 'b'], ['c|d']])).toBe('| a | b |\n| --- | --- |\n| c\\|d |  |');
  });
});

describe('figures of two columns that meet', () => {
  // A sheet printed as Calc prints it: labels from their cells' left edges, figures flush right, so a short month's
  // figures end 0.23 em before the next column's longer totals start.
  const size = 10;
  const rightAt = (text: string, right: number, baseline: number) => item(text, right - text.length * size * 0.5, baseline);
  /** Rows of figures, each row's pair ending at 230 and 257.3 (or the first just before the second: `groups`). */
  function sheet(header: PdfTextItem[], pairs: [string, string][], groups = false): PdfTextItem[] {
    return [
      ...header,
      ...pairs.flatMap(([left, right], row) => {
        const baseline = 114 + row * 14;
        return [
          item(`Store N0${row + 1}`, 72, baseline),
          rightAt(String(1500 + row * 211), 170, baseline),
          rightAt(left, groups ? 257.3 - right.length * size * 0.5 - 2.3 : 230, baseline),
          rightAt(right, 257.3, baseline),
          rightAt(String(11000 + row * 1733), 320, baseline),
        ];
      }),
    ];
  }
  const figures: [string, string][] = [
    ['2761', '13967'],
    ['1985', '10601'],
    ['3993', '15839'],
    ['1132', '9236'],
  ];

  it('reads a column each where the header has a label over each', () => {
    const header = [item('Store', 72, 100), item('May', 150, 100), item('Jun', 206, 100), item('Total', 232, 100), item('Target', 290, 100)];
    const tables = findTables(buildLines(sheet(header, figures)));
    expect(tables.map((table) => table.rows)).toEqual([
      [
        ['Store', 'May', 'Jun', 'Total', 'Target'],
        ['Store N01', '1500', '2761', '13967', '11000'],
        ['Store N02', '1711', '1985', '10601', '12733'],
        ['Store N03', '1922', '3993', '15839', '14466'],
        ['Store N04', '2133', '1132', '9236', '16199'],
      ],
    ]);
  });

  it("keeps a number's digit groups drawn apart as one cell under one label", () => {
    const header = [item('Store', 72, 100), item('May', 150, 100), item('Amount', 206, 100), item('Target', 290, 100)];
    const amounts: [string, string][] = [
      ['2', '761'],
      ['12', '345'],
      ['3', '993'],
      ['1', '132'],
    ];
    const tables = findTables(buildLines(sheet(header, amounts, true)));
    expect(tables.map((table) => table.rows.map((row) => row[2]))).toEqual([['Amount', '2 761', '12 345', '3 993', '1 132']]);
  });
});
