/**
 * The multipart body as a real loopback server receives it: parts, headers, bytes, file names, endpoint paths.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RemoteParseApi } from '../../src/client/remote-parse-api.js';
import { validateParseOptions } from '../../src/contract/validation.js';
import type { ParseOptionsInput } from '../../src/contract/options.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startRecordingServer, type RecordedRequest, type RecordingServer } from '../helpers/recording-server.js';
import { makeTempDir, removeTempDir, sha256OfFile, writeRandomFile } from '../helpers/temp-files.js';

const API_KEY = 'dm-test-key-123';
const THREE_MB = 3 * 1024 * 1024 + 12_345;

/** Every option's default, as the spec's tables give them. */
const SPEC_DEFAULTS = {
  formats: [{ type: 'markdown' }],
  onlyMainContent: true,
  timeout: 30000,
  parsers: [{ type: 'pdf', mode: 'auto', pages: false, blocks: false, pageMarkers: false }],
  skipTlsVerification: true,
  removeBase64Images: true,
  blockAds: true,
  redactPII: false,
  origin: 'api',
  zeroDataRetention: false,
};

let dir: string;
let server: RecordingServer;
const clients: RemoteParseApi[] = [];

function client(apiUrl: string = server.url, ...key: [apiKey?: string]): RemoteParseApi {
  // An explicit `undefined` key means "no key"; only an omitted argument means the default key.
  const apiKey = key.length === 0 ? API_KEY : key[0];
  const api = new RemoteParseApi({ apiUrl, apiKey, clock: new FakeClock() });
  clients.push(api);
  return api;
}

function onlyRequest(): RecordedRequest {
  expect(server.requests).toHaveLength(1);
  return server.requests[0] as RecordedRequest;
}

/** Options the client is expected to send: the validated input with every default applied, as JSON. */
function validated(input: ParseOptionsInput | undefined): unknown {
  const result = validateParseOptions(input);
  if (!result.ok) throw new Error(`test options are invalid: ${result.body.error}`);
  return JSON.parse(JSON.stringify(result.options)) as unknown;
}

beforeEach(async () => {
  dir = await makeTempDir();
  server = await startRecordingServer([200]);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((api) => api.close()));
  await server.close();
  await removeTempDir(dir);
});

describe('multipart body as received', () => {
  it('sends exactly an options part then a file part, the file streamed byte-for-byte (~3 MB)', async () => {
    const file = await writeRandomFile(dir, 'report.pdf', THREE_MB);
    const result = await client().parseFile(file.path, undefined);
    expect(result.attempts).toBe(1);
    expect(result.data.markdown).toBe('# ok');

    const request = onlyRequest();
    expect(request.multipartError).toBeUndefined();
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v2/parse');
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=\S+$/);
    expect(request.headers.accept).toBe('application/json');

    expect(request.parts.map((part) => [part.kind, part.name])).toEqual([
      ['field', 'options'],
      ['file', 'file'],
    ]);
    const [options, filePart] = request.parts;
    expect(options?.mimeType).toBe('application/json');
    expect(options?.json).toEqual(SPEC_DEFAULTS);
    expect(options?.json).toEqual(validated(undefined));

    expect(filePart?.filename).toBe('report.pdf');
    expect(filePart?.mimeType).toBe('application/pdf');
    expect(filePart?.size).toBe(THREE_MB);
    expect(filePart?.sha256).toBe(file.sha256);
    expect(filePart?.sha256).toBe(await sha256OfFile(file.path));
  });

  it('sends the validated options with defaults applied, multi-byte text included', async () => {
    const input: ParseOptionsInput = {
      formats: [{ type: 'markdown' }, { type: 'html' }, { type: 'json', prompt: 'Extract the totals', schema: { type: 'object' } }],
      onlyMainContent: false,
      timeout: 120_000,
      parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 3, pages: true }],
      redactPII: { mode: 'fast' },
      proxy: 'basic',
      headers: { 'x-trace': 'abc' },
      auditMetadata: { username: 'Zoë Ångström 日本語' },
      zeroDataRetention: true,
    };
    const file = await writeRandomFile(dir, 'scan.pdf', 4096);
    await client().parseFile(file.path, input);

    const request = onlyRequest();
    const options = request.parts.find((part) => part.name === 'options');
    expect(options?.json).toEqual(validated(input));
    expect(options?.json).toMatchObject({
      timeout: 120_000,
      parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 3, pages: true, blocks: false, pageMarkers: false }],
      redactPII: { mode: 'fast', entities: ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'], replaceStyle: 'tag' },
      auditMetadata: { username: 'Zoë Ångström 日本語' },
      skipTlsVerification: true,
      blockAds: true,
      origin: 'api',
    });
    // Multi-byte characters in the options must be counted in bytes, not UTF-16 units.
    expect(Number(request.headers['content-length'])).toBe(request.bodyBytes);
  });

  it('expands the "pdf" parser shorthand to the full parser object', async () => {
    const file = await writeRandomFile(dir, 'a.pdf', 100);
    await client().parseFile(file.path, { parsers: ['pdf'] });
    expect(onlyRequest().parts[0]?.json).toMatchObject({ parsers: SPEC_DEFAULTS.parsers });
  });

  it('sends formats written as names alone as the contract\'s objects', async () => {
    const file = await writeRandomFile(dir, 'a.pdf', 100);
    await client().parseFile(file.path, { formats: ['markdown', 'html', 'links', 'summary'] });
    expect(onlyRequest().parts[0]?.json).toMatchObject({
      formats: [{ type: 'markdown' }, { type: 'html' }, { type: 'links' }, { type: 'summary' }],
    });
  });

  it('Content-Length equals the bytes the server received', async () => {
    const file = await writeRandomFile(dir, 'big.pdf', THREE_MB);
    await client().parseFile(file.path, { timeout: 60_000 });
    const request = onlyRequest();
    expect(request.headers['content-length']).toBeDefined();
    expect(request.headers['transfer-encoding']).toBeUndefined();
    expect(Number(request.headers['content-length'])).toBe(request.bodyBytes);
    expect(request.bodyBytes).toBeGreaterThan(THREE_MB);
  });

  it('sends an empty file as a zero-byte file part with a matching Content-Length', async () => {
    const path = join(dir, 'empty.csv');
    await writeFile(path, '');
    await client().parseFile(path, undefined);
    const request = onlyRequest();
    const filePart = request.parts.find((part) => part.name === 'file');
    expect(filePart?.size).toBe(0);
    expect(filePart?.sha256).toBe(createHash('sha256').digest('hex'));
    expect(Number(request.headers['content-length'])).toBe(request.bodyBytes);
  });

  it.each([
    ['data.csv', 'text/csv'],
    ['report.pdf', 'application/pdf'],
    ['REPORT.PDF', 'application/pdf'],
    ['minutes.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['budget.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['page.html', 'text/html'],
    ['page.xhtml', 'application/xhtml+xml'],
    ['book.epub', 'application/epub+zip'],
    ['archive.tar.odt', 'application/vnd.oasis.opendocument.text'],
  ])('labels %s as %s and names it by its basename', async (name, mimeType) => {
    const file = await writeRandomFile(dir, name, 2048);
    await client().parseFile(file.path, undefined);
    const filePart = onlyRequest().parts.find((part) => part.name === 'file');
    expect(filePart?.filename).toBe(name);
    expect(filePart?.mimeType).toBe(mimeType);
    expect(filePart?.sha256).toBe(file.sha256);
  });

  it('sends Authorization: Bearer <key> when a key is given', async () => {
    const file = await writeRandomFile(dir, 'a.csv', 10);
    await client(server.url, API_KEY).parseFile(file.path, undefined);
    expect(onlyRequest().headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it.each([
    ['no key', undefined],
    ['an empty key', ''],
  ])('sends no Authorization header with %s', async (_label, apiKey) => {
    const file = await writeRandomFile(dir, 'a.csv', 10);
    await client(server.url, apiKey).parseFile(file.path, undefined);
    expect(onlyRequest().headers).not.toHaveProperty('authorization');
  });

  it('keeps a file name with spaces, Unicode and a double quote intact (the quote percent-encoded as %22)', async () => {
    const name = 'Quarterly "final" report – Zürich 日本 ✓.pdf';
    const file = await writeRandomFile(dir, name, 5000);
    await client().parseFile(file.path, undefined);
    const filePart = onlyRequest().parts.find((part) => part.name === 'file');
    // multipart.ts encodes `"` the way browsers do (WHATWG form-data: `"` → %22); busboy does not decode it.
    expect(filePart?.filename).toBe('Quarterly %22final%22 report – Zürich 日本 ✓.pdf');
    expect(filePart?.mimeType).toBe('application/pdf');
    expect(filePart?.sha256).toBe(file.sha256);
  });

  it('keeps a name with an apostrophe, parentheses and non-BMP characters intact', async () => {
    const name = "l'été (copie) 😀 #1.csv";
    const file = await writeRandomFile(dir, name, 300);
    await client().parseFile(file.path, undefined);
    expect(onlyRequest().parts.find((part) => part.name === 'file')?.filename).toBe(name);
  });
});

describe('endpoint resolution', () => {
  it.each([
    ['', '/v2/parse'],
    ['/', '/v2/parse'],
    ['/v2', '/v2/parse'],
    ['/v2/', '/v2/parse'],
    ['/v2/parse', '/v2/parse'],
    ['/api', '/api/v2/parse'],
    ['/api/', '/api/v2/parse'],
    ['/api/v2', '/api/v2/parse'],
    ['/api/v2/parse', '/api/v2/parse'],
    ['/v2?foo=bar#frag', '/v2/parse'],
  ])('base URL + %j hits %s', async (suffix, expectedPath) => {
    const file = await writeRandomFile(dir, 'a.pdf', 64);
    const api = client(`${server.url}${suffix}`);
    expect(api.endpoint.pathname).toBe(expectedPath);
    await api.parseFile(file.path, undefined);
    expect(onlyRequest().path).toBe(expectedPath);
  });

  // A pasted full URL with a trailing slash must hit the same endpoint as the other forms.
  it.each([
    ['/v2/parse/', '/v2/parse'],
    ['/api/v2/parse/', '/api/v2/parse'],
  ])('base URL + %j (trailing slash) hits %s', async (suffix, expectedPath) => {
    const file = await writeRandomFile(dir, 'a.pdf', 64);
    const api = client(`${server.url}${suffix}`);
    await api.parseFile(file.path, undefined);
    expect(onlyRequest().path).toBe(expectedPath);
  });
});
