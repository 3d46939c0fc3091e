/**
 * Merging page ranges: a PDF cut into ranges, each parsed alone by the local engine and merged, gives what the engine
 * gives for the whole PDF (Markdown, page markers, pages, blocks with their ids and spans); the sums and the joins of
 * what cannot be equal by construction (credits, warnings) are checked on hand-made results.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOptions } from '../../src/backend/upload-checks.js';
import type { ParseData } from '../../src/contract/response.js';
import { LocalParseEngine } from '../../src/engine/local-engine.js';
import { rangeOptions } from '../../src/pipeline/steps/range-options.js';
import { mergeRangeResults, type RangeResult } from '../../src/pipeline/merge-ranges.js';
import { cutRange, cutUnderLimit, loadPdf, planRanges } from '../../src/pipeline/pdf-ranges.js';

const PAGES = 12;
/** Page 7 is blank: it adds no Markdown, so no marker announces it. */
const BLANK = 7;

async function twelvePages(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= PAGES; n++) {
    const page = pdf.addPage([612, 792]);
    if (n === BLANK) continue;
    page.drawText(`Opening words of page ${n} marker-${n}`, { x: 72, y: 700, size: 11, font });
    page.drawText(`A second paragraph on page ${n} with more words.`, { x: 72, y: 640, size: 11, font });
    page.drawText(`Closing line ${n}.`, { x: 72, y: 580, size: 11, font });
  }
  return pdf.save();
}

let engine: LocalParseEngine;
let bytes: Uint8Array;
const options = checkOptions({ parsers: [{ type: 'pdf', pageMarkers: true, pages: true, blocks: true }] });

beforeAll(async () => {
  engine = new LocalParseEngine({ size: 1 });
  bytes = await twelvePages();
});
afterAll(async () => {
  await engine.close();
});

async function parseInRanges(bounds: Array<[number, number]>): Promise<RangeResult[]> {
  const source = await loadPdf(bytes);
  const results: RangeResult[] = [];
  for (const [first, last] of bounds) {
    const range = await cutRange(source, { first, last });
    results.push({ firstPage: first, lastPage: last, data: await engine.parseBytes(range, `r${first}.pdf`, options) });
  }
  return results;
}

describe('merging page ranges', () => {
  it('gives what parsing the whole PDF gives: Markdown, markers, pages, blocks, ids and spans', async () => {
    const whole = await engine.parseBytes(bytes, 'whole.pdf', options);
    // Ranges in any order; the third crosses from one-digit to two-digit page numbers inside a range.
    const ranges = await parseInRanges([[5, 9], [1, 4], [10, 12]]);
    const merged = mergeRangeResults(ranges, { pageMarkers: true, totalPages: PAGES });

    expect(merged.markdown).toBe(whole.markdown);
    expect(merged.pages).toEqual(whole.pages);
    expect(merged.blocks).toEqual(whole.blocks);
    expect(merged.metadata?.numPages).toBe(PAGES);
    expect(merged.metadata?.totalPages).toBe(PAGES);
    expect(merged.markdown).toContain('<!-- page 12 -->');
    expect(merged.markdown).not.toContain(`<!-- page ${BLANK} -->`);
    for (const page of merged.blocks ?? []) {
      for (const item of page.items) {
        if (item.markdownSpan) expect(merged.markdown?.slice(...item.markdownSpan)).toBe(item.content);
      }
    }
  });

  it('joins ranges with a blank line when page markers are off, as the renderer joins pages', async () => {
    const plain = checkOptions({ parsers: [{ type: 'pdf', blocks: true }] });
    const whole = await engine.parseBytes(bytes, 'whole.pdf', plain);
    const source = await loadPdf(bytes);
    const ranges: RangeResult[] = [];
    for (const [first, last] of [[1, 6], [7, 12]] as const) {
      const data = await engine.parseBytes(await cutRange(source, { first, last }), 'r.pdf', plain);
      ranges.push({ firstPage: first, lastPage: last, data });
    }
    const merged = mergeRangeResults(ranges, { pageMarkers: false, totalPages: PAGES });
    expect(merged.markdown).toBe(whole.markdown);
    expect(merged.blocks).toEqual(whole.blocks);
  });

  it('numbers the marker before a range that starts with a blank page after its first page with content', async () => {
    const markersOnly = checkOptions({ parsers: [{ type: 'pdf', pageMarkers: true }] });
    const whole = await engine.parseBytes(bytes, 'whole.pdf', markersOnly);
    const source = await loadPdf(bytes);
    const ranges: RangeResult[] = [];
    // Page 7 is blank: the second range's Markdown starts with page 8.
    for (const [first, last] of [[1, 6], [7, 12]] as const) {
      const data = await engine.parseBytes(await cutRange(source, { first, last }), 'r.pdf', rangeOptions(markersOnly));
      ranges.push({ firstPage: first, lastPage: last, data });
    }
    const merged = mergeRangeResults(ranges, { pageMarkers: true, totalPages: PAGES, keepPages: false });
    expect(merged.markdown).toBe(whole.markdown);
    expect(merged.markdown).toContain('<!-- page 8 -->');
    expect(merged.pages).toBeUndefined();
  });

  it('sums pages and credits, keeps the whole count, joins distinct warnings, keeps ids unique', () => {
    const range = (first: number, last: number, extra: Partial<ParseData>): RangeResult => ({
      firstPage: first,
      lastPage: last,
      data: {
        markdown: `text ${first}`,
        blocks: [{ pageNumber: 1, status: 'ok', items: [{ id: 'custom', type: 'text', content: `text ${first}`, markdownSpan: [0, 4 + String(first).length + 1], readingOrder: 0 }] }],
        metadata: { title: `part ${first}`, numPages: last - first + 1, totalPages: last - first + 1, creditsUsed: last - first + 1, contentType: 'application/pdf' },
        ...extra,
      },
    });
    const merged = mergeRangeResults(
      [range(1, 50, { warning: 'OCR language data missing.' }), range(51, 100, { warning: 'OCR language data missing.' }), range(101, 120, { warning: 'Page 3 was empty.' })],
      { pageMarkers: false, totalPages: 400 },
    );
    expect(merged.metadata).toMatchObject({ title: 'part 1', numPages: 120, totalPages: 400, creditsUsed: 120 });
    expect(merged.warning).toBe('OCR language data missing. Page 3 was empty.');
    const ids = (merged.blocks ?? []).flatMap((page) => page.items.map((item) => item.id));
    expect(new Set(ids).size).toBe(3);
    expect((merged.blocks ?? []).map((page) => page.pageNumber)).toEqual([1, 51, 101]);
    for (const page of merged.blocks ?? []) {
      const [item] = page.items;
      expect(merged.markdown?.slice(...(item?.markdownSpan ?? [0, 0]))).toBe(item?.content);
    }
  });
});

describe('cutting ranges', () => {
  it('plans ranges of at most the page budget, smaller when the bytes per page demand it', () => {
    expect(planRanges(120, 50, 1_000_000, 120)).toEqual([{ first: 1, last: 50 }, { first: 51, last: 100 }, { first: 101, last: 120 }]);
    // 1 MB a page against a 10 MB limit: 8 pages a range (80 % of the limit).
    expect(planRanges(20, 50, 20_000_000, 20, 10_000_000).map((r) => r.last - r.first + 1)).toEqual([8, 8, 4]);
  });

  it('halves a range whose bytes are over the limit, and names the page that alone is', async () => {
    const source = await loadPdf(bytes);
    const pieceSize = (await cutRange(source, { first: 1, last: 6 })).byteLength;
    const pieces = [];
    for await (const piece of cutUnderLimit(source, { first: 1, last: 12 }, 'book.pdf', pieceSize)) pieces.push(piece.range);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces[0]?.first).toBe(1);
    expect(pieces.at(-1)?.last).toBe(12);
    await expect(async () => {
      for await (const piece of cutUnderLimit(source, { first: 1, last: 2 }, 'book.pdf', 10)) void piece;
    }).rejects.toThrow(/book\.pdf: cannot split into page ranges: page 1 alone is \d+ bytes/);
  });
});
