import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { detectGutters, orderRegions, pageRegions } from '../../../src/engine/pdf/columns.js';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { item, words } from './synthetic.js';

/** A two-column page: a spanning title, `rows` lines per column (about 240 pt wide), a spanning footer line. */
function twoColumnPage(rows = 20): PdfTextItem[] {
  const items: PdfTextItem[] = [item('A Title That Spans Both Columns Of The Page Easily', 50, 60, { size: 16 })];
  for (let i = 0; i < rows; i++) {
    items.push(item(`L${i} ${words(7, i)}`.padEnd(48, '.'), 50, 100 + i * 12));
    items.push(item(`R${i} ${words(7, i + 3)}`.padEnd(48, '.'), 320, 100 + i * 12));
  }
  items.push(item('A closing paragraph line that runs across the whole width of the page body.', 50, 100 + rows * 12 + 20));
  return items;
}

function texts(items: PdfTextItem[]): string[] {
  return items.map((entry) => entry.str.split(' ')[0]!);
}

describe('detectGutters', () => {
  it('sets a narrow sidebar of a few short lines apart when a wide empty channel runs beside it', () => {
    const items: PdfTextItem[] = [];
    for (let i = 0; i < 20; i++) items.push(item(`M${i} ${words(9, i)}`.padEnd(56, '.'), 50, 100 + i * 12));
    for (let i = 0; i < 8; i++) items.push(item(`S${i} ${words(2, i)}`, 400, 130 + i * 12));
    const lines = buildLines(items);
    const gutters = detectGutters(lines);
    expect(gutters).toHaveLength(1);
    const order = orderRegions(lines, gutters).flatMap((region) => texts(region.items));
    expect(order.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => `M${i}`));
    expect(order.slice(20)).toEqual(Array.from({ length: 8 }, (_, i) => `S${i}`));
  });

  it('sets the sidebar apart when line heights of every size leave no rounding in the empty channel', () => {
    // Lines of 9.3 to 11.7 pt: their heights, added and taken away along the page, must still sum to none there.
    const items: PdfTextItem[] = [];
    for (let i = 0; i < 20; i++) items.push(item(`M${i} ${words(8, i)}`.padEnd(48, '.'), 50, 100 + i * 13.7, { size: 9.3 + (i % 7) * 0.4 }));
    for (let i = 0; i < 8; i++) items.push(item(`S${i} ${words(2, i)}`, 400, 130 + i * 12.6, { size: 9.7 }));
    const lines = buildLines(items);
    expect(detectGutters(lines)).toHaveLength(1);
  });

  it('finds the gutter between two columns despite a title crossing it', () => {
    const gutters = detectGutters(buildLines(twoColumnPage()));
    expect(gutters).toHaveLength(1);
    expect(gutters[0]!.x0).toBeGreaterThanOrEqual(290);
    expect(gutters[0]!.x1).toBeLessThanOrEqual(321);
  });

  it('finds none on a single-column page with word gaps and ragged lines', () => {
    const items: PdfTextItem[] = [];
    for (let i = 0; i < 30; i++) {
      items.push(item(words(6, i), 50, 100 + i * 12));
      items.push(item(words(4 + (i % 5), i + 1), 50 + 6 * 30 + 4, 100 + i * 12));
    }
    expect(detectGutters(buildLines(items))).toEqual([]);
  });

  it('needs a few lines before it decides anything', () => {
    expect(detectGutters(buildLines([item('left', 50, 100), item('right', 400, 100)]))).toEqual([]);
  });
});

describe('orderRegions', () => {
  it('reads column 1, then column 2, with spanning lines in their vertical place', () => {
    const lines = buildLines(twoColumnPage());
    const regions = orderRegions(lines, detectGutters(lines));
    const order = regions.flatMap((region) => texts(buildLines(region.items).flatMap((line) => line.cells.flatMap((c) => c.items))));
    expect(order[0]).toBe('A');
    const firstRight = order.indexOf('R0');
    const lastLeft = order.indexOf('L19');
    expect(lastLeft).toBeGreaterThan(0);
    expect(firstRight).toBeGreaterThan(lastLeft);
    expect(order[order.length - 1]).toBe('A');
    expect(regions.map((region) => region.kind)).toEqual(['full', 'column', 'column', 'full']);
  });

  it('reads the columns right to left on a right-to-left page', () => {
    const lines = buildLines(twoColumnPage(8));
    const regions = orderRegions(lines, detectGutters(lines), true);
    const columns = regions.filter((region) => region.kind === 'column');
    expect(columns[0]!.x0).toBeGreaterThan(columns[1]!.x0);
  });

  it('reads a band whose "columns" are short table cells as one full-width region', () => {
    const items: PdfTextItem[] = [];
    // Prose columns above, then a band of short cells split by the same gutter.
    for (let i = 0; i < 12; i++) {
      items.push(item(`L${i} ${words(7, i)}`.padEnd(48, '.'), 50, 100 + i * 12));
      items.push(item(`R${i} ${words(7, i + 3)}`.padEnd(48, '.'), 320, 100 + i * 12));
    }
    items.push(item('A caption line that spans the whole page width for the table below it.', 50, 260));
    for (let i = 0; i < 5; i++) {
      items.push(item(`k${i}`, 50, 280 + i * 12));
      items.push(item(`${i * 11}`, 200, 280 + i * 12));
      items.push(item(`v${i}`, 330, 280 + i * 12));
      items.push(item(`${i * 7}%`, 480, 280 + i * 12));
    }
    const lines = buildLines(items);
    const regions = orderRegions(lines, detectGutters(lines));
    const last = regions[regions.length - 1]!;
    expect(last.kind).toBe('full');
    expect(last.items.map((entry) => entry.str)).toContain('k0');
    expect(last.items.map((entry) => entry.str)).toContain('v4');
  });

  it('reads a slide of two chart panels panel by panel: labels beside each other, notes under each chart', () => {
    const items: PdfTextItem[] = [item('Results of the two pilot projects compared with the regional baseline figures', 50, 60, { size: 14 })];
    // Each panel: a heading, a chart's short labels (axis ticks and values on the same rows as the other panel's), notes.
    for (const [x, name] of [[50, 'North'], [320, 'South']] as const) {
      items.push(item(`${name} pilot: answers per week`, x, 90, { size: 12 }));
      for (let i = 0; i < 6; i++) {
        items.push(item(`${100 - i * 20}`, x, 110 + i * 14));
        items.push(item(`${name[0]}${i}`, x + 60, 110 + i * 14));
        items.push(item(`${(i * 3.7).toFixed(1)}%`, x + 150, 110 + i * 14));
      }
      for (let i = 0; i < 3; i++) items.push(item(`${name} note ${i}: ${words(4, i)}`, x, 210 + i * 12));
    }
    const lines = buildLines(items);
    const regions = orderRegions(lines, detectGutters(lines));
    const order = regions.flatMap((region) => region.items.map((entry) => entry.str));
    // The whole North panel (its heading, labels and notes) before anything of the South panel.
    const lastNorth = Math.max(order.indexOf('North note 2: ' + words(4, 2)), order.indexOf('N5'));
    const firstSouth = Math.min(order.indexOf('South pilot: answers per week'), order.indexOf('S0'));
    expect(lastNorth).toBeGreaterThan(0);
    expect(firstSouth).toBeGreaterThan(lastNorth);
    expect(regions.filter((region) => region.kind === 'column')).toHaveLength(2);
  });

  it('reads a chart set over two columns of prose row by row before the columns, not split between them', () => {
    const items: PdfTextItem[] = [item('Figure 4: Answers per week in each of the three survey rounds of the year', 50, 60, { size: 11 })];
    // The chart's data labels and axis: short cells in rows that reach across the gutter.
    for (let i = 0; i < 4; i++) {
      items.push(item(`${80 - i * 20}`, 60, 90 + i * 14));
      items.push(item(`${31 + i}`, 150, 90 + i * 14));
      items.push(item(`${47 + i}`, 380, 90 + i * 14));
      items.push(item(`${12 + i}`, 480, 90 + i * 14));
    }
    items.push(item('July', 150, 150), item('October', 380, 150), item('January', 480, 150));
    for (let i = 0; i < 12; i++) {
      items.push(item(`L${i} ${words(7, i)}`.padEnd(48, '.'), 50, 190 + i * 12));
      items.push(item(`R${i} ${words(7, i + 3)}`.padEnd(48, '.'), 320, 190 + i * 12));
    }
    const lines = buildLines(items);
    const regions = orderRegions(lines, detectGutters(lines));
    const order = regions.flatMap((region) => region.items.map((entry) => entry.str));
    // Every label of the chart, its right half included, comes before the first line of prose.
    const firstProse = order.findIndex((text) => text.startsWith('L0 '));
    for (const label of ['47', '15', 'October', 'January']) expect(order.indexOf(label), label).toBeLessThan(firstProse);
    expect(order.findIndex((text) => text.startsWith('R0 '))).toBeGreaterThan(order.findIndex((text) => text.startsWith('L11 ')));
  });

  it('keeps a left-column line set a little into the gutter in its column, beside the right column', () => {
    const items: PdfTextItem[] = [];
    // Columns 220 pt wide with a 70-pt gutter (270 to 340 pt); notes under them, the left one's first line running
    // past the gutter's middle but not across it.
    for (let i = 0; i < 12; i++) {
      items.push(item(`L${i} ${words(6, i)}`.padEnd(44, '.'), 50, 100 + i * 12));
      items.push(item(`R${i} ${words(6, i + 3)}`.padEnd(44, '.'), 340, 100 + i * 12));
    }
    const bottom = 100 + 12 * 12 + 20;
    items.push(item('1 A left note that runs a little longer than its column', 50, bottom, { width: 270 }));
    items.push(item('3 A right note', 340, bottom));
    items.push(item('2 Its second line', 50, bottom + 12));
    items.push(item('4 The right note goes on', 340, bottom + 12));
    const lines = buildLines(items);
    const regions = orderRegions(lines, detectGutters(lines));
    const order = regions.flatMap((region) => region.items.map((entry) => entry.str.split(' ')[0]!));
    // The left note whole, then the right one: not their lines interleaved across the page.
    expect(['1', '2', '3', '4'].map((note) => order.indexOf(note))).toEqual([...['1', '2', '3', '4'].map((note) => order.indexOf(note))].sort((a, b) => a - b));
  });

  it('keeps the short last line of a spanning paragraph with it', () => {
    const items = twoColumnPage(10);
    const bottom = 100 + 10 * 12 + 20;
    items.push(item('and its short end.', 50, bottom + 12));
    const lines = buildLines(items);
    const regions = orderRegions(lines, detectGutters(lines));
    const last = regions[regions.length - 1]!;
    expect(last.kind).toBe('full');
    expect(last.items.map((entry) => entry.str)).toContain('and its short end.');
  });

  it('is one full region when there are no gutters', () => {
    const lines = buildLines([item('one', 50, 100), item('two', 50, 112)]);
    expect(orderRegions(lines, [])).toHaveLength(1);
  });
});

describe('pageRegions', () => {
  it("reads a page whose only gutters are a table's channels (rows of four short cells) as one region", () => {
    const items = [item(`${words(14, 1)} ${words(14, 2)}`, 50, 80)];
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 4; col++) items.push(item(`Cell ${row}${col}`, 50 + col * 150, 120 + row * 30));
    }
    const lines = buildLines(items);
    expect(detectGutters(lines).length).toBeGreaterThan(0);
    expect(pageRegions(lines, lines)).toHaveLength(1);
  });

  it('keeps two columns of short lines under their headings (two lists side by side) apart, no table', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
    const page = pdf.addPage([612, 792]);
    page.drawText('Village Market', { x: 72, y: 720, size: 20, font: bold });
    page.drawText('What you will find', { x: 72, y: 680, size: 13, font: bold });
    page.drawText('Good to know', { x: 320, y: 680, size: 13, font: bold });
    const left = ['Fresh bread daily', 'Local cheese', 'Seasonal fruit', 'Free-range eggs', 'Organic milk', 'Smoked fish', 'Honey from the hills'];
    const right = ['Open every Saturday', 'Card payments taken', 'Parking behind the hall', 'Dogs on leads welcome', 'Cash machine nearby', 'Toilets in the library', 'Hot drinks stall'];
    left.forEach((text, i) => page.drawText(text, { x: 72, y: 655 - i * 18, size: 11, font }));
    right.forEach((text, i) => page.drawText(text, { x: 320, y: 655 - i * 18, size: 11, font }));
    const doc = await convertBytes(await pdf.save(), { mode: 'fast' });
    expect(allBlocks(doc).filter((block) => block.type === 'table')).toEqual([]);
    const markdown = mainMarkdown(doc);
    expect(markdown.indexOf('Honey from the hills')).toBeLessThan(markdown.indexOf('Good to know'));
  });
});
