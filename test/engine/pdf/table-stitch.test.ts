/**
 * A ruled table continued on the next page (a generated two-page PDF): one table in the document Markdown, the
 * repeated header row written once, and a table block on each page with that part's rows and place.
 */
import { describe, expect, it } from 'vitest';
import { renderDocument } from '../../../src/engine/render.js';
import { writePdf } from './fixtures/pdf-writer.js';
import { convertBytes, optionsFor } from './helpers.js';
import { cellRuns, gridOperators } from './ruled-pdfs.js';

const XS = [72, 222, 372, 522];
const HEADER = ['Item', 'Site', 'Quantity'];
const rowsFrom = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => [`A-${first + i}`, i % 2 ? 'North' : 'South', String(10 * (first + i))]);

/** A page of prose, then `rows` in a ruled table whose top is at `top` (PDF user space). */
function tablePage(rows: string[][], top: number, prose: { text: string; y: number }) {
  const ys = Array.from({ length: rows.length + 1 }, (_, i) => top - 20 * i);
  return {
    runs: [{ x: 72, y: prose.y, text: prose.text, size: 10 }, ...cellRuns(rows, XS, ys)],
    graphics: gridOperators(XS, ys, 'stroke'),
  };
}

function twoPagePdf(secondHeader: readonly string[]): Uint8Array {
  return writePdf({
    pages: [
      tablePage([HEADER, ...rowsFrom(1, 6)], 300, { text: 'The stock counted at each site is listed below.', y: 700 }),
      tablePage([[...secondHeader], ...rowsFrom(7, 4)], 720, { text: 'Counts are taken on the last day of the month.', y: 560 }),
    ],
  });
}

async function render(bytes: Uint8Array) {
  const options = optionsFor({ mode: 'fast' });
  options.parsers = [{ type: 'pdf', mode: 'fast', blocks: true }] as typeof options.parsers;
  const model = await convertBytes(bytes, { mode: 'fast' });
  return { model, data: renderDocument(model, options, { contentType: 'application/pdf' }) };
}

describe('a table continued on the next page', () => {
  it('is one table in the Markdown, the repeated header once, with a table block on each page', async () => {
    const { model, data } = await render(twoPagePdf(HEADER));
    const markdown = data.markdown!;
    expect(markdown.match(/<table>/g)).toHaveLength(1);
    expect(markdown.match(/<\/table>/g)).toHaveLength(1);
    expect(markdown.match(/<th>Item<\/th>/g)).toHaveLength(1);
    const rows = [...markdown.matchAll(/<tr><td>(A-\d+)<\/td>/g)].map((match) => match[1]);
    expect(rows).toEqual(Array.from({ length: 10 }, (_, i) => `A-${i + 1}`));
    expect(markdown.indexOf('listed below')).toBeLessThan(markdown.indexOf('<table>'));
    expect(markdown.indexOf('</table>')).toBeLessThan(markdown.indexOf('last day of the month'));

    const tableBlocks = model.pages.map((page) => page.blocks.filter((block) => block.type === 'table'));
    expect(tableBlocks.map((blocks) => blocks.length)).toEqual([1, 1]);
    expect(tableBlocks[0]![0]!.markdown).toMatch(/^<table>\n<tr><th>Item<\/th><th>Site<\/th><th>Quantity<\/th><\/tr>\n/);
    expect(tableBlocks[0]![0]!.markdown).not.toContain('</table>');
    expect(tableBlocks[1]![0]!.markdown).toMatch(/^<tr><td>A-7<\/td><td>South<\/td><td>70<\/td><\/tr>\n/);
    expect(tableBlocks[1]![0]!.markdown).toMatch(/<\/table>$/);
    // Each part keeps its own place: the bottom of page 1, the top of page 2.
    expect(tableBlocks[0]![0]!.bbox![1]).toBeGreaterThan(0.5);
    expect(tableBlocks[1]![0]!.bbox![1]).toBeLessThan(0.2);
    const spans = data.blocks!.flatMap((page) => page.items.filter((item) => item.type === 'table').map((item) => item.markdownSpan));
    expect(spans.map((span) => markdown.slice(span![0], span![1]))).toEqual(tableBlocks.map((blocks) => blocks[0]!.markdown));
  });

  it('a table of other columns on the next page is a table of its own', async () => {
    const { data } = await render(
      writePdf({
        pages: [
          tablePage([HEADER, ...rowsFrom(1, 6)], 300, { text: 'The stock counted at each site is listed below.', y: 700 }),
          {
            runs: cellRuns([['Site', 'Manager'], ['North', 'J. Smith'], ['South', 'A. Jones']], [72, 272, 472], [720, 700, 680, 660]),
            graphics: gridOperators([72, 272, 472], [720, 700, 680, 660], 'stroke'),
          },
        ],
      }),
    );
    expect(data.markdown!.match(/^\| --- \| --- \| --- \|$/gm)).toHaveLength(1);
    expect(data.markdown!.match(/^\| --- \| --- \|$/gm)).toHaveLength(1);
    expect(data.markdown).not.toContain('<table>');
  });
});
