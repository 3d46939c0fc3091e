/**
 * A slide template's panel round the title and text is no table: the slide reads as its title and paragraphs, where
 * LiteParse's "table" cut its lines into columns at their gaps. A box whose header row is set as its body stays.
 */
import { describe, expect, it } from 'vitest';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { itemsInside } from '../../../src/engine/pdf/table-header-above.js';
import { isSlideFrame } from '../../../src/engine/pdf/table-slide-frame.js';
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';
import { convertBytes, mainMarkdown } from './helpers.js';
import { panelSlide } from './slide-pdfs.js';
import { item } from './synthetic.js';

describe('isSlideFrame', () => {
  const rect = { x0: 20, y0: 10, x1: 770, y1: 400 };
  const boxLines = (items: PdfTextItem[]) => buildLines(itemsInside(rect, items));

  it('takes a box that opens with a title in type larger than all the text under it', () => {
    const items = [item('Customer feedback', 45, 60, { size: 30 }), item('Customers praised the new portal', 45, 130, { size: 24 }), item('We will act', 45, 170, { size: 24 })];
    expect(isSlideFrame(boxLines(items))).toBe(true);
  });

  it('leaves a table whose header row is set about as large as its body, and one whose top row has cells', () => {
    const header = [item('Region', 45, 60, { size: 11, bold: true }), item('Revenue', 300, 60, { size: 11, bold: true })];
    const body = [item('North', 45, 80), item('1,200', 300, 80), item('South', 45, 100), item('980', 300, 100)];
    expect(isSlideFrame(boxLines([...header, ...body]))).toBe(false);
    const large = [item('Region', 45, 60, { size: 16 }), item('Revenue', 300, 60, { size: 16 })];
    expect(isSlideFrame(boxLines([...large, ...body]))).toBe(false);
  });
});

describe('a printed slide framed by a panel', () => {
  it('reads as its title and its paragraphs, not as a table', async () => {
    const bytes = await panelSlide(
      'Customer feedback',
      [
        ['Customers praised the new ordering portal and the faster delivery', 'times. Several asked for more flexible payment terms and a clearer', 'returns policy.'],
        ['We will address these requests in the next quarter.'],
      ],
      ['28 November 2026', 'Northwind Traders'],
    );
    const markdown = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    expect(markdown).not.toContain('|');
    expect(markdown).toContain(
      '# Customer feedback\n\nCustomers praised the new ordering portal and the faster delivery times. Several asked for more flexible payment terms and a clearer returns policy.\n\nWe will address these requests in the next quarter.',
    );
  });
});
