/**
 * Parse response and error body decoding (spec parse-api-v2.md: "Parse response", "Errors" > "Shape",
 * "Versioning": unknown block types and unknown fields must be tolerated).
 */
import { describe, it, expect } from 'vitest';
import { errorBodySchema, parseResponseSchema } from '../../src/contract/index.js';

function fullResponse() {
  return {
    success: true,
    requestId: 'req-123',
    data: {
      markdown: '# Report\n\nIntro\n\n---\n\n<!-- page 2 -->\n\n| a | b |',
      pages: [
        { pageNumber: 1, markdown: '# Report\n\nIntro' },
        { pageNumber: 2, markdown: '| a | b |', rotation: 90 },
      ],
      blocks: [
        {
          pageNumber: 1,
          width: 1240,
          height: 1754,
          status: 'ok',
          items: [
            {
              id: 'p1.b0',
              type: 'title',
              label: 'Title',
              bbox: [0.1, 0.05, 0.9, 0.1],
              content: '# Report',
              markdownSpan: [0, 8],
              readingOrder: 0,
              source: 'native_text',
              confidence: { layout: 0.98, ocr: null },
            },
            {
              id: 'p1.b1',
              type: 'chart',
              label: 'Chart-Vertical-Bars',
              bbox: null,
              content: 'Intro',
              markdownSpan: null,
              readingOrder: 1,
              source: null,
              confidence: { layout: null, ocr: 0.7, tsr: 0.5 },
              futureItemField: { anything: true },
            },
          ],
        },
        { pageNumber: 2, width: null, height: null, status: 'partial', items: [], renderError: 'timeout' },
      ],
      summary: null,
      html: '<h1>Report</h1>',
      rawHtml: null,
      links: ['https://example.com/a', 'https://example.com/b'],
      images: ['https://example.com/img/1.png', 'https://example.com/img/2.jpg'],
      json: { total: 42, lines: [{ sku: 'A', qty: 1 }] },
      warning: null,
      futureDataField: [1, 2, 3],
      metadata: {
        title: 'Report',
        keywords: ['a', 'b'],
        language: null,
        sourceURL: 'file://report.pdf',
        statusCode: 200,
        numPages: 2,
        totalPages: 10,
        contentType: 'application/pdf',
        error: null,
        concurrencyLimited: true,
        concurrencyQueueDurationMs: 1250.5,
        creditsUsed: 2,
        'og:title': 'Report',
      },
    },
  };
}

/** Marks a field to delete in changed(). */
const REMOVE = Symbol('remove');

/** Sets (or with REMOVE deletes) the field at a dotted path of a JSON value, and returns the value. */
function changed<T>(root: T, dottedPath: string, value: unknown): T {
  const keys = dottedPath.split('.');
  const last = keys.pop()!;
  let node = root as Record<string, unknown>;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  if (value === REMOVE) delete node[last];
  else node[last] = value;
  return root;
}

/** The dotted paths of the issues of a failed parse ([] when it succeeded). */
function issuePaths(input: unknown): string[] {
  const result = parseResponseSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.map(String).join('.'));
}

describe('parseResponseSchema', () => {
  it('accepts a full response and keeps every field, unknown ones included', () => {
    const input = fullResponse();
    const result = parseResponseSchema.safeParse(input);
    expect(result.success).toBe(true);
    expect(result.data).toStrictEqual(input);
  });

  it('keeps an unknown block type and its raw label', () => {
    const parsed = parseResponseSchema.parse(fullResponse());
    const item = parsed.data.blocks?.[0]?.items[1];
    expect(item?.type).toBe('chart');
    expect(item?.label).toBe('Chart-Vertical-Bars');
    expect(item?.['futureItemField']).toStrictEqual({ anything: true });
  });

  it('reads the PDF metadata fields', () => {
    const metadata = parseResponseSchema.parse(fullResponse()).data.metadata;
    expect(metadata).toMatchObject({
      numPages: 2,
      totalPages: 10,
      contentType: 'application/pdf',
      concurrencyLimited: true,
      concurrencyQueueDurationMs: 1250.5,
      creditsUsed: 2,
    });
  });

  it.each([
    ['an empty data object', { success: true, data: {} }],
    ['markdown only', { success: true, data: { markdown: '' } }],
    ['null pages and blocks', { success: true, data: { pages: null, blocks: null } }],
    ['null images', { success: true, data: { images: null } }],
    ['metadata strings as lists', { success: true, data: { metadata: { title: ['a', 'b'], language: ['en', 'de'] } } }],
  ])('accepts %s', (_name, input) => {
    expect(issuePaths(input)).toStrictEqual([]);
  });

  it.each([
    ['a block item without id', 'data.blocks.0.items.0.id', REMOVE, 'data.blocks.0.items.0.id'],
    ['a bbox of 3 numbers', 'data.blocks.0.items.0.bbox', [0.1, 0.2, 0.3], 'data.blocks.0.items.0.bbox'],
    ['a bbox of 5 numbers', 'data.blocks.0.items.0.bbox', [0.1, 0.2, 0.3, 0.4, 0.5], 'data.blocks.0.items.0.bbox'],
    ['a non-string markdown', 'data.markdown', 42, 'data.markdown'],
    ['a block item without content', 'data.blocks.0.items.1.content', REMOVE, 'data.blocks.0.items.1.content'],
    ['a page without status', 'data.blocks.1.status', REMOVE, 'data.blocks.1.status'],
    ['images that are not strings', 'data.images', [{ url: 'https://example.com/1.png' }], 'data.images.0'],
    ['a non-integer pageNumber', 'data.pages.0.pageNumber', 1.5, 'data.pages.0.pageNumber'],
    ['success false', 'success', false, 'success'],
  ])('refuses %s', (_name, target, value, path) => {
    expect(issuePaths(changed(fullResponse(), target, value))).toContain(path);
  });
});

describe('errorBodySchema', () => {
  it.each([
    ['a 400 parse body', { success: false, code: 'BAD_REQUEST', error: 'Invalid multipart form-data request.' }],
    [
      'a validation body with details',
      { success: false, code: 'BAD_REQUEST', error: 'Bad Request: timeout: too big', details: [{ path: 'timeout', message: 'too big' }] },
    ],
    ['a 500 parse body', { success: false, code: 'UNKNOWN_ERROR', error: 'An unexpected error occurred on the server.' }],
    ['a 402 body without success', { error: 'Payment required to access this resource.' }],
    ['a 429 body without success', { error: 'Request rate limit exceeded. Please wait and try again later.' }],
    ['a relayed body with unknown fields', { error: 'Agent job not found', traceId: 'abc' }],
  ])('accepts %s and keeps its fields', (_name, body) => {
    const result = errorBodySchema.safeParse(body);
    expect(result.success).toBe(true);
    expect(result.data).toStrictEqual(body);
  });

  it.each([
    ['a body without error', { success: false, code: 'BAD_REQUEST' }],
    ['a non-string error', { success: false, error: { message: 'x' } }],
    ['success true', { success: true, error: 'x' }],
    ['a non-string code', { success: false, error: 'x', code: 400 }],
  ])('refuses %s', (_name, body) => {
    expect(errorBodySchema.safeParse(body).success).toBe(false);
  });
});
