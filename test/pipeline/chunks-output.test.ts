/**
 * `docmill run --chunks` end to end on the local engine: a small folder with one document of each format gets a
 * `<file>.chunks.jsonl` beside each Markdown file, on a folder and on S3 (s3rver), whose chunks slice that Markdown
 * exactly and name their source; pages and blocks are asked of the engine for provenance but not written unless
 * asked; a rerun with another `--chunk-tokens` re-converts (the settings are in the options fingerprint), the same
 * command again skips; a copy of a document under another path gets chunks that name the copy. `docmill parse
 * --chunks` prints the chunks as JSON lines. Against a remote API, the options sent ask for pages and blocks.
 */
import { HeadObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Chunk } from '../../src/chunk/chunk.js';
import { countTokens } from '../../src/chunk/tokens.js';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { corpusFile } from '../helpers/corpus.js';
import { docmillEnv, listFiles, runDocmill, SHARED_REDIS_URL, startDocmill, waitFor } from '../helpers/docmill-cli.js';
import { expectedMarkdown, startFaultParseServer } from '../helpers/fault-parse-server.js';
import { startS3rver, type S3rverHandle } from '../helpers/s3rver.js';
import { fileOf, readManifest, sha256, writeTree, type TreeFile } from './pipeline-fixtures.js';

const FIXTURES: Record<string, string> = {
  'reports/code_and_formula.pdf': 'pdf/code_and_formula.pdf',
  'reports/word_tables.docx': 'docx/word_tables.docx',
  'slides/powerpoint_sample.pptx': 'pptx/powerpoint_sample.pptx',
  'slides/odf_presentation_01.odp': 'odp/odf_presentation_01.odp',
  'sheets/xlsx_01.xlsx': 'xlsx/xlsx_01.xlsx',
  'sheets/tests-example.xls': 'xls/tests-example.xls',
  'sheets/csv-comma.csv': 'csv/csv-comma.csv',
  'web/html_rich_table_cells.html': 'html/html_rich_table_cells.html',
  'text/text_document_03.odt': 'odt/text_document_03.odt',
  'text/eng_spa_mult.rtf': 'rtf/eng_spa_mult.rtf',
  'text/legacy_sample.doc': 'doc/legacy_sample.doc',
  'books/epub_purvis_poetry.epub': 'epub/epub_purvis_poetry.epub',
};
const FILES: TreeFile[] = [
  ...Object.entries(FIXTURES).map(([path, fixture]) => fileOf(path, readFileSync(corpusFile(fixture)))),
  // The same bytes under another path: converted once, copied once.
  fileOf('copies/word_tables.docx', readFileSync(corpusFile('docx/word_tables.docx'))),
];

let home: string;
let source: string;
let queue: string;

const workspace = useCliWorkspace({ queue: true });

beforeEach(async () => {
  ({ home, queue } = workspace);
  source = join(home, 'in');
  await writeTree(source, FILES);
});

function parseLines(text: string): Chunk[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Chunk);
}

/** Every chunk file holds chunks of its own Markdown, of its own file, within the budget. */
function expectChunksOf(file: TreeFile, markdown: string, chunks: Chunk[], maxTokens: number): void {
  expect(chunks.length, file.path).toBeGreaterThan(0);
  const ids = new Set<string>();
  chunks.forEach((c, index) => {
    expect(c.index).toBe(index);
    expect(c.text.slice(c.headerChars), `${file.path} chunk ${index}`).toBe(markdown.slice(c.charStart, c.charEnd));
    expect(c.tokens).toBe(countTokens(c.text));
    expect(c.tokens).toBeLessThanOrEqual(maxTokens);
    expect(c.source).toEqual({ path: file.path, sha256: sha256(file.content) });
    ids.add(c.id);
  });
  expect(ids.size).toBe(chunks.length);
}

const env = () => docmillEnv({ home, redisUrl: SHARED_REDIS_URL });

describe('docmill run --chunks', () => {
  it('writes <file>.chunks.jsonl beside the Markdown for every format; another --chunk-tokens re-writes them', async () => {
    const out = join(home, 'out');
    const args = ['run', source, '--out', out, '--queue', queue, '--concurrency', '2', '--chunks'];
    const first = await runDocmill(args, env(), 180_000);
    expect(first.code, first.stderr).toBe(0);

    const written = await listFiles(out);
    expect(written.filter((path) => path.endsWith('.pages.json') || path.endsWith('.blocks.json')), 'not asked for').toEqual([]);
    const before = new Map<string, Chunk[]>();
    for (const file of FILES) {
      const markdown = await readFile(join(out, `${file.path}.md`), 'utf8');
      const chunks = parseLines(await readFile(join(out, `${file.path}.chunks.jsonl`), 'utf8'));
      expectChunksOf(file, markdown, chunks, 512);
      before.set(file.path, chunks);
    }
    // Provenance reached the chunks though no pages or blocks were written.
    expect(before.get('reports/code_and_formula.pdf')!.some((c) => c.pageStart === 2 && c.blocks.some((block) => block.page === 2 && block.bbox))).toBe(true);
    expect(before.get('slides/powerpoint_sample.pptx')!.at(-1)!.pageEnd).toBe(3);
    // The copy's chunks name the copy, so their ids differ from the original's.
    const original = before.get('reports/word_tables.docx')!;
    const copy = before.get('copies/word_tables.docx')!;
    expect(copy.map((c) => c.text)).toEqual(original.map((c) => c.text));
    expect(copy.filter((c) => original.some((o) => o.id === c.id))).toEqual([]);
    const manifest = await readManifest(out);
    const docx = manifest.filter((line) => line.path.endsWith('word_tables.docx'));
    expect(docx.map((line) => line.status).sort()).toEqual(['converted', 'skipped']);
    for (const line of manifest) expect(line.outputs).toContain(`${line.path}.chunks.jsonl`);

    // The same command again: nothing to do.
    const again = await runDocmill(args, env(), 120_000);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/0 converted, 13 skipped/);

    // Another budget is another fingerprint: every document is converted again and its chunks re-written.
    const smaller = await runDocmill([...args, '--chunk-tokens', '96', '--chunk-overlap', '16'], env(), 180_000);
    expect(smaller.code, smaller.stderr).toBe(0);
    expect(smaller.stderr).toMatch(/12 converted, 1 skipped/);
    for (const file of FILES) {
      const markdown = await readFile(join(out, `${file.path}.md`), 'utf8');
      const chunks = parseLines(await readFile(join(out, `${file.path}.chunks.jsonl`), 'utf8'));
      expectChunksOf(file, markdown, chunks, 96);
      expect(chunks.length).toBeGreaterThanOrEqual(before.get(file.path)!.length);
    }
    const pdf = parseLines(await readFile(join(out, 'reports/code_and_formula.pdf.chunks.jsonl'), 'utf8'));
    expect(pdf.length).toBeGreaterThan(before.get('reports/code_and_formula.pdf')!.length);
  }, 600_000);

  it('keeps pages and blocks outputs when they are asked for too', async () => {
    const out = join(home, 'out');
    const result = await runDocmill(['run', join(source, 'reports'), '--out', out, '--queue', queue, '--chunks', '--pages'], env(), 180_000);
    expect(result.code, result.stderr).toBe(0);
    const written = await listFiles(out);
    expect(written).toContain('code_and_formula.pdf.pages.json');
    expect(written).not.toContain('code_and_formula.pdf.blocks.json');
    expect(written).toContain('code_and_formula.pdf.chunks.jsonl');
  }, 300_000);
});

describe('docmill enqueue --chunks and docmill worker', () => {
  it('carry the chunk settings through the queue: the worker, given none, writes the chunks enqueue asked for', async () => {
    const out = join(home, 'out');
    const queued = await runDocmill(['enqueue', join(source, 'slides'), '--queue', queue, '--redis', SHARED_REDIS_URL, '--chunk-tokens', '64'], env(), 60_000);
    expect(queued.code, queued.stderr).toBe(0);
    const worker = startDocmill(['worker', '--out', out, '--queue', queue, '--redis', SHARED_REDIS_URL], env());
    const files = FILES.filter((file) => file.path.startsWith('slides/')).map((file) => ({ ...file, path: file.path.slice('slides/'.length) }));
    await waitFor(
      'the worker to write both chunk files',
      async () => (await Promise.all(files.map((file) => readFile(join(out, `${file.path}.chunks.jsonl`), 'utf8').catch(() => '')))).every(Boolean),
      { timeoutMs: 120_000 },
    );
    worker.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
    for (const file of files) {
      const markdown = await readFile(join(out, `${file.path}.md`), 'utf8');
      expectChunksOf(file, markdown, parseLines(await readFile(join(out, `${file.path}.chunks.jsonl`), 'utf8')), 64);
    }
  }, 300_000);
});

describe('docmill run --chunks against a remote API', () => {
  it('asks the PDF parser for pages and blocks (provenance), writes only the outputs asked for, and uses the blocks', async () => {
    const server = await startFaultParseServer();
    try {
      const out = join(home, 'out');
      const args = ['run', join(source, 'web'), '--out', out, '--queue', queue, '--api-url', server.url, '--api-key', 'k', '--chunks'];
      const result = await runDocmill(args, env(), 120_000);
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((request) => request.options)).toEqual([
        expect.objectContaining({ parsers: [expect.objectContaining({ type: 'pdf', pages: true, blocks: true, pageMarkers: false })] }),
      ]);
      expect(await listFiles(out)).toEqual(expect.arrayContaining(['html_rich_table_cells.html.md', 'html_rich_table_cells.html.json', 'html_rich_table_cells.html.chunks.jsonl']));
      expect((await listFiles(out)).filter((path) => /\.(pages|blocks)\.json$/.test(path))).toEqual([]);
      const [only, ...rest] = parseLines(await readFile(join(out, 'html_rich_table_cells.html.chunks.jsonl'), 'utf8'));
      expect(rest).toEqual([]);
      expect(only).toMatchObject({
        text: expectedMarkdown('html_rich_table_cells.html', FILES.find((file) => file.path === 'web/html_rich_table_cells.html')!.content.length),
        headingPath: ['html_rich_table_cells.html'],
        pageStart: 1,
        pageEnd: 1,
        blocks: [{ id: 'p1.b0', page: 1, bbox: [0.1, 0.1, 0.9, 0.2], type: 'title' }],
      });
    } finally {
      await server.close();
    }
  }, 300_000);
});

describe('docmill run --chunks into S3', () => {
  let s3: S3rverHandle;
  beforeAll(async () => {
    s3 = await startS3rver(['out']);
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('writes one .chunks.jsonl object per document, as application/x-ndjson', async () => {
    const s3env = docmillEnv({ home, redisUrl: SHARED_REDIS_URL, extra: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' } });
    const args = ['run', source, '--out', 's3://out/md', '--queue', queue, '--s3-endpoint', s3.endpoint, '--s3-region', 'us-east-1', '--chunks', '--chunk-tokens', '200'];
    const result = await runDocmill(args, s3env, 180_000);
    expect(result.code, result.stderr).toBe(0);
    for (const file of FILES) {
      const get = async (key: string) => (await s3.client.send(new GetObjectCommand({ Bucket: 'out', Key: key }))).Body!.transformToString('utf8');
      const markdown = await get(`md/${file.path}.md`);
      expectChunksOf(file, markdown, parseLines(await get(`md/${file.path}.chunks.jsonl`)), 200);
    }
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: 'out', Key: 'md/reports/code_and_formula.pdf.chunks.jsonl' }));
    expect(head.ContentType).toBe('application/x-ndjson');
  }, 300_000);
});

describe('docmill parse --chunks', () => {
  it('prints the chunks as JSON lines, with the file named as given', async () => {
    const pdf = join(source, 'reports/code_and_formula.pdf');
    const result = await runDocmill(['parse', pdf, '--chunk-tokens', '100'], env(), 120_000);
    expect(result.code, result.stderr).toBe(0);
    const chunks = parseLines(result.stdout);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.tokens <= 100 && c.source?.path === pdf)).toBe(true);
    expect(chunks.find((c) => c.text.includes('a² + 8 = 12'))).toMatchObject({ pageStart: 2, headingPath: ['Formula'] });

    const refused = await runDocmill(['parse', pdf, '--chunks', '--json'], env(), 60_000);
    expect(refused.code).toBe(2);
    const badOverlap = await runDocmill(['parse', pdf, '--chunk-tokens', '50', '--chunk-overlap', '50'], env(), 60_000);
    expect(badOverlap.code).toBe(2);
    expect(badOverlap.stderr).toMatch(/overlap/);
  }, 300_000);
});
