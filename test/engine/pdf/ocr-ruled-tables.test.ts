/**
 * Ruled tables in pictures: a table pasted as an image in a text page (mode auto) and a scanned page holding a
 * ruled table (mode ocr) come out as tables with their cells, their grid taken out of the picture before OCR
 * (ocr/bitmap-rules.ts) and given to the layout as rules.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { takeRules } from '../../../src/engine/pdf/ocr/bitmap-rules.js';
import { layoutOcrRegion } from '../../../src/engine/pdf/ocr/ocr-layout.js';
import type { OcrLine } from '../../../src/engine/pdf/ocr/ocr-line.js';
import type { Ruling } from '../../../src/engine/pdf/rulings.js';
import type { GreyBitmap } from '../../../src/engine/pdf/ocr/render-page.js';
import { terminateOcrWorkers } from '../../../src/engine/pdf/ocr/tesseract.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { mixedPdf, pictureOfText } from './image-pdfs.js';
import { cellRuns, gridOperators } from './ruled-pdfs.js';
import { scannedPdf } from './scanned-pdfs.js';

afterAll(() => terminateOcrWorkers());

/** A white bitmap of `width` × `height` pixels at `scale` pixels a point, `origin` its corner on the page. */
function blank(width: number, height: number, scale = 2, origin = { x: 0, y: 0 }): GreyBitmap {
  return { width, height, pixels: new Uint8Array(width * height).fill(255), scale, origin };
}

function fill(bitmap: GreyBitmap, x0: number, y0: number, x1: number, y1: number, grey = 0): void {
  for (let y = y0; y < y1; y++) bitmap.pixels.fill(grey, y * bitmap.width + x0, y * bitmap.width + x1);
}

function inkIn(bitmap: GreyBitmap, x0: number, y0: number, x1: number, y1: number): number {
  let ink = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (bitmap.pixels[y * bitmap.width + x]! < 160) ink++;
  return ink;
}

describe('ruled lines in a bitmap', () => {
  it('finds a grid\'s lines in page units, joins a line\'s rows into one rule, and whitens them', () => {
    // 2 pixels a point; the bitmap's corner at (100, 50) on the page. Rows at 20 and 120 (two pixels thick), columns at
    // 20 and 220; a grey edge beside the top row, as anti-aliasing draws it.
    const bitmap = blank(300, 200, 2, { x: 100, y: 50 });
    fill(bitmap, 20, 20, 222, 22);
    fill(bitmap, 20, 22, 222, 23, 200);
    fill(bitmap, 20, 120, 222, 122);
    fill(bitmap, 20, 20, 22, 122);
    fill(bitmap, 220, 20, 222, 122);
    const rules = takeRules(bitmap);
    const across = rules.filter((rule) => rule.y0 === rule.y1).sort((p, q) => p.y0 - q.y0);
    const down = rules.filter((rule) => rule.x0 === rule.x1).sort((p, q) => p.x0 - q.x0);
    expect(across.map((rule) => [rule.x0, rule.x1, rule.y0])).toEqual([
      [110, 211, 60.5],
      [110, 211, 110.5],
    ]);
    expect(down.map((rule) => [rule.x0, rule.y0, rule.y1])).toEqual([
      [110.5, 60, 111],
      [210.5, 60, 111],
    ]);
    expect(inkIn(bitmap, 0, 0, 300, 200)).toBe(0);
    expect(bitmap.pixels[22 * 300 + 100]).toBe(255);
  });

  it('leaves text strokes, thick bars and short dashes in place', () => {
    const bitmap = blank(400, 300);
    // A 10 pt letter's stem (14 pixels), a title's stem as long as a rule but 6 pt thick, a dark bar, a dash.
    fill(bitmap, 10, 10, 12, 24);
    fill(bitmap, 40, 10, 52, 120);
    fill(bitmap, 100, 150, 380, 200, 40);
    fill(bitmap, 100, 250, 130, 252);
    const ink = inkIn(bitmap, 0, 0, 400, 300);
    expect(takeRules(bitmap)).toEqual([]);
    expect(inkIn(bitmap, 0, 0, 400, 300)).toBe(ink);
  });

  it('keeps a rule whole across the rules it crosses, and a letter touching it', () => {
    const bitmap = blank(400, 200);
    fill(bitmap, 10, 100, 390, 102);
    for (const x of [60, 120, 180, 240, 300]) fill(bitmap, x, 10, x + 2, 190);
    // A descender resting on the line.
    fill(bitmap, 330, 90, 333, 102);
    const across = takeRules(bitmap).filter((rule) => rule.y0 === rule.y1);
    expect(across.map((rule) => [rule.x0, rule.x1])).toEqual([[5, 195]]);
  });
});

describe('words of a picture\'s ruled grid', () => {
  /** One line of words at `y` (pixels, 1 pixel a point), each [text, x, confidence]. */
  function line(y: number, words: [string, number, number][]): OcrLine {
    return {
      words: words.map(([text, x, confidence]) => ({ text, x0: x, y0: y - 10, x1: x + 8 * text.length, y1: y, confidence })),
      baseline: { x0: 0, y0: y, x1: 400, y1: y },
      rowHeight: 12,
      rtl: false,
    };
  }
  const grid: Ruling[] = [
    ...[100, 130, 160].map((y) => ({ x0: 0, y0: y, x1: 300, y1: y })),
    ...[0, 150, 300].map((x) => ({ x0: x, y0: 100, x1: x, y1: 160 })),
  ];

  it('keeps the words tesseract is unsure of inside the grid, and drops them outside it', () => {
    const lines = [line(40, [['Caption', 10, 0.95], ['smudge', 100, 0.3]]), line(122, [['S1', 10, 0.9], ['3puL', 160, 0.31]]), line(152, [['S2', 10, 0.9], ['10', 160, 0]])];
    const blocks = layoutOcrRegion(lines, 1, { x: 0, y: 0 }, 612, 792, grid);
    const text = blocks.map((block) => block.markdown).join('\n');
    expect(text).toContain('Caption');
    expect(text).not.toContain('smudge');
    expect(blocks.find((block) => block.kind === 'table')?.markdown).toMatch(/\| S1 \| 3puL \|\n\| --- \| --- \|\n\| S2 \| 10 \|/);
    // Without a grid the same words are held to tesseract's confidence.
    expect(layoutOcrRegion(lines, 1, { x: 0, y: 0 }, 612, 792).map((block) => block.markdown).join('\n')).not.toMatch(/3puL|\b10\b/);
  });
});

const ROWS = [
  ['Region', 'Units', 'Revenue'],
  ['North', '120', '4500'],
  ['South', '95', '3800'],
  ['West', '210', '7900'],
];
/** The table's grid on a 360 × 120 pt canvas (PDF space, top row first). */
const XS = [10, 130, 240, 350];
const YS = [110, 84, 58, 32, 6];

function tableRuns() {
  return cellRuns(ROWS, XS, YS, { size: 12 }).map((run) => ({ ...run, y: run.y - 4 }));
}

function tableIn(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('| ---'))
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
}

describe('ruled tables in pictures', () => {
  it('reads a ruled table pasted as a picture in a text page as a table under auto', async () => {
    const picture = await pictureOfText(tableRuns(), 360, 120, 150, gridOperators(XS, YS, 'stroke'));
    const pdf = mixedPdf([
      {
        text: [
          { x: 72, y: 720, text: 'Sales by region are in the table below.', size: 12 },
          { x: 72, y: 520, text: 'The text after the table closes the page.', size: 12 },
        ],
        images: [{ bitmap: picture, x: 72, y: 560, width: 360, height: 120 }],
      },
    ]);
    const model = await convertBytes(pdf, { mode: 'auto' });
    const tables = allBlocks(model).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]!.source).toBe('layout_ocr');
    expect(tableIn(tables[0]!.markdown)).toEqual(ROWS);
    expect(mainMarkdown(model)).toMatch(/in the table below\.\n\n\| Region[\s\S]*\| West \| 210 \| 7900 \|\n\nThe text after the table/);
  });

  it('reads a scanned page\'s ruled table as a table under mode ocr', async () => {
    const xs = XS.map((x) => x + 72);
    const ys = YS.map((y) => y + 560);
    const runs = [{ x: 72, y: 720, text: 'Sales by region', size: 14 }, ...cellRuns(ROWS, xs, ys, { size: 12 }).map((run) => ({ ...run, y: run.y - 4 }))];
    const pdf = await scannedPdf({ runs, graphics: gridOperators(xs, ys, 'fill') }, { dpi: 200 });
    const model = await convertBytes(pdf, { mode: 'ocr' });
    const tables = allBlocks(model).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tableIn(tables[0]!.markdown)).toEqual(ROWS);
    // The title stands alone right above the table. Set at 14 points over the table's 12, it is a heading's step
    // bigger as OCR measures the two (1.15 ×) or just short of it: either reading is the page's.
    expect(mainMarkdown(model)).toMatch(/^(?:## )?Sales by region\n\n\| Region/m);
  });

  it("parts the rows of a scanned table shaded every other row, with no rule between its rows, one cell wrapped", async () => {
    // A frame, column rules and a rule under the header; the body's rows told apart only by their shading. The
    // second row's name wraps over two lines, so its columns hold different counts of lines.
    const xs = [72, 312, 412, 512];
    const ys = [700, 676, 652, 614, 590, 566];
    const names = [['Khmer United Party'], ['Cambodian Indigenous Peoples', 'Democracy Party'], ['Grassroots Democracy Party'], ['Beehive Social Party']];
    const figures = [['35', '498'], ['19', '194'], ['32', '435'], ['25', '425']];
    const runs = [
      ...['Party', 'Seats', 'Votes'].map((text, c) => ({ x: xs[c]! + 6, y: ys[0]! - 16, text, size: 12 })),
      ...names.flatMap((lines, r) => lines.map((text, l) => ({ x: xs[0]! + 6, y: ys[r + 1]! - 16 - l * 15, text, size: 12 }))),
      ...figures.flatMap((cells, r) => cells.map((text, c) => ({ x: xs[c + 1]! + 6, y: ys[r + 1]! - 16, text, size: 12 }))),
    ];
    const band = (r: number) => `${xs[0]} ${ys[r + 1]} ${xs[3]! - xs[0]!} ${ys[r]! - ys[r + 1]!} re f`;
    const graphics = [
      '0.82 g',
      band(2),
      band(4),
      '0 g 0 G 0.75 w',
      `${xs[0]} ${ys[5]} ${xs[3]! - xs[0]!} ${ys[0]! - ys[5]!} re S`,
      ...[xs[1], xs[2]].map((x) => `${x} ${ys[0]} m ${x} ${ys[5]} l S`),
      `${xs[0]} ${ys[1]} m ${xs[3]} ${ys[1]} l S`,
    ].join('\n');
    const model = await convertBytes(await scannedPdf({ runs, graphics }, { dpi: 200 }), { mode: 'ocr' });
    const tables = allBlocks(model).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tableIn(tables[0]!.markdown)).toEqual([
      ['Party', 'Seats', 'Votes'],
      ['Khmer United Party', '35', '498'],
      ['Cambodian Indigenous Peoples Democracy Party', '19', '194'],
      ['Grassroots Democracy Party', '32', '435'],
      ['Beehive Social Party', '25', '425'],
    ]);
  });
});
