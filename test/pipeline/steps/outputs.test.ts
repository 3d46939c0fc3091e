/**
 * What is sent and what is written, without I/O: the options a document and a page range are parsed with, the files
 * of a parse result (chunks when asked, pages and blocks only when asked), and a range's file name.
 */
import { describe, expect, it } from 'vitest';
import { parseOptionsSchema } from '../../../src/contract/options.js';
import type { ParseData } from '../../../src/contract/response.js';
import { documentOutputs, parseOptionsFor } from '../../../src/pipeline/steps/chunk-outputs.js';
import { rangeFileName, rangeOptions } from '../../../src/pipeline/steps/range-options.js';

const CHUNKS = { chunks: { maxTokens: 200, overlapTokens: 0 } };
const options = (pdf: Record<string, unknown> = {}) => parseOptionsSchema.parse({ parsers: [{ type: 'pdf', ...pdf }] });

const DATA: ParseData = {
  markdown: '# Sales\n\nSales grew.',
  metadata: { numPages: 1 },
  pages: [{ pageNumber: 1, markdown: '# Sales\n\nSales grew.' }],
};

describe('parseOptionsFor', () => {
  it('sends the user\'s options as they are without chunks', () => {
    const asked = options();
    expect(parseOptionsFor(asked, {})).toBe(asked);
  });

  it('asks for pages and blocks when chunks are written, and leaves page markers as the user set them', () => {
    const sent = parseOptionsFor(options({ pageMarkers: false }), CHUNKS);
    expect(sent.parsers[0]).toMatchObject({ pages: true, blocks: true, pageMarkers: false });
  });
});

describe('documentOutputs', () => {
  it('writes Markdown and JSON, and pages only when asked', () => {
    const outputs = documentOutputs(DATA, options({ pages: true }), {}, { path: 'a.pdf', sha256: 'c0ffee' });
    expect(outputs.markdown).toBe(DATA.markdown);
    expect(outputs.pages).toEqual(DATA.pages);
    expect(outputs.json).toEqual({ metadata: { numPages: 1 } });
    expect(outputs.chunks).toBeUndefined();
  });

  it('adds chunks naming their source, and drops the pages fetched only for them', () => {
    const outputs = documentOutputs(DATA, options(), CHUNKS, { path: 'a.pdf', sha256: 'c0ffee' });
    expect(outputs.chunks?.length).toBeGreaterThan(0);
    expect(outputs.chunks?.[0]).toMatchObject({ source: { path: 'a.pdf', sha256: 'c0ffee' } });
    expect(outputs.pages).toBeUndefined();
    expect(outputs.blocks).toBeUndefined();
  });
});

describe('a page range', () => {
  it('is sent with per-page Markdown when page markers are on, so the merge knows where its pages start', () => {
    expect(rangeOptions(options({ pageMarkers: true })).parsers[0]).toMatchObject({ pageMarkers: true, pages: true });
    const plain = options();
    expect(rangeOptions(plain)).toBe(plain);
  });

  it('is named after its document and its pages', () => {
    expect(rangeFileName('reports/2024/book.PDF', { first: 51, last: 100 })).toBe('book.pages-51-100.pdf');
  });
});
