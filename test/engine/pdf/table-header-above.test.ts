import { describe, expect, it } from 'vitest';
import { renderTableGrid } from '../../../src/engine/pdf/table-grid.js';
import { withHeaderAbove, type PlacedTable } from '../../../src/engine/pdf/table-header-above.js';
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';
import { item } from './synthetic.js';

// A borderless body of three rows in four columns (x 72, 160, 240, 320; cells 30 wide), its first row's top at 140.
const XS = [72, 160, 240, 320];
const BODY = [
  ['north', '1.0000', '2.0000', '3.0000'],
  ['south', '4.0000', '5.0000', '6.0000'],
  ['west', '7.0000', '8.0000', '9.0000'],
];
const bodyItems = BODY.flatMap((row, r) => row.map((text, c) => item(text, XS[c]!, 150 + r * 14)));
const table: PlacedTable = { rect: { x0: 72, y0: 141, x1: 350, y1: 182 }, rows: BODY.map((row) => [...row]) };

function read(above: PdfTextItem[], rulings = [] as { x0: number; y0: number; x1: number; y1: number }[]): string | undefined {
  const found = withHeaderAbove(table, [...above, ...bodyItems], rulings);
  return found && renderTableGrid(found.grid);
}

describe('header rows above a table body', () => {
  it('joins labels wrapped over two lines, each in its column, into the header row', () => {
    const markdown = read([
      item('Region', 72, 124),
      item('First', 160, 124),
      item('Second', 240, 124),
      item('Third', 320, 124),
      item('value', 160, 136),
      item('value', 240, 136),
      item('value', 320, 136),
    ]);
    expect(markdown?.split('\n').slice(0, 3)).toEqual([
      '| Region | First value | Second value | Third value |',
      '| --- | --- | --- | --- |',
      '| north | 1.0000 | 2.0000 | 3.0000 |',
    ]);
  });

  it('spans a group label over the columns its rule marks; the columns outside it span both header rows', () => {
    const markdown = read(
      [
        // 'Values by year' is 70 wide, centred over the three value columns (160..350): x0 220.
        item('Values by year', 220, 118),
        item('Region', 72, 126),
        item('2021', 165, 136),
        item('2022', 245, 136),
        item('2023', 325, 136),
      ],
      // The rule drawn under the group label, cell by cell.
      [
        { x0: 158, y0: 122, x1: 236, y1: 122 },
        { x0: 236, y0: 122, x1: 352, y1: 122 },
      ],
    );
    expect(markdown?.split('\n').slice(0, 4)).toEqual([
      '<table>',
      '<tr><th rowspan="2">Region</th><th colspan="3">Values by year</th></tr>',
      '<tr><th>2021</th><th>2022</th><th>2023</th></tr>',
      '<tr><td>north</td><td>1.0000</td><td>2.0000</td><td>3.0000</td></tr>',
    ]);
  });

  it('takes a rule under a whole row of labels for no group: each label heads its own column', () => {
    const markdown = read(
      [item('Region', 72, 126), item('2021', 165, 126), item('2022', 245, 126), item('2023', 325, 126), item('Total', 165, 112), item('Mean', 245, 112)],
      [{ x0: 158, y0: 120, x1: 352, y1: 120 }],
    );
    expect(markdown ?? '').not.toMatch(/colspan/);
  });

  it('leaves a heading across the columns above the table out of it', () => {
    expect(read([item('Regional values of the year', 140, 132)])).toBeUndefined();
  });

  it('leaves a caption above the table out of it', () => {
    expect(read([item('Table 3.', 72, 132), item('Values', 160, 132)])).toBeUndefined();
  });

  it('leaves a lone label above the first column out of it', () => {
    expect(read([item('Notes', 72, 132)])).toBeUndefined();
  });
});

/** Items one per word, as the reader gives them: each word's width its length at half an em, a space apart. */
function wordItems(text: string, x0: number, baseline: number): PdfTextItem[] {
  const out: PdfTextItem[] = [];
  let x = x0;
  for (const word of text.split(' ')) {
    out.push(item(word, x, baseline));
    x += (word.length + 0.5) * 5;
  }
  return out;
}

describe('header rows above a table body read word by word', () => {
  // An invoice's line items: descriptions of several words over rows of one or two, quantities and prices set
  // flush right, and a header whose labels are set from the cells' left edges (`Unit Price` over the gap before
  // its prices).
  const ITEMS = [
    ['A-100', 'Hydraulic pump assembly', '2', '1,250.00'],
    ['B-220', 'Pressure gauge, 0-300 psi', '10', '38.50'],
    ['C-015', 'Seal kit', '25', '9.20'],
  ];
  const right = (text: string, edge: number) => edge - text.length * 5;
  const body = ITEMS.flatMap(([code, description, qty, price], r) => [
    ...wordItems(code!, 72, 150 + 14 * r),
    ...wordItems(description!, 120, 150 + 14 * r),
    item(qty!, right(qty!, 300), 150 + 14 * r),
    item(price!, right(price!, 400), 150 + 14 * r),
  ]);
  const itemsTable: PlacedTable = { rect: { x0: 72, y0: 141, x1: 400, y1: 182 }, rows: ITEMS.map((row) => [...row]) };

  it('joins the words of each label and of each body cell', () => {
    const header = [...wordItems('Item #', 72, 134), ...wordItems('Description', 120, 134), ...wordItems('Qty', 276, 134), ...wordItems('Unit Price', 310, 134)];
    const found = withHeaderAbove(itemsTable, [...header, ...body]);
    expect(found && renderTableGrid(found.grid).split('\n').slice(0, 3)).toEqual([
      '| Item # | Description | Qty | Unit Price |',
      '| --- | --- | --- | --- |',
      '| A-100 | Hydraulic pump assembly | 2 | 1,250.00 |',
    ]);
  });
});
