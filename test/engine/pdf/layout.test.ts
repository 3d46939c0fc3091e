/** Page and document layout end to end on synthetic items (no PDF). */
import { describe, expect, it } from 'vitest';
import { finishDocument, normaliseBbox, type LaidOutPage } from '../../../src/engine/pdf/document-layout.js';
import { layoutPage } from '../../../src/engine/pdf/page-layout.js';
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';
import { item, words } from './synthetic.js';

const W = 612;
const H = 792;

/** A page with a running header, a heading, body text in two columns and a page-number footer. */
function pageItems(n: number, options: { header?: string; title?: string } = {}): PdfTextItem[] {
  const items: PdfTextItem[] = [];
  if (options.header !== undefined) items.push(item(options.header, 300, 40, { size: 9 }));
  if (options.title) items.push(item(options.title, 50, 80, { size: 20, bold: true }));
  items.push(item('Introduction', 50, 120, { size: 12, bold: true }));
  for (let i = 0; i < 15; i++) {
    items.push(item(`L${n}.${i} ${words(7, i)}`.padEnd(48, '.'), 50, 140 + i * 12));
    items.push(item(`R${n}.${i} ${words(7, i + 5)}`.padEnd(48, '.'), 320, 140 + i * 12));
  }
  items.push(item(String(n), 300, 760, { size: 9 }));
  return items;
}

function laidOut(pages: PdfTextItem[][]): LaidOutPage[] {
  return pages.map((items, i) => ({
    pageNumber: i + 1,
    width: W,
    height: H,
    status: 'ok' as const,
    layout: layoutPage({ items, width: W, height: H }),
  }));
}

describe('layoutPage + finishDocument', () => {
  it('types furniture across pages, finds the title and headings, reads columns in order', () => {
    const pages = finishDocument(
      laidOut([
        pageItems(1, { header: 'ACME Report', title: 'The Annual Review' }),
        pageItems(2, { header: 'ACME Report' }),
      ]),
    );
    const [first, second] = pages;
    expect(first!.blocks[0]).toMatchObject({ type: 'page_header', markdown: 'ACME Report', furniture: true });
    expect(first!.blocks[1]).toMatchObject({ type: 'title', markdown: '# The Annual Review' });
    expect(first!.blocks[2]).toMatchObject({ type: 'section_header', markdown: '## Introduction' });
    expect(first!.blocks.at(-1)).toMatchObject({ type: 'page_number', markdown: '1', furniture: true });
    expect(second!.blocks.at(-1)).toMatchObject({ type: 'page_number', markdown: '2', furniture: true });
    const text = second!.blocks.map((block) => block.markdown).join('\n');
    expect(text.indexOf('L2.14')).toBeLessThan(text.indexOf('R2.0'));
    for (const block of first!.blocks) expect(block.source).toBe('native_text');
  });

  it('keeps a top line that appears on one page only as content', () => {
    const pages = finishDocument(laidOut([pageItems(1, { header: 'A one-off banner' }), pageItems(2)]));
    expect(pages[0]!.blocks[0]).toMatchObject({ type: 'text', markdown: 'A one-off banner' });
    expect(pages[0]!.blocks[0]!.furniture).toBeUndefined();
  });

  it('counts margin lines out of the body font size', () => {
    const layout = layoutPage({ items: pageItems(1, { header: 'ACME Report' }), width: W, height: H });
    expect([...layout.sizes.keys()]).not.toContain(9);
  });

  it('settles deferred line-end hyphens with the words of the whole document', () => {
    const page1 = [
      item(`${words(8)} a dual-`, 50, 100),
      item('encoder model and a trans-', 50, 112),
      item('formation step.', 50, 124),
    ];
    const page2 = [item('The dual-encoder is trained end to end.', 50, 100)];
    const pages = finishDocument(laidOut([page1, page2]));
    expect(pages[0]!.blocks[0]!.markdown).toContain('a dual-encoder model and a transformation step.');
  });
});

describe('normaliseBbox', () => {
  it('normalises to 0..1, clamped, and is null without page dimensions', () => {
    expect(normaliseBbox({ x0: 61.2, y0: 79.2, x1: 700, y1: 396 }, 612, 792)).toEqual([0.1, 0.1, 1, 0.5]);
    expect(normaliseBbox({ x0: 0, y0: 0, x1: 1, y1: 1 }, null, 792)).toBeNull();
  });
});

describe('hostile pages', () => {
  it('lays out 150 000 items, one line of 130 000 among them, without spreading past the call-argument limit', () => {
    const items: PdfTextItem[] = [];
    for (let i = 0; i < 130_000; i++) items.push(item('x', 10 + i * 0.004, 100, { width: 0.004 }));
    for (let l = 0; l < 1000; l++) for (let i = 0; i < 20; i++) items.push(item('word', 10 + i * 25, 120 + l * 0.7));
    const layout = layoutPage({ items, width: W, height: H });
    expect(layout.blocks.length).toBeGreaterThan(0);
  });
});

describe('tables found by LiteParse', () => {
  /** An intro line, a 3 × 2 grid of cells, and a closing line. */
  function gridPage(): PdfTextItem[] {
    const items = [item('The figures for the year follow.', 50, 100)];
    for (const [row, cells] of [['Region', 'Sales'], ['North', '120'], ['South', '95']].entries()) {
      items.push(item(cells[0]!, 60, 130 + row * 14), item(cells[1]!, 200, 130 + row * 14));
    }
    items.push(item('All figures are in thousands.', 50, 200));
    return items;
  }
  const table = { rect: { x0: 55, y0: 118, x1: 230, y1: 162 }, rows: [['Region', 'Sales'], ['North', '120'], ['South', '95']] };

  it('takes its cells as a table in the reading order, and its text out of the paragraphs', () => {
    const layout = layoutPage({ items: gridPage(), tables: [table], width: W, height: H });
    expect(layout.blocks.map((block) => block.kind)).toEqual(['paragraph', 'table', 'paragraph']);
    expect(layout.blocks[1]!.markdown).toBe('| Region | Sales |\n| --- | --- |\n| North | 120 |\n| South | 95 |');
    expect(layout.blocks.map((block) => block.text).join(' ').match(/North/g)).toHaveLength(1);
  });

  it('leaves the text under a "table" whose cells hold little of it in the flow, where it was read', () => {
    // LiteParse reports such boxes over prose (a printed web page: two rows of a few words over a whole section).
    const prose: PdfTextItem[] = [];
    for (let i = 0; i < 20; i++) prose.push(item(`Line ${i} of the article ${words(8, i)}`, 50, 100 + i * 14));
    const bogus = { rect: { x0: 45, y0: 90, x1: 500, y1: 400 }, rows: [['Line 3 of the', 'article'], ['', '']] };
    const layout = layoutPage({ items: prose, tables: [bogus], width: W, height: H });
    expect(layout.blocks.map((block) => block.kind)).not.toContain('table');
    const text = layout.blocks.map((block) => block.text).join(' ');
    for (let i = 0; i < 20; i++) expect(text).toContain(`Line ${i} of the article`);
  });

  it('leaves a table whose cell borders are drawn to docmill’s ruled grid', () => {
    const rulings = [118, 136, 150, 164].map((y) => ({ x0: 55, y0: y, x1: 230, y1: y }));
    for (const x of [55, 150, 230]) rulings.push({ x0: x, y0: 118, x1: x, y1: 164 });
    const skewed = { ...table, rows: [['Region Sales'], ['North 120'], ['South 95']] };
    const layout = layoutPage({ items: gridPage(), rulings, tables: [skewed], width: W, height: H });
    const tables = layout.blocks.filter((block) => block.kind === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]!.markdown).toContain('| North | 120 |');
  });
});
