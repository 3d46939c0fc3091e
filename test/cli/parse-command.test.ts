import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHandlerServer, type HandlerServer } from '../helpers/loopback-servers.js';

const BIN = fileURLToPath(new URL('../../bin/docmill.js', import.meta.url));
const KEY = 'dm-test-key-4f1e2d3c';

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

let server: HandlerServer;
let url: string;
let dir: string;
let replies: Reply[] = [];
let received: { authorization?: string; body: string }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docmill-cli-'));
  await writeFile(join(dir, 'report.html'), '<h1>Report</h1>');
  await writeFile(join(dir, 'notes.txt'), 'plain text');
  server = await startHandlerServer((request) => {
    received.push({ authorization: request.headers.authorization, body: request.text });
    const reply = replies.shift() ?? { status: 200, body: { success: true, data: { markdown: '# Report' } } };
    return { status: reply.status, json: reply.body, ...(reply.headers ? { headers: reply.headers } : {}) };
  });
  url = server.url;
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  replies = [];
  received = [];
});

function docmill(args: string[], env: Record<string, string> = {}, input?: Uint8Array) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: dir, ...env }, cwd: dir },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

describe('docmill parse', () => {
  it('prints the Markdown and sends the key as a bearer token', async () => {
    const result = await docmill(['parse', 'report.html', '--api-url', url, '--api-key', KEY]);
    expect(result).toMatchObject({ code: 0, stdout: '# Report\n' });
    expect(received[0]?.authorization).toBe(`Bearer ${KEY}`);
  });

  it('reads the API from DOCMILL_* variables, falling back to FIRECRAWL_*', async () => {
    expect((await docmill(['parse', 'report.html'], { DOCMILL_API_URL: url, DOCMILL_API_KEY: KEY })).code).toBe(0);
    expect((await docmill(['parse', 'report.html'], { FIRECRAWL_API_URL: url, FIRECRAWL_API_KEY: 'fc-other' })).code).toBe(0);
    expect(received.map((request) => request.authorization)).toEqual([`Bearer ${KEY}`, 'Bearer fc-other']);
  });

  it('--json prints the whole data object; --out writes it to a file', async () => {
    replies = [{ status: 200, body: { success: true, data: { markdown: '# R', links: ['https://a.example/'], metadata: { numPages: 1 } } } }];
    const printed = await docmill(['parse', 'report.html', '--api-url', url, '--json']);
    expect(JSON.parse(printed.stdout)).toEqual({ markdown: '# R', links: ['https://a.example/'], metadata: { numPages: 1 } });
    const written = await docmill(['parse', 'report.html', '--api-url', url, '--out', 'out/report.md']);
    expect(written.code).toBe(0);
    expect(await readFile(join(dir, 'out/report.md'), 'utf8')).toBe('# Report\n');
    expect(await readdir(join(dir, 'out'))).toEqual(['report.md']);
  });

  it('shortcut flags build the options part the server receives', async () => {
    await writeFile(join(dir, 'opts.json'), JSON.stringify({ onlyMainContent: false, formats: [{ type: 'json', prompt: 'totals' }] }));
    const result = await docmill([
      'parse', 'report.html', '--api-url', url, '--options', 'opts.json',
      '--mode', 'fast', '--pages', '--blocks', '--page-markers', '--max-pages', '3', '--formats', 'markdown,json',
    ]);
    expect(result.code).toBe(0);
    const optionsJson = /name="options"\r\nContent-Type: application\/json\r\n\r\n(.*)\r\n/.exec(received[0]?.body ?? '')?.[1];
    expect(JSON.parse(optionsJson ?? '{}')).toMatchObject({
      onlyMainContent: false,
      formats: [{ type: 'markdown' }, { type: 'json', prompt: 'totals' }],
      parsers: [{ type: 'pdf', mode: 'fast', pages: true, blocks: true, pageMarkers: true, maxPages: 3 }],
    });
  });

  it('an --options file written as for the hosted API\'s SDK (formats as names) is sent as the contract\'s objects', async () => {
    await writeFile(
      join(dir, 'sdk-opts.json'),
      JSON.stringify({ formats: ['markdown', 'html', 'links', 'summary'], parsers: ['pdf', 'image'], origin: 'js-sdk@4.42.0' }),
    );
    const result = await docmill(['parse', 'report.html', '--api-url', url, '--options', 'sdk-opts.json']);
    expect(result.code, result.stderr).toBe(0);
    const optionsJson = /name="options"\r\nContent-Type: application\/json\r\n\r\n(.*)\r\n/.exec(received[0]?.body ?? '')?.[1];
    expect(JSON.parse(optionsJson ?? '{}')).toMatchObject({
      formats: [{ type: 'markdown' }, { type: 'html' }, { type: 'links' }, { type: 'summary' }],
      parsers: [{ type: 'pdf', mode: 'auto', pages: false, blocks: false, pageMarkers: false }],
      origin: 'js-sdk@4.42.0',
    });

    await writeFile(join(dir, 'json-name.json'), JSON.stringify({ formats: ['json'] }));
    const refused = await docmill(['parse', 'report.html', '--api-url', url, '--options', 'json-name.json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('formats.0');
    expect(refused.stderr).toMatch(/json format needs a "schema" or a "prompt"/);
    expect(received).toHaveLength(1);
  });

  it('exit 2 and nothing sent for invalid options, naming each field', async () => {
    const result = await docmill(['parse', 'report.html', '--api-url', url, '--mode', 'slow', '--max-pages', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('parsers.0.mode');
    expect(result.stderr).toContain('parsers.0.maxPages');
    expect(received).toHaveLength(0);
  });

  it('exit 2 and nothing sent for an unsupported file, a missing file, a bad --options file', async () => {
    const unsupported = await docmill(['parse', 'notes.txt', '--api-url', url]);
    expect(unsupported.code).toBe(2);
    expect(unsupported.stderr).toMatch(/notes\.txt: extension "\.txt" is not supported/);
    const missing = await docmill(['parse', 'missing.pdf', '--api-url', url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing.pdf: no such file');
    await writeFile(join(dir, 'broken.json'), '{"formats": [');
    const badOptions = await docmill(['parse', 'report.html', '--api-url', url, '--options', 'broken.json']);
    expect(badOptions.code).toBe(2);
    expect(badOptions.stderr).toContain('--options broken.json: not valid JSON');
    expect(received).toHaveLength(0);
  });

  it('without an API URL, parses with the embedded local engine: no key, no network', async () => {
    const result = await docmill(['parse', 'report.html']);
    expect(result).toMatchObject({ code: 0, stdout: '# Report\n' });
    expect(received).toHaveLength(0);
    await writeFile(join(dir, 'empty.pdf'), '');
    const bad = await docmill(['parse', 'empty.pdf']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('HTTP 400 (code EMPTY_DOCUMENT): empty.pdf: the file is empty (0 bytes)');
  });

  it('`parse -` reads the document from standard input, its type told from its bytes or given by --name', async () => {
    const pdf = await readFile(fileURLToPath(new URL('../../examples/report.pdf', import.meta.url)));
    const local = await docmill(['parse', '-'], {}, pdf);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout).toMatch(/^# Millbrook Quarterly Report\n/);
    const chunks = await docmill(['parse', '-', '--chunks'], {}, pdf);
    const first = JSON.parse(chunks.stdout.split('\n')[0]!) as { source: { path: string; sha256: string } };
    expect(first.source).toEqual({ path: 'stdin', sha256: createHash('sha256').update(pdf).digest('hex') });

    const html = await docmill(['parse', '-', '--api-url', url], {}, Buffer.from('<!doctype html><h1>Piped</h1>'));
    expect(html.code, html.stderr).toBe(0);
    const named = await docmill(['parse', '-', '--api-url', url, '--name', 'totals.csv'], {}, Buffer.from('a,b\n1,2\n'));
    expect(named.code, named.stderr).toBe(0);
    expect(received.map((request) => /filename="([^"]*)"/.exec(request.body)?.[1])).toEqual(['stdin.html', 'totals.csv']);
  });

  it('exit 2 and nothing sent for standard input that is empty, over the limit, or text of no type it can tell', async () => {
    const empty = await docmill(['parse', '-', '--api-url', url], {}, Buffer.alloc(0));
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('stdin: nothing was read (0 bytes)');
    const text = await docmill(['parse', '-', '--api-url', url], {}, Buffer.from('a,b\n1,2\n'));
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('stdin: text that is neither HTML nor RTF: name it with --name');
    const large = await docmill(['parse', '-', '--api-url', url, '--name', 'big.csv'], {}, Buffer.alloc(50 * 1024 * 1024 + 1, 0x61));
    expect(large.code).toBe(2);
    expect(large.stderr).toMatch(/stdin: .* is over the parse API's limit of 50\.0 MiB/);
    const misplaced = await docmill(['parse', 'report.html', '--name', 'other.html', '--api-url', url]);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toContain('--name names the document read from standard input');
    expect(received).toHaveLength(0);
  });

  it('exit 3 on an API error, showing the status, the API code and message, never the key', async () => {
    replies = [{ status: 400, body: { success: false, code: 'BAD_REQUEST', error: 'Invalid multipart form-data request.' } }];
    const result = await docmill(['parse', 'report.html', '--api-url', url, '--api-key', KEY, '--verbose']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('HTTP 400');
    expect(result.stderr).toContain('BAD_REQUEST');
    expect(result.stderr).toContain('Invalid multipart form-data request.');
    expect(result.stderr).not.toContain(KEY);
  });

  it('rides out a 429 with Retry-After and succeeds', async () => {
    replies = [{ status: 429, headers: { 'retry-after': '1' }, body: { success: false, error: 'Concurrency limit reached' } }];
    const started = Date.now();
    const result = await docmill(['parse', 'report.html', '--api-url', url, '--api-key', KEY, '--verbose']);
    expect(result.code).toBe(0);
    expect(received).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(result.stderr).toContain('retrying');
    expect(result.stderr).not.toContain(KEY);
  });

  it('exit 3 when the API cannot be reached', async () => {
    const result = await docmill(['parse', 'report.html', '--api-url', 'http://127.0.0.1:9', '--max-attempts', '2']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Cannot reach the parse API at http://127.0.0.1:9');
    expect(result.stderr).toContain('after 2 attempts');
    const refused = await docmill(['parse', 'report.html', '--api-url', url, '--max-attempts', '9']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--max-attempts must be an integer from 1 to 5');
  });
});
