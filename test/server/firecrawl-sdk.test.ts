/**
 * The hosted API's own JavaScript SDK (@mendable/firecrawl-js 4.42), unchanged, against a real `docmill serve` on
 * loopback with keys: `new Firecrawl({ apiKey, apiUrl }).parse({ data, filename }, options)` on one document of every
 * supported extension with every option shape the SDK's types and docs write, and each error the contract names
 * reaching the SDK as its own error (SdkError with the HTTP status, the body's `error`, `code` and `details`).
 *
 * The SDK is not a dependency of docmill, so this test installs it into ~/.cache/docmill-test/firecrawl, outside the
 * repository. That needs the npm registry, so it runs only with DOCMILL_TEST_SDK=1 (.ci/run sets it); without it the
 * test is skipped and says so. It starts the built CLI: run `npm run build` first.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFile } from '../helpers/corpus.js';
import { docmillEnv, killAllDocmill, startDocmill, waitFor, type DocmillProcess } from '../helpers/docmill-cli.js';
import { startFaultParseServer, type FaultParseServer } from '../helpers/fault-parse-server.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const run = promisify(execFile);
const SDK_PACKAGE = '@mendable/firecrawl-js';
const SDK_VERSION = '~4.42.0';
const CACHE = join(homedir(), '.cache', 'docmill-test', 'firecrawl');
const KEY = 'sdk-test-key-7c41';
const enabled = process.env.DOCMILL_TEST_SDK === '1';
if (!enabled) {
  console.info(`firecrawl-sdk: skipped; DOCMILL_TEST_SDK=1 installs ${SDK_PACKAGE}@${SDK_VERSION} outside the repository and runs it against docmill serve`);
}

/** The part of the SDK this test uses, as its dist/index.d.ts declares it. */
interface SdkDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string | null;
  summary?: string;
  links?: string[];
  images?: string[];
  json?: unknown;
  warning?: string;
  pages?: Array<{ pageNumber: number; markdown: string }>;
  blocks?: Array<{ pageNumber: number; items: unknown[] }>;
  metadata?: Record<string, unknown>;
}
interface SdkParseFile {
  data: Buffer | Uint8Array | string;
  filename: string;
  contentType?: string;
}
interface SdkClient {
  parse(file: SdkParseFile, options?: Record<string, unknown>): Promise<SdkDocument>;
}
interface SdkErrorShape extends Error {
  status?: number;
  code?: string;
  details?: unknown;
}
interface SdkModule {
  default: new (options: { apiKey?: string; apiUrl: string }) => SdkClient;
  SdkError: new (...args: never[]) => SdkErrorShape;
}

/** One document of every extension the contract lists, each one the local engine converts. */
const FIXTURES = [
  'csv/csv-comma.csv',
  'doc/legacy_sample.doc',
  'docm/SimpleMacro.docm',
  'docx/word_tables.docx',
  'epub/epub_purvis_poetry.epub',
  'htm/column_width.htm',
  'html/html_rich_table_cells.html',
  'odp/odf_presentation_01.odp',
  'ods/merged_cells.ods',
  'odt/text_document_03.odt',
  'pdf/multi-column-2p.pdf',
  'ppt/eng_spa_mult.ppt',
  'pptm/SimpleMacro.pptm',
  'pptx/powerpoint_sample.pptx',
  'rtf/fake-doc.rtf',
  'xhtml/preface.xhtml',
  'xls/tests-example.xls',
  'xlsb/sample.xlsb',
  'xlsm/xlsx_02_sample_sales_data.xlsm',
  'xlsx/xlsx_06_edge_cases_.xlsx',
];

const FORMAT_NAMES = ['markdown', 'html', 'links', 'summary'];

let sdk: SdkModule;
let home: string;
let serve: DocmillProcess;
let serveUrl: string;
let client: SdkClient;

/** Starts `docmill serve` on a free loopback port and resolves with its base URL once it listens. */
async function startServe(extraEnv: Record<string, string>): Promise<{ process: DocmillProcess; url: string }> {
  const proc = startDocmill(['serve', '--port', '0', '--max-concurrency', '1'], docmillEnv({ home, extra: { DOCMILL_SERVER_API_KEYS: `other-key,${KEY}`, ...extraEnv } }));
  const url = await waitFor('docmill serve to listen', () => {
    if (!proc.running) throw new Error(`docmill serve exited:\n${proc.stderr}`);
    return /"url":"(http:\/\/[^"]+)\/v2\/parse"/.exec(proc.stderr)?.[1];
  });
  return { process: proc, url };
}

async function stopServe(proc: DocmillProcess | undefined): Promise<void> {
  if (!proc) return;
  proc.kill('SIGTERM');
  await proc.exited;
}

function fixture(relative: string): SdkParseFile {
  return { data: readFileSync(corpusFile(relative)), filename: basename(relative) };
}

async function sdkError(promise: Promise<unknown>): Promise<SdkErrorShape> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'the call should have failed').toBeInstanceOf(sdk.SdkError);
  return error as SdkErrorShape;
}

function detailPaths(error: SdkErrorShape): string[] {
  return Array.isArray(error.details) ? error.details.map((detail: { path?: string }) => String(detail.path)) : [];
}

describe.skipIf(!enabled)(`${SDK_PACKAGE} ${SDK_VERSION} against docmill serve (DOCMILL_TEST_SDK=1)`, () => {
  beforeAll(async () => {
    await mkdir(CACHE, { recursive: true });
    await writeFile(
      join(CACHE, 'package.json'),
      `${JSON.stringify({ name: 'docmill-sdk-test', private: true, type: 'module', dependencies: { [SDK_PACKAGE]: SDK_VERSION } }, null, 2)}\n`,
    );
    await run('npm', ['install', '--prefix', CACHE, '--no-audit', '--no-fund'], { timeout: 600_000 });
    const entry = join(CACHE, 'node_modules', ...SDK_PACKAGE.split('/'), 'dist', 'index.js');
    sdk = (await import(pathToFileURL(entry).href)) as SdkModule;
    home = await makeTempDir();
    ({ process: serve, url: serveUrl } = await startServe({}));
    client = new sdk.default({ apiKey: KEY, apiUrl: serveUrl });
  }, 900_000);

  afterAll(async () => {
    await stopServe(serve);
    await killAllDocmill();
    await removeTempDir(home);
  });

  describe('every extension, every option shape', () => {
    it.each(FIXTURES)('%s', async (relative) => {
      const file = fixture(relative);

      const plain = await client.parse(file);
      expect(plain.markdown?.trim()).not.toBe('');
      expect(plain.metadata).toBeTypeOf('object');
      for (const field of ['html', 'links', 'summary', 'pages', 'blocks'] as const) expect(plain[field]).toBeUndefined();

      const pdfByName = await client.parse(file, { parsers: ['pdf'] });
      expect(pdfByName.markdown).toBe(plain.markdown);

      const paged = await client.parse(file, { parsers: [{ type: 'pdf', pages: true, blocks: true, pageMarkers: true }] });
      expect(paged.pages?.length).toBeGreaterThan(0);
      expect(paged.pages?.[0]).toMatchObject({ pageNumber: 1, markdown: expect.any(String) });
      expect(paged.blocks?.map((page) => page.pageNumber)).toEqual(paged.pages?.map((page) => page.pageNumber));
      if ((paged.pages?.length ?? 0) > 1) expect(paged.markdown).toMatch(/\n---\n\n<!-- page \d+ -->\n/);
      if (relative.endsWith('.pdf')) expect(paged.pages).toHaveLength(Number(paged.metadata?.numPages));

      const redacted = await client.parse(file, { redactPII: { mode: 'fast', replaceStyle: 'mask' } });
      expect(redacted.markdown).toBeTypeOf('string');

      const byName = await client.parse(file, { formats: FORMAT_NAMES });
      expect(byName.markdown?.trim()).not.toBe('');
      expect(byName.html).toBeTypeOf('string');
      expect(byName.links).toBeInstanceOf(Array);
      expect(byName.summary).toBeTypeOf('string');
      expect(byName.pages).toBeUndefined();

      // The string form converts exactly as the contract's object form does.
      const byObject = await client.parse(file, { formats: FORMAT_NAMES.map((type) => ({ type })) });
      expect(byName).toEqual(byObject);
    }, 120_000);
  });

  it('the README\'s call: text data with a content type, formats: [\'markdown\']', async () => {
    const parsed = await client.parse(
      { data: '<html><body><h1>Hello parse</h1></body></html>', filename: 'upload.html', contentType: 'text/html' },
      { formats: ['markdown'] },
    );
    expect(parsed.markdown).toContain('# Hello parse');
  });

  it('returns every format written as a name alone', async () => {
    const parsed = await client.parse(fixture('html/html_rich_table_cells.html'), {
      formats: ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images'],
    });
    expect(parsed.markdown).toContain('|');
    expect(parsed.summary).toBeTypeOf('string');
    expect(parsed.html).toContain('<table');
    expect(parsed.rawHtml).toContain('<table');
    expect(parsed.links?.length).toBeGreaterThan(0);
    expect(parsed.images?.length).toBeGreaterThan(0);
  });

  it('redacts as the redaction object asks', async () => {
    const parsed = await client.parse(
      { data: Buffer.from('<p>Write to ada.lovelace@example.com about the engine.</p>'), filename: 'note.html' },
      { redactPII: { mode: 'fast', replaceStyle: 'mask' } },
    );
    expect(parsed.markdown).not.toContain('ada.lovelace@example.com');
    expect(parsed.markdown).toContain('*****');
  });

  it('accepts every field the SDK\'s parse options offer that docmill does not use, and ignores it', async () => {
    const parsed = await client.parse(fixture('csv/csv-comma.csv'), {
      formats: ['markdown', { type: 'links' }],
      parsers: ['pdf', 'image'],
      fastMode: true,
      useMock: 'recorded',
      profile: { name: 'team', saveChanges: false },
      domainTools: false,
      integration: 'docmill-test',
      origin: 'js-sdk@custom',
      timeout: 60_000,
      onlyMainContent: true,
      removeBase64Images: true,
      blockAds: true,
      skipTlsVerification: true,
      proxy: 'auto',
      zeroDataRetention: true,
      auditMetadata: { username: 'ada' },
    });
    expect(parsed.markdown).toContain('|');
    expect(parsed.links).toBeInstanceOf(Array);
  });

  it('json needs a language model offline: 400 FORMAT_NOT_AVAILABLE naming DOCMILL_LLM_*', async () => {
    const error = await sdkError(client.parse(fixture('csv/csv-comma.csv'), { formats: [{ type: 'json', prompt: 'the first row' }] }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('FORMAT_NOT_AVAILABLE');
    expect(error.message).toContain('DOCMILL_LLM_BASE_URL');
  });

  it('json with DOCMILL_LLM_* set: the answer of the model endpoint comes back as json', async () => {
    const llm = await startFakeChatCompletions('{"city": "Lyon"}');
    const withModel = await startServe({ DOCMILL_LLM_BASE_URL: `${llm.url}/v1`, DOCMILL_LLM_MODEL: 'test-model' });
    try {
      const api = new sdk.default({ apiKey: KEY, apiUrl: withModel.url });
      const parsed = await api.parse(
        { data: 'city,people\nLyon,522000\n', filename: 'cities.csv' },
        { formats: ['markdown', { type: 'json', prompt: 'The first city', schema: { type: 'object', properties: { city: { type: 'string' } } } }] },
      );
      expect(parsed.json).toEqual({ city: 'Lyon' });
      expect(parsed.markdown).toContain('| Lyon |');
      expect(llm.prompts.join('\n')).toContain('The first city');
    } finally {
      await stopServe(withModel.process);
      await llm.close();
    }
  });

  describe('errors reach the SDK as its SdkError', () => {
    it('401 Unauthorized: Invalid token for a wrong key and for none', async () => {
      for (const apiKey of ['wrong-key', '']) {
        const error = await sdkError(new sdk.default({ apiKey, apiUrl: serveUrl }).parse(fixture('csv/csv-comma.csv')));
        expect(error.status).toBe(401);
        expect(error.message).toBe('Unauthorized: Invalid token');
      }
    });

    it('400 BAD_REQUEST with details naming the field, for a bad value and for a key the SDK never sends', async () => {
      const badValue = await sdkError(client.parse(fixture('csv/csv-comma.csv'), { parsers: [{ type: 'pdf', maxPages: 0 }] }));
      expect(badValue.status).toBe(400);
      expect(badValue.code).toBe('BAD_REQUEST');
      expect(detailPaths(badValue)).toEqual(['parsers.0.maxPages']);
      expect(badValue.message).toContain('parsers.0.maxPages');

      const unknownKey = await sdkError(client.parse(fixture('csv/csv-comma.csv'), { onlyMainContnet: false }));
      expect(unknownKey.status).toBe(400);
      expect(detailPaths(unknownKey)).toEqual(['onlyMainContnet']);

      const notProduced = await sdkError(client.parse(fixture('csv/csv-comma.csv'), { formats: ['markdown', 'product'] }));
      expect(notProduced.status).toBe(400);
      expect(detailPaths(notProduced)).toEqual(['formats.1']);
    });

    it('the SDK refuses json as a name alone itself, as docmill does', async () => {
      const error = await client.parse(fixture('csv/csv-comma.csv'), { formats: ['json'] }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/json/);
    });

    it('413 for a file over 50 MiB', async () => {
      const big = Buffer.alloc(50 * 1024 * 1024 + 1, 0x20);
      const error = await sdkError(client.parse({ data: big, filename: 'big.csv' }));
      expect(error.status).toBe(413);
      expect(error.message).toContain('Payload Too Large');
    }, 120_000);

    it('429 Concurrency limit reached when the server\'s slots and queue are full', async () => {
      // Uploads that never finish hold the one parse slot and both queue places of --max-concurrency 1.
      const held: ClientRequest[] = [];
      try {
        for (let index = 0; index < 3; index++) held.push(stalledUpload(serveUrl, `held-${index}.csv`));
        await waitFor('the slot and the queue to be full', async () => {
          const health = await healthOf(serveUrl);
          return health.active === 1 && health.queued === 2;
        });
        const error = await sdkError(client.parse(fixture('csv/csv-comma.csv')));
        expect(error.status).toBe(429);
        expect(error.message).toBe('Concurrency limit reached');
      } finally {
        for (const upload of held) upload.destroy();
      }
      await waitFor('the held uploads to be released', async () => {
        const health = await healthOf(serveUrl);
        return health.active === 0 && health.queued === 0;
      });
      await expect(client.parse(fixture('csv/csv-comma.csv'))).resolves.toMatchObject({ markdown: expect.any(String) });
    });

    describe('402 and 429 with the contract\'s bodies (a loopback server that answers them)', () => {
      let fault: FaultParseServer;
      beforeAll(async () => {
        fault = await startFaultParseServer({
          faults: [
            { filename: 'credits.csv', reply: { status: 402, json: { success: false, error: 'Payment required to access this resource.' } } },
            {
              filename: 'rate.csv',
              reply: {
                status: 429,
                json: { success: false, error: 'Request rate limit exceeded. Please wait and try again later.' },
                headers: { 'retry-after': '30' },
              },
            },
          ],
        });
      });
      afterAll(() => fault.close());

      it('402 Payment required', async () => {
        const api = new sdk.default({ apiKey: KEY, apiUrl: fault.url });
        const error = await sdkError(api.parse({ data: 'a,b\n1,2\n', filename: 'credits.csv' }, { formats: ['markdown'] }));
        expect(error.status).toBe(402);
        expect(error.message).toBe('Payment required to access this resource.');
      });

      it('429 Request rate limit exceeded, not retried by the SDK', async () => {
        const api = new sdk.default({ apiKey: KEY, apiUrl: fault.url });
        const error = await sdkError(api.parse({ data: 'a,b\n1,2\n', filename: 'rate.csv' }, { formats: ['markdown'] }));
        expect(error.status).toBe(429);
        expect(error.message).toBe('Request rate limit exceeded. Please wait and try again later.');
        expect(fault.requestsFor('rate.csv')).toHaveLength(1);
        // What the SDK sent: its bearer key, its origin, the formats as written.
        expect(fault.requestsFor('rate.csv')[0]).toMatchObject({ authorization: `Bearer ${KEY}`, options: { formats: ['markdown'], origin: expect.stringMatching(/^js-sdk@/) } });
      });
    });
  });
});

/** A /v2/parse upload whose body never ends: it holds whatever admission gave it until destroyed. */
function stalledUpload(baseUrl: string, fileName: string): ClientRequest {
  const boundary = 'held-upload-boundary';
  const upload = httpRequest(`${baseUrl}/v2/parse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  upload.on('error', () => undefined);
  upload.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\na,b\n`);
  return upload;
}

async function healthOf(baseUrl: string): Promise<{ active: number; queued: number }> {
  const response = await fetch(`${baseUrl}/healthz`);
  return (await response.json()) as { active: number; queued: number };
}

/** An OpenAI-compatible chat-completions endpoint on loopback that answers every request with `content`. */
async function startFakeChatCompletions(content: string): Promise<{ url: string; prompts: string[]; close(): Promise<void> }> {
  const prompts: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages?: Array<{ content: string }> };
      prompts.push(...(body.messages ?? []).map((message) => message.content));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    prompts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
