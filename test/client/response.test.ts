/**
 * Decoding of 200 responses: the contract's fields, forward-compatible unknowns, and bodies that break the contract.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../src/backend/errors.js';
import { RemoteParseApi } from '../../src/client/remote-parse-api.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { okReply, startRecordingServer, type Handler, type RecordingServer, type ReplySpec } from '../helpers/recording-server.js';
import { makeTempDir, rejectionOf, removeTempDir, writeRandomFile } from '../helpers/temp-files.js';

let dir: string;
let filePath: string;
let clock: FakeClock;
let server: RecordingServer | undefined;
let api: RemoteParseApi | undefined;

async function serve(handler: Handler | readonly ReplySpec[]): Promise<RemoteParseApi> {
  server = await startRecordingServer(handler);
  api = new RemoteParseApi({ apiUrl: server.url, apiKey: 'test-key', clock });
  return api;
}

beforeEach(async () => {
  dir = await makeTempDir();
  filePath = (await writeRandomFile(dir, 'report.pdf', 10_000)).path;
  clock = new FakeClock();
});

afterEach(async () => {
  await api?.close();
  await server?.close();
  api = undefined;
  server = undefined;
  await removeTempDir(dir);
});

const FULL_DATA = {
  markdown: '# Report\n\nIntro text\n\n---\n\n<!-- page 2 -->\n\n| a | b |',
  pages: [
    { pageNumber: 1, markdown: '# Report\n\nIntro text' },
    { pageNumber: 2, markdown: '| a | b |' },
  ],
  blocks: [
    {
      pageNumber: 1,
      width: 1224,
      height: 1584,
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
          type: 'chart_legend',
          label: 'ChartLegend',
          bbox: null,
          content: 'Intro text',
          markdownSpan: null,
          readingOrder: 1,
          source: 'layout_ocr',
          confidence: { layout: null, ocr: 0.71 },
          futureField: { nested: true },
        },
      ],
    },
    { pageNumber: 2, width: null, height: null, status: 'partial', items: [] },
  ],
  links: ['https://example.com/a'],
  warning: null,
  metadata: {
    title: 'Report',
    contentType: 'application/pdf',
    numPages: 2,
    totalPages: 5,
    creditsUsed: 3,
    concurrencyLimited: true,
    concurrencyQueueDurationMs: 1250,
    customKey: ['x', 'y'],
  },
};

describe('200 responses', () => {
  it('decodes markdown, pages, blocks (unknown block type included) and metadata', async () => {
    const client = await serve([{ status: 200, json: { success: true, data: FULL_DATA } }]);
    const result = await client.parseFile(filePath, { parsers: [{ type: 'pdf', pages: true, blocks: true, pageMarkers: true }] });

    expect(result.attempts).toBe(1);
    const { data } = result;
    expect(data.markdown).toBe(FULL_DATA.markdown);
    expect(data.pages).toEqual(FULL_DATA.pages);
    expect(data.blocks).toHaveLength(2);
    expect(data.blocks?.[0]?.items.map((item) => item.type)).toEqual(['title', 'chart_legend']);
    expect(data.blocks?.[0]?.items[1]).toMatchObject({ id: 'p1.b1', type: 'chart_legend', futureField: { nested: true } });
    expect(data.blocks?.[1]).toMatchObject({ pageNumber: 2, width: null, status: 'partial', items: [] });
    expect(data.metadata).toMatchObject({
      numPages: 2,
      totalPages: 5,
      creditsUsed: 3,
      concurrencyLimited: true,
      concurrencyQueueDurationMs: 1250,
    });
    // Loose objects: nothing the API sent is dropped.
    expect(data).toEqual(FULL_DATA);
  });

  it('decodes the minimal okReply body', async () => {
    const client = await serve([okReply({ numPages: 1, creditsUsed: 1 })]);
    const result = await client.parseFile(filePath, undefined);
    expect(result.data).toEqual({ markdown: '# ok', metadata: { numPages: 1, creditsUsed: 1 } });
  });

  it('a 200 whose body is not JSON gives PARSE_INVALID_RESPONSE, not retried', async () => {
    const client = await serve([{ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>maintenance</html>' }]);
    const error = await rejectionOf(client.parseFile(filePath, undefined));

    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).code).toBe('PARSE_INVALID_RESPONSE');
    expect((error as InvalidResponseError).message).toContain('not JSON');
    expect((error as InvalidResponseError).message).toContain('maintenance');
    expect(server?.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('a 200 with data.markdown of the wrong type gives PARSE_INVALID_RESPONSE naming data.markdown', async () => {
    const client = await serve([{ status: 200, json: { success: true, data: { markdown: 5 } } }]);
    const error = await rejectionOf(client.parseFile(filePath, undefined));

    expect(error).toBeInstanceOf(InvalidResponseError);
    const invalid = error as InvalidResponseError;
    expect(invalid.code).toBe('PARSE_INVALID_RESPONSE');
    expect(invalid.message).toContain('data.markdown');
    expect(invalid.details.map((detail) => detail.path)).toContain('data.markdown');
    expect(server?.requests).toHaveLength(1);
  });

  it.each([
    ['success false', { success: false, data: { markdown: '# x' } }, 'success'],
    ['no data', { success: true }, 'data'],
    ['a block item without content', { success: true, data: { blocks: [{ pageNumber: 1, status: 'ok', items: [{ id: 'p1.b0', type: 'text', readingOrder: 0 }] }] } }, 'data.blocks.0.items.0.content'],
    ['a non-integer numPages', { success: true, data: { metadata: { numPages: 1.5 } } }, 'data.metadata.numPages'],
  ])('a 200 with %s gives PARSE_INVALID_RESPONSE naming the field', async (_label, body, path) => {
    const client = await serve([{ status: 200, json: body }]);
    const error = await rejectionOf(client.parseFile(filePath, undefined));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).details.map((detail) => detail.path)).toContain(path);
  });
});
