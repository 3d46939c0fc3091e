/**
 * Long PDFs end to end: a generated PDF of over 50 MiB and several hundred pages, converted by `run` against
 * `docmill serve`'s own HTTP server on loopback (which refuses any upload over 50 MiB with the contract's 413), in
 * page ranges that are child jobs of the document's job, checkpointed, retried alone and merged.
 */
import { randomBytes } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/app/run.js';
import { MAX_FILE_BYTES } from '../../src/contract/limits.js';
import type { ParseData } from '../../src/contract/response.js';
import { EngineError } from '../../src/engine/engine-error.js';
import { LocalParseEngine } from '../../src/engine/local-engine.js';
import { startParseServer, type RunningServer } from '../../src/server/parse-server.js';
import {
  builtCliExists,
  deleteQueueKeys,
  docmillEnv,
  killAllDocmill,
  readJsonLines,
  runDocmill,
  SHARED_REDIS_URL,
  startDocmill,
  uniqueQueueName,
  waitFor,
} from '../helpers/docmill-cli.js';
import { startS3rver } from '../helpers/s3rver.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const PAGES = 330;
/** Incompressible bytes per page: 330 × 170 KB ≈ 56 MB in all. */
const NOISE_BYTES = 170 * 1024;
const RANGE_PAGES = 60;

interface LoggedRequest {
  /** Which of the loopback servers took it. */
  server: string;
  fileName: string;
  bytes: number;
  /** Pages the request held, as the engine counted them (0 for a refused one). */
  pages: number;
  status: 'ok' | 'fault';
}

/** A PDF whose page n says "page n marker-n", each with an unused random image that makes it large. */
async function writeLongPdf(path: string): Promise<number> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= PAGES; n++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`page ${n} marker-${n}`, { x: 72, y: 700, size: 12, font });
    const side = Math.floor(Math.sqrt(NOISE_BYTES));
    const image = pdf.context.register(
      pdf.context.stream(randomBytes(side * side), { Type: 'XObject', Subtype: 'Image', Width: side, Height: side, ColorSpace: 'DeviceGray', BitsPerComponent: 8 }),
    );
    page.node.setXObject(PDFName.of('Noise'), image);
  }
  const bytes = await pdf.save();
  await writeFile(path, bytes);
  return bytes.byteLength;
}

let dir: string;
let src: string;
let pdfBytes: number;
let engine: LocalParseEngine;
let server: RunningServer;
const servers: RunningServer[] = [];
const log: LoggedRequest[] = [];
/** Per file name: how many more requests for it are answered 500 before it is parsed. */
const faults = new Map<string, number>();
/** File names answered 400 CORRUPT_DOCUMENT (an error about the document: never retried). */
const refused = new Set<string>();
/** Milliseconds each parse waits first (the kill test needs a run slow enough to kill mid-flow). */
let latencyMs = 0;
const queues: string[] = [];

beforeAll(async () => {
  dir = await makeTempDir();
  src = join(dir, 'src');
  await mkdir(src);
  pdfBytes = await writeLongPdf(join(src, 'book.pdf'));
  engine = new LocalParseEngine({ size: 2 });
  server = await startLoopback('first');
}, 60_000);

/** `docmill serve`'s HTTP server on loopback, on the shared engine, logging what it takes as `name`. */
async function startLoopback(name: string): Promise<RunningServer> {
  const started = await startParseServer({
    host: '127.0.0.1',
    port: 0,
    apiKeys: [],
    maxConcurrency: 4,
    maxQueued: 64,
    logger: pino({ level: 'silent' }),
    // As `docmill serve` wires it, plus a log of what arrived, scripted 500s, and credits as the hosted API counts them.
    parse: async (bytes, fileName, options): Promise<ParseData> => {
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      if (refused.has(fileName)) {
        log.push({ server: name, fileName, bytes: bytes.byteLength, pages: 0, status: 'fault' });
        throw new EngineError('CORRUPT_DOCUMENT', `${fileName}: damaged content stream`);
      }
      const left = faults.get(fileName) ?? 0;
      if (left > 0) {
        faults.set(fileName, left - 1);
        log.push({ server: name, fileName, bytes: bytes.byteLength, pages: 0, status: 'fault' });
        throw new Error('injected server failure');
      }
      const data = await engine.parseBytes(bytes, fileName, options);
      const pages = data.metadata?.numPages ?? 0;
      log.push({ server: name, fileName, bytes: bytes.byteLength, pages, status: 'ok' });
      return { ...data, metadata: { ...data.metadata, creditsUsed: pages } };
    },
  });
  servers.push(started);
  return started;
}

afterAll(async () => {
  for (const running of servers) await running.close();
  await engine?.close();
  for (const queue of queues) await deleteQueueKeys(queue);
  await removeTempDir(dir);
});

afterEach(async () => {
  await killAllDocmill();
  log.length = 0;
  faults.clear();
  refused.clear();
  latencyMs = 0;
});

const parseOptions = { parsers: [{ type: 'pdf' as const, pageMarkers: true, pages: true }] };

async function expectWholeBook(out: string): Promise<void> {
  const markdown = await readFile(join(out, 'book.pdf.md'), 'utf8');
  const pages = JSON.parse(await readFile(join(out, 'book.pdf.pages.json'), 'utf8')) as Array<{ pageNumber: number; markdown: string }>;
  expect(pages.map((page) => page.pageNumber)).toEqual(Array.from({ length: PAGES }, (_, i) => i + 1));
  for (const page of pages) expect(page.markdown).toContain(`marker-${page.pageNumber}`);
  // Every page after the first is announced by its marker, in order, and the marker word follows its own marker.
  const sections = markdown.split(/\n\n---\n\n<!-- page (\d+) -->\n\n/);
  const numbers = sections.filter((_, i) => i % 2 === 1).map(Number);
  expect(numbers).toEqual(Array.from({ length: PAGES - 1 }, (_, i) => i + 2));
  expect(sections[0]).toContain('marker-1');
  for (let i = 1; i < sections.length; i += 2) expect(sections[i + 1]).toContain(`marker-${sections[i]}`);
  const json = JSON.parse(await readFile(join(out, 'book.pdf.json'), 'utf8')) as { metadata: Record<string, unknown> };
  expect(json.metadata).toMatchObject({ numPages: PAGES, totalPages: PAGES, creditsUsed: PAGES });
  // The ranges' bytes and checkpoints are gone once merged.
  expect(await readdir(join(out, '_docmill', 'ranges'), { recursive: true }).catch(() => [])).toEqual(
    expect.not.arrayContaining([expect.stringMatching(/\.(pdf|json)$/)]),
  );
}

function rangeNames(): string[] {
  return Array.from({ length: Math.ceil(PAGES / RANGE_PAGES) }, (_, i) => `book.pages-${i * RANGE_PAGES + 1}-${Math.min(PAGES, (i + 1) * RANGE_PAGES)}.pdf`);
}

describe('a PDF over 50 MiB', () => {
  it('is parsed in page ranges under the limit, a failing range retried alone, and merged as one document', async () => {
    expect(pdfBytes).toBeGreaterThan(MAX_FILE_BYTES);
    const out = join(dir, 'out-whole');
    const queue = uniqueQueueName();
    queues.push(queue);
    const failing = rangeNames()[2]!;
    faults.set(failing, 2);
    const summary = await run({ source: src, out, apiUrl: server.url, redisUrl: SHARED_REDIS_URL, queue, parseOptions, splitPages: RANGE_PAGES, concurrency: 4 }).done;
    expect(summary.outcome).toBe('completed');
    expect(summary.counts.converted).toBe(1);
    // One request per range, each under the limit (the whole file was never sent); the failing range alone was
    // sent again, twice, until it succeeded.
    const requestsFor = (name: string) => log.filter((request) => request.fileName === name).map((request) => request.status);
    expect(requestsFor(failing)).toEqual(['fault', 'fault', 'ok']);
    for (const name of rangeNames().filter((name) => name !== failing)) expect(requestsFor(name)).toEqual(['ok']);
    expect(log).toHaveLength(rangeNames().length + 2);
    expect(log.every((request) => request.bytes < MAX_FILE_BYTES)).toBe(true);
    expect(log.reduce((sum, request) => sum + request.pages, 0)).toBe(PAGES);
    await expectWholeBook(out);
    const manifest = await readJsonLines(join(out, '_docmill', 'manifest.jsonl'));
    expect(manifest).toHaveLength(1);
    expect(manifest[0]).toMatchObject({
      path: 'book.pdf',
      status: 'converted',
      numPages: PAGES,
      totalPages: PAGES,
      creditsUsed: PAGES,
      attempts: rangeNames().length + 2,
    });
  }, 120_000);
});

/** A small PDF of `pages` text pages, each with its marker word, and optionally one image of `noiseBytes` on page 1. */
async function writeTextPdf(path: string, pages: number, noiseBytes = 0): Promise<void> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`page ${n} marker-${n}`, { x: 72, y: 700, size: 12, font });
    if (n === 1 && noiseBytes > 0) {
      const side = Math.ceil(Math.sqrt(noiseBytes));
      const stream = pdf.context.stream(randomBytes(side * side), { Type: 'XObject', Subtype: 'Image', Width: side, Height: side, ColorSpace: 'DeviceGray', BitsPerComponent: 8 });
      page.node.setXObject(PDFName.of('Noise'), pdf.context.register(stream));
    }
  }
  await writeFile(path, await pdf.save());
}

describe('when a PDF is split', () => {
  it('splits one with more pages than --split-pages (up to maxPages), not a shorter one nor a damaged one; fails one with a page over 50 MiB', async () => {
    const mixed = join(dir, 'src-mixed');
    await mkdir(mixed);
    await writeTextPdf(join(mixed, 'long.pdf'), 130);
    await writeTextPdf(join(mixed, 'short.pdf'), 40);
    await writeTextPdf(join(mixed, 'poster.pdf'), 1, MAX_FILE_BYTES + 1024 * 1024);
    // pdf-lib loads it but finds no page tree: it goes whole, and the API says what is wrong with it.
    await writeFile(join(mixed, 'broken.pdf'), '%PDF-1.4\n1 0 obj << /Type /Catalog >> cut short here');
    const out = join(dir, 'out-mixed');
    const queue = uniqueQueueName();
    queues.push(queue);
    const options = { parsers: [{ type: 'pdf' as const, pageMarkers: true, maxPages: 120 }] };
    const summary = await run({ source: mixed, out, apiUrl: server.url, redisUrl: SHARED_REDIS_URL, queue, parseOptions: options, splitPages: 50 }).done;
    expect(summary.counts).toMatchObject({ converted: 2, failed: 2 });
    expect(log.map((request) => `${request.fileName}:${request.pages}`).sort()).toEqual(
      ['long.pages-1-50.pdf:50', 'long.pages-51-100.pdf:50', 'long.pages-101-120.pdf:20', 'short.pdf:40'].sort(),
    );
    const json = JSON.parse(await readFile(join(out, 'long.pdf.json'), 'utf8')) as { metadata: Record<string, unknown> };
    // Truncated as maxPages says: 120 pages parsed of 130.
    expect(json.metadata).toMatchObject({ numPages: 120, totalPages: 130 });
    const markdown = await readFile(join(out, 'long.pdf.md'), 'utf8');
    expect(markdown).toContain('<!-- page 120 -->\n\npage 120 marker-120');
    expect(markdown).not.toContain('marker-121');
    const failures = await readJsonLines(join(out, '_docmill', 'failures.jsonl'));
    expect(failures.find((line) => line.path === 'broken.pdf')?.error).toMatchObject({ status: 400, code: 'CORRUPT_DOCUMENT' });
    const failure = failures.find((line) => line.path === 'poster.pdf');
    expect(failure).toMatchObject({ error: { code: 'PDF_SPLIT_FAILED' } });
    expect(failure?.error?.message).toMatch(/^poster\.pdf: cannot split into page ranges: page 1 alone is \d+ bytes, over the parse API's 52428800-byte limit/);
  }, 120_000);
});

describe('a range that fails for good', () => {
  it('fails its document with PDF_RANGE_FAILED; a rerun parses only that range again', async () => {
    const single = join(dir, 'src-refused');
    await mkdir(single);
    await writeTextPdf(join(single, 'report.pdf'), 75);
    const out = join(dir, 'out-refused');
    const queue = uniqueQueueName();
    queues.push(queue);
    const options = { source: single, out, apiUrl: server.url, redisUrl: SHARED_REDIS_URL, queue, parseOptions, splitPages: 25 };
    refused.add('report.pages-26-50.pdf');
    const first = await run(options).done;
    expect(first.counts.failed).toBe(1);
    const [failure] = await readJsonLines(join(out, '_docmill', 'failures.jsonl'));
    expect(failure?.error?.code).toBe('PDF_RANGE_FAILED');
    expect(failure?.error?.message).toMatch(/^report\.pdf: pages 26-50: CORRUPT_DOCUMENT: .*damaged content stream/);
    expect(log.map((request) => request.fileName).sort()).toEqual(['report.pages-1-25.pdf', 'report.pages-26-50.pdf', 'report.pages-51-75.pdf']);

    refused.clear();
    log.length = 0;
    const second = await run(options).done;
    expect(second.counts.converted).toBe(1);
    expect(log.map((request) => request.fileName)).toEqual(['report.pages-26-50.pdf']);
    const pages = JSON.parse(await readFile(join(out, 'report.pdf.pages.json'), 'utf8')) as Array<{ pageNumber: number; markdown: string }>;
    expect(pages.map((page) => page.pageNumber)).toEqual(Array.from({ length: 75 }, (_, i) => i + 1));
    for (const page of pages) expect(page.markdown).toContain(`marker-${page.pageNumber}`);
  }, 120_000);
});

describe('two copies of a long PDF', () => {
  it('both convert to the same outputs, whichever merges first', async () => {
    const twins = join(dir, 'src-twins');
    await mkdir(twins);
    await writeTextPdf(join(twins, 'a.pdf'), 90);
    await writeFile(join(twins, 'b.pdf'), await readFile(join(twins, 'a.pdf')));
    const out = join(dir, 'out-twins');
    const queue = uniqueQueueName();
    queues.push(queue);
    const summary = await run({ source: twins, out, apiUrl: server.url, redisUrl: SHARED_REDIS_URL, queue, parseOptions, splitPages: 30 }).done;
    expect(summary.counts.failed).toBe(0);
    expect(summary.counts.converted + summary.counts.skipped).toBe(2);
    const [a, b] = await Promise.all(['a.pdf.pages.json', 'b.pdf.pages.json'].map((name) => readFile(join(out, name), 'utf8')));
    expect(b).toBe(a);
    expect((JSON.parse(a ?? '[]') as unknown[]).length).toBe(90);
  }, 120_000);
});

describe.runIf(builtCliExists())('into an S3 output', () => {
  it('cuts the ranges into the bucket, parses them from there, merges, and leaves nothing under _docmill/ranges/', async () => {
    const s3 = await startS3rver(['out']);
    try {
      const local = join(dir, 'src-s3');
      await mkdir(local);
      await writeTextPdf(join(local, 'manual.pdf'), 130);
      const queue = uniqueQueueName();
      queues.push(queue);
      const env = docmillEnv({ home: join(dir, 'home-s3'), apiUrl: server.url, redisUrl: SHARED_REDIS_URL, extra: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' } });
      const args = ['run', local, '--out', 's3://out/md', '--queue', queue, '--split-pages', '50', '--pages', '--s3-endpoint', s3.endpoint, '--s3-region', 'us-east-1'];
      const result = await runDocmill(args, env, 90_000);
      expect(result.code, result.stderr.slice(-2000)).toBe(0);
      expect(log.map((request) => request.fileName).sort()).toEqual(['manual.pages-1-50.pdf', 'manual.pages-101-130.pdf', 'manual.pages-51-100.pdf']);
      const response = await s3.client.send(new GetObjectCommand({ Bucket: 'out', Key: 'md/manual.pdf.pages.json' }));
      const pages = JSON.parse((await response.Body?.transformToString('utf8')) ?? '[]') as Array<{ pageNumber: number; markdown: string }>;
      expect(pages.map((page) => page.pageNumber)).toEqual(Array.from({ length: 130 }, (_, i) => i + 1));
      for (const page of pages) expect(page.markdown).toContain(`marker-${page.pageNumber}`);
      const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: 'out', Prefix: 'md/_docmill/ranges/' }));
      expect(listed.Contents ?? []).toEqual([]);
    } finally {
      await s3.close();
    }
  }, 120_000);
});

describe.runIf(builtCliExists())('a run killed mid-flow', () => {
  it('resumes from the finished ranges: only the unfinished ones are parsed again', async () => {
    const out = join(dir, 'out-kill');
    const home = join(dir, 'home');
    const queue = uniqueQueueName();
    queues.push(queue);
    latencyMs = 700;
    const args = ['run', src, '--out', out, '--queue', queue, '--split-pages', String(RANGE_PAGES), '--concurrency', '1', '--options', join(dir, 'options.json')];
    await writeFile(join(dir, 'options.json'), JSON.stringify(parseOptions));
    const env = docmillEnv({ home, apiUrl: server.url, redisUrl: SHARED_REDIS_URL });
    const first = startDocmill(args, env);
    const checkpoints = async () => (await readdir(join(out, '_docmill', 'ranges'), { recursive: true }).catch(() => [] as string[])).filter((name) => name.endsWith('.json'));
    await waitFor('two checkpointed ranges', async () => (await checkpoints()).length >= 2, { timeoutMs: 60_000 });
    first.kill('SIGKILL');
    await first.exited;
    const finished = new Set((await checkpoints()).map((name) => name.slice(name.lastIndexOf('/') + 1).replace(/\.json$/, '')));
    expect(finished.size).toBeLessThan(rangeNames().length);
    latencyMs = 0;
    // The resumed run talks to a server of its own: a request the killed run had in flight cannot be taken for its.
    const resumeServer = await startLoopback('resume');
    const second = await runDocmill(args, docmillEnv({ home, apiUrl: resumeServer.url, redisUrl: SHARED_REDIS_URL }), 60_000);
    expect(second.code, second.stderr.slice(-2000)).toBe(0);
    const resumed = log.filter((request) => request.server === 'resume').map((request) => /pages-(\d+-\d+)\.pdf$/.exec(request.fileName)?.[1]);
    // The second run sent exactly the ranges the first did not checkpoint.
    expect(resumed.sort()).toEqual(rangeNames().map((name) => /pages-(\d+-\d+)\.pdf$/.exec(name)?.[1]).filter((range) => !finished.has(range!)).sort());
    await expectWholeBook(out);
    const converted = (await readJsonLines(join(out, '_docmill', 'manifest.jsonl'))).filter((line) => line.status === 'converted');
    expect(converted).toHaveLength(1);
  }, 120_000);
});
