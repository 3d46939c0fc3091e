/**
 * A ruled table continued on the next page (a generated two-page PDF): one table in the document Markdown, the
 * repeated header row written once, and a table block on each page with that part's rows and place. Without
 * spans it is one GFM table; with a cell spanning columns, one HTML table.
 */
import { describe, expect, it } from 'vitest';
import { chunk } from '../../../src/chunk/chunk.js';
import type { DocumentModel, ModelBlock } from '../../../src/engine/model.js';
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

/** The body rows' first cells, in the order the Markdown writes them. */
const pipeRows = (markdown: string) => [...markdown.matchAll(/^\| (A-\d+) \|/gm)].map((match) => match[1]);

describe('a table continued on the next page', () => {
  it('is one GFM table in the Markdown, the repeated header once, with a table block on each page', async () => {
    const { model, data } = await render(twoPagePdf(HEADER));
    const markdown = data.markdown!;
    expect(markdown).not.toContain('<table>');
    expect(markdown).toContain(
      '| Item | Site | Quantity |\n| --- | --- | --- |\n| A-1 | South | 10 |\n| A-2 | North | 20 |\n| A-3 | South | 30 |\n| A-4 | North | 40 |\n| A-5 | South | 50 |\n| A-6 | North | 60 |\n| A-7 | South | 70 |\n',
    );
    expect(markdown.match(/^\| Item \|/gm)).toHaveLength(1);
    expect(markdown.match(/^\| --- \|/gm)).toHaveLength(1);
    expect(pipeRows(markdown)).toEqual(Array.from({ length: 10 }, (_, i) => `A-${i + 1}`));
    expect(markdown.indexOf('listed below')).toBeLessThan(markdown.indexOf('| Item'));
    expect(markdown.indexOf('| A-10 |')).toBeLessThan(markdown.indexOf('last day of the month'));

    const tableBlocks = model.pages.map((page) => page.blocks.filter((block) => block.type === 'table'));
    expect(tableBlocks.map((blocks) => blocks.length)).toEqual([1, 1]);
    expect(tableBlocks[0]![0]!.markdown).toMatch(/^\| Item \| Site \| Quantity \|\n\| --- \| --- \| --- \|\n\| A-1 \|/);
    expect(tableBlocks[1]![0]!.markdown).toMatch(/^\| A-7 \| South \| 70 \|\n/);
    expect(tableBlocks[1]![0]!.markdown).not.toContain('Item');
    // Each part keeps its own place: the bottom of page 1, the top of page 2.
    expect(tableBlocks[0]![0]!.bbox![1]).toBeGreaterThan(0.5);
    expect(tableBlocks[1]![0]!.bbox![1]).toBeLessThan(0.2);
    const spans = data.blocks!.flatMap((page) => page.items.filter((item) => item.type === 'table').map((item) => item.markdownSpan));
    expect(spans.map((span) => markdown.slice(span![0], span![1]))).toEqual(tableBlocks.map((blocks) => blocks[0]!.markdown));
  });

  it('is read by the chunker as one table: a chunk of the rows on the next page has the header above them', async () => {
    const { data } = await render(twoPagePdf(HEADER));
    const chunks = chunk(data, { maxTokens: 40 });
    const withLaterRows = chunks.filter((piece) => piece.text.includes('| A-9 |'));
    expect(withLaterRows).toHaveLength(1);
    expect(withLaterRows[0]!.text).toMatch(/^\| Item \| Site \| Quantity \|\n\| --- \| --- \| --- \|\n/);
  });

  it('writes its header again where something stands between the parts, and no page marker inside it', async () => {
    const { model } = await render(twoPagePdf(HEADER));
    const options = optionsFor({ mode: 'fast' });
    options.parsers = [{ type: 'pdf', mode: 'fast', pageMarkers: true }] as typeof options.parsers;
    const marked = renderDocument(model, options, { contentType: 'application/pdf' }).markdown!;
    expect(pipeRows(marked)).toEqual(Array.from({ length: 10 }, (_, i) => `A-${i + 1}`));
    expect(marked).not.toContain('<!-- page 2 -->');
    // A running footer kept in the text (onlyMainContent off) at the foot of page 1, between the two parts.
    const footer: ModelBlock = { type: 'page_footer', label: null, markdown: 'Stock report, page 1', furniture: true, source: 'layout' };
    const withFooter: DocumentModel = { ...model, pages: model.pages.map((page, i) => (i === 0 ? { ...page, blocks: [...page.blocks, footer] } : page)) };
    const kept = optionsFor({ mode: 'fast' });
    kept.onlyMainContent = false;
    const markdown = renderDocument(withFooter, kept, { contentType: 'application/pdf' }).markdown!;
    expect(markdown).toContain('Stock report, page 1\n\n| Item | Site | Quantity |\n| --- | --- | --- |\n| A-7 | South | 70 |');
    expect(markdown.match(/^\| Item \|/gm)).toHaveLength(2);
  });

  it('is one HTML table where a cell spans columns, the repeated header once', async () => {
    // The header's last two columns under one label, "Stock": no rule between them in the header row.
    const xs = [72, 222, 372, 522];
    const spanningPage = (rows: string[][], top: number) => {
      const ys = Array.from({ length: rows.length + 1 }, (_, i) => top - 20 * i);
      const ops = ['0.5 w 0 G'];
      for (const y of ys) ops.push(`72 ${y} m 522 ${y} l S`);
      for (const x of [72, 222, 522]) ops.push(`${x} ${ys[ys.length - 1]} m ${x} ${top} l S`);
      ops.push(`372 ${ys[ys.length - 1]} m 372 ${ys[1]} l S`);
      return { runs: cellRuns(rows, xs, ys), graphics: ops.join('\n') };
    };
    const header = ['Item', 'Stock', ''];
    const { model, data } = await render(
      writePdf({ pages: [spanningPage([header, ...rowsFrom(1, 6)], 300), spanningPage([header, ...rowsFrom(7, 4)], 720)] }),
    );
    const markdown = data.markdown!;
    expect(markdown.match(/<table>/g)).toHaveLength(1);
    expect(markdown.match(/<\/table>/g)).toHaveLength(1);
    expect(markdown).toContain('<th colspan="2">Stock</th>');
    expect(markdown.match(/<th>Item<\/th>/g)).toHaveLength(1);
    expect([...markdown.matchAll(/<tr><td>(A-\d+)<\/td>/g)].map((match) => match[1])).toEqual(Array.from({ length: 10 }, (_, i) => `A-${i + 1}`));
    const tableBlocks = model.pages.map((page) => page.blocks.filter((block) => block.type === 'table'));
    expect(tableBlocks[0]![0]!.markdown).not.toContain('</table>');
    expect(tableBlocks[1]![0]!.markdown).toMatch(/^<tr><td>A-7<\/td><td>South<\/td><td>70<\/td><\/tr>\n/);
    expect(tableBlocks[1]![0]!.markdown).toMatch(/<\/table>$/);
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
