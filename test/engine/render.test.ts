import { describe, expect, it } from 'vitest';
import { validateParseOptions } from '../../src/contract/validation.js';
import type { ParseOptions } from '../../src/contract/options.js';
import type { DocumentModel, ModelBlock } from '../../src/engine/model.js';
import { renderDocument } from '../../src/engine/render.js';

function options(input: unknown = {}): ParseOptions {
  const result = validateParseOptions(input);
  if (!result.ok) throw new Error(JSON.stringify(result.body));
  return result.options;
}

const text = (markdown: string, extra: Partial<ModelBlock> = {}): ModelBlock => ({ type: 'text', markdown, source: 'native_text', ...extra });

const model: DocumentModel = {
  pages: [
    {
      pageNumber: 1,
      width: 612,
      height: 792,
      status: 'ok',
      blocks: [
        text('ACME Report', { type: 'page_header', furniture: true, bbox: [0.1, 0.02, 0.5, 0.04] }),
        text('# Annual report', { type: 'title' }),
        text('Revenue grew by twelve percent in the year under review.'),
        text('1', { type: 'page_number', furniture: true }),
      ],
    },
    { pageNumber: 2, width: 612, height: 792, status: 'ok', blocks: [text('ACME Report', { type: 'page_header', furniture: true })] },
    {
      pageNumber: 3,
      width: 612,
      height: 792,
      status: 'ok',
      blocks: [text('## Outlook', { type: 'section_header' }), text('| a | b |\n| --- | --- |\n| 1 | 2 |', { type: 'table' })],
    },
  ],
  metadata: { title: 'Annual report', numPages: 3, totalPages: 5 },
};

describe('renderDocument', () => {
  it('joins blocks with blank lines and leaves page furniture out when onlyMainContent', () => {
    const data = renderDocument(model, options(), { contentType: 'application/pdf' });
    expect(data.markdown).toBe('# Annual report\n\nRevenue grew by twelve percent in the year under review.\n\n## Outlook\n\n| a | b |\n| --- | --- |\n| 1 | 2 |');
    expect(data.metadata).toMatchObject({ numPages: 3, totalPages: 5, contentType: 'application/pdf', title: 'Annual report' });
  });

  it('keeps furniture when onlyMainContent is false', () => {
    const data = renderDocument(model, options({ onlyMainContent: false }), { contentType: 'application/pdf' });
    expect(data.markdown?.startsWith('ACME Report\n\n# Annual report')).toBe(true);
  });

  it('spells page markers exactly as the contract does, none before page 1, skipping pages without content', () => {
    const data = renderDocument(model, options({ parsers: [{ type: 'pdf', pageMarkers: true }] }), { contentType: 'application/pdf' });
    expect(data.markdown).toBe(
      '# Annual report\n\nRevenue grew by twelve percent in the year under review.' +
        '\n\n---\n\n<!-- page 3 -->\n\n' +
        '## Outlook\n\n| a | b |\n| --- | --- |\n| 1 | 2 |',
    );
  });

  it('markdownSpan points exactly at each block in the document Markdown, with and without markers', () => {
    for (const pageMarkers of [false, true]) {
      for (const onlyMainContent of [true, false]) {
        const data = renderDocument(model, options({ onlyMainContent, parsers: [{ type: 'pdf', pageMarkers, blocks: true }] }), {
          contentType: 'application/pdf',
        });
        const markdown = data.markdown ?? '';
        for (const page of data.blocks ?? []) {
          for (const item of page.items) {
            if (item.markdownSpan) expect(markdown.slice(item.markdownSpan[0], item.markdownSpan[1])).toBe(item.content);
            else expect(onlyMainContent && ['page_header', 'page_number'].includes(item.type)).toBe(true);
          }
        }
      }
    }
  });

  it('gives block ids p<page>.b<index>, reading order, bbox, page sizes and confidence', () => {
    const data = renderDocument(model, options({ parsers: [{ type: 'pdf', blocks: true }] }), { contentType: 'application/pdf' });
    const first = data.blocks?.[0];
    expect(first).toMatchObject({ pageNumber: 1, width: 612, height: 792, status: 'ok' });
    expect(first?.items.map((item) => item.id)).toEqual(['p1.b0', 'p1.b1', 'p1.b2', 'p1.b3']);
    expect(first?.items.map((item) => item.readingOrder)).toEqual([0, 1, 2, 3]);
    expect(first?.items[0]).toMatchObject({ type: 'page_header', bbox: [0.1, 0.02, 0.5, 0.04], confidence: { layout: null, ocr: null } });
    expect(data.blocks?.[2]?.items[1]).toMatchObject({ id: 'p3.b1', type: 'table' });
  });

  it('per-page Markdown for every physical page, empty pages included', () => {
    const data = renderDocument(model, options({ parsers: [{ type: 'pdf', pages: true }] }), { contentType: 'application/pdf' });
    expect(data.pages).toEqual([
      { pageNumber: 1, markdown: '# Annual report\n\nRevenue grew by twelve percent in the year under review.' },
      { pageNumber: 2, markdown: '' },
      { pageNumber: 3, markdown: '## Outlook\n\n| a | b |\n| --- | --- |\n| 1 | 2 |' },
    ]);
  });

  it('adds pages and blocks only when asked, markdown only when the format is asked', () => {
    const plain = renderDocument(model, options(), { contentType: 'application/pdf' });
    expect(plain.pages).toBeUndefined();
    expect(plain.blocks).toBeUndefined();
    const htmlOnly = renderDocument(model, options({ formats: [{ type: 'html' }] }), { contentType: 'application/pdf' });
    expect(htmlOnly.markdown).toBeUndefined();
    expect(htmlOnly.html).toContain('<h1>Annual report</h1>');
    expect(htmlOnly.html).toContain('<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>');
  });

  it('summary is extractive: every sentence it returns is in the document', () => {
    const long: DocumentModel = {
      pages: [
        {
          pageNumber: 1,
          width: null,
          height: null,
          status: 'ok',
          blocks: [
            text('# Cooperative report'),
            text('The cooperative sold more grain this year than in any year before. Grain prices rose in the spring.'),
            text('Members voted to build a new grain store near the river. The store will hold the harvest of three villages.'),
            text('Weather was mild.'),
          ],
        },
      ],
      metadata: {},
    };
    const data = renderDocument(long, options({ formats: [{ type: 'summary' }] }), { contentType: 'text/html' });
    expect(data.summary).toBeTruthy();
    const prose = long.pages[0]?.blocks.map((block) => block.markdown).join(' ') ?? '';
    for (const sentence of (data.summary ?? '').split(/(?<=\.)\s+/)) expect(prose).toContain(sentence);
    expect(data.summary).toContain('grain');
  });

  it('links come from the model, or from the Markdown when the format has none', () => {
    const withLinks: DocumentModel = {
      pages: [{ pageNumber: 1, width: null, height: null, status: 'ok', blocks: [text('See [the site](https://example.org/a) and https://example.org/b.')] }],
      metadata: {},
    };
    const data = renderDocument(withLinks, options({ formats: [{ type: 'links' }] }), { contentType: 'application/pdf' });
    expect(data.links).toEqual(['https://example.org/a', 'https://example.org/b']);
  });

  it('warnings become the warning field', () => {
    const data = renderDocument({ ...model, warnings: ['page 2 has no text layer.'] }, options(), { contentType: 'application/pdf' });
    expect(data.warning).toBe('page 2 has no text layer.');
  });
});
