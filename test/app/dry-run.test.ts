/**
 * `preview` (`--dry-run`): what a run would send and cost, by the hosted API's credit rules, with nothing sent,
 * queued or written. Page counts of the fixture PDFs are pdfinfo's (see test/pipeline/credits.test.ts).
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { preview } from '../../src/app/preview.js';
import { run } from '../../src/app/run.js';
import { corpusFile } from '../helpers/corpus.js';
import { deleteQueueKeys, listFiles, SHARED_REDIS_URL, uniqueQueueName } from '../helpers/docmill-cli.js';
import { okReply, startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const THREE_PAGES = fileURLToPath(new URL('../engine/pdf/fixtures/acme-report-3p.pdf', import.meta.url));

let dir: string;
let src: string;
let out: string;
let server: RecordingServer;
const queues: string[] = [];

beforeEach(async () => {
  dir = await makeTempDir();
  src = join(dir, 'src');
  out = join(dir, 'out');
  await mkdir(join(src, 'reports'), { recursive: true });
  await copyFile(corpusFile('pdf/code_and_formula.pdf'), join(src, 'reports', 'formula.pdf')); // 2 pages
  await copyFile(THREE_PAGES, join(src, 'reports', 'acme.pdf')); // 3 pages
  await copyFile(corpusFile('pdf/TRUNCATED-layout-parser-paper-fast.pdf'), join(src, 'broken.pdf')); // unreadable
  await copyFile(corpusFile('docx/equations.docx'), join(src, 'equations.docx'));
  await writeFile(join(src, 'prices.csv'), 'item,price\napple,3\n');
  await writeFile(join(src, 'mail.msg'), 'not a format docmill converts');
  server = await startRecordingServer(() => okReply({ numPages: 1, creditsUsed: 1 }));
});

afterEach(async () => {
  await server.close();
  await removeTempDir(dir);
  for (const queue of queues.splice(0)) await deleteQueueKeys(queue);
});

function byPath(items: { path: string; pages: number; credits: number }[]): Record<string, [number, number]> {
  return Object.fromEntries(items.map((item) => [item.path, [item.pages, item.credits]]));
}

describe('preview', () => {
  it('prices each document by the rules: pages of PDFs, 1 per other document', async () => {
    const result = await preview({ source: src, out });
    expect(byPath(result.items)).toEqual({
      'broken.pdf': [1, 1],
      'equations.docx': [1, 1],
      'prices.csv': [1, 1],
      'reports/acme.pdf': [3, 3],
      'reports/formula.pdf': [2, 2],
    });
    expect(result).toMatchObject({ documents: 5, pages: 8, estimatedCredits: 8, notConverted: 1 });
    expect(result.items.find((item) => item.path === 'broken.pdf')?.note).toMatch(/not readable as a PDF/);
  });

  it('adds the json, redactPII and zero data retention charges, and caps pages at maxPages', async () => {
    const result = await preview({
      source: src,
      out,
      parseOptions: { formats: [{ type: 'json' }], redactPII: true, zeroDataRetention: true, parsers: [{ type: 'pdf', maxPages: 2 }] },
    });
    // Each: pages + 4 (json) + 4 (redaction) + 4 per PDF page after the first + 1 (ZDR).
    expect(byPath(result.items)).toEqual({
      'broken.pdf': [1, 1 + 4 + 4 + 1],
      'equations.docx': [1, 10],
      'prices.csv': [1, 10],
      'reports/acme.pdf': [2, 2 + 4 + 4 + 4 + 1],
      'reports/formula.pdf': [2, 2 + 4 + 4 + 4 + 1],
    });
    expect(result.estimatedCredits).toBe(10 + 10 + 10 + 15 + 15);
    expect(result.pages).toBe(7);
  });

  it('sends nothing and writes nothing', async () => {
    await preview({ source: src, out });
    expect(existsSync(out)).toBe(false);
  });

  it('previews nothing after a run has converted everything, and counts a copy of converted content as 0 credits', async () => {
    const queue = uniqueQueueName();
    queues.push(queue);
    const summary = await run({ source: src, out, redisUrl: SHARED_REDIS_URL, queue, apiUrl: server.url, apiKey: 'test-key' }).done;
    expect(summary.outcome).toBe('completed');
    expect(server.requests).toHaveLength(5);
    const written = await listFiles(out);

    const rerun = await preview({ source: src, out });
    expect(rerun).toMatchObject({ documents: 0, pages: 0, estimatedCredits: 0, items: [], skipped: { unchanged: 5, sameContent: 0 } });

    // A new file with the content of a converted one is copied by a run, not parsed; a changed one is parsed again.
    await copyFile(THREE_PAGES, join(src, 'acme-copy.pdf'));
    await writeFile(join(src, 'prices.csv'), 'item,price\napple,3\npear,4\n');
    const changed = await preview({ source: src, out });
    expect(byPath(changed.items)).toEqual({ 'prices.csv': [1, 1] });
    expect(changed.skipped).toEqual({ unchanged: 4, sameContent: 1, tooLarge: 0 });
    // Other options are another conversion: everything counts again, the copy within the listing once.
    expect(await preview({ source: src, out, parseOptions: { zeroDataRetention: true } })).toMatchObject({ documents: 5, skipped: { unchanged: 0, sameContent: 1 } });
    expect(await listFiles(out)).toEqual(written);
    expect(server.requests).toHaveLength(5);
  });

  it('counts content repeated within the listing once, and everything with force', async () => {
    await copyFile(THREE_PAGES, join(src, 'reports', 'acme-again.pdf'));
    const result = await preview({ source: src });
    expect(result.documents).toBe(5);
    expect(result.skipped.sameContent).toBe(1);
    expect((await preview({ source: src, force: true })).documents).toBe(6);
  });
});
