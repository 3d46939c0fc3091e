/**
 * `--ocr-workers` as a user runs it (the built CLI): a run of scans with more tesseract workers reads every scan as
 * the default does, and a count that is not a positive integer stops the command before anything is queued.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scannedPdf } from '../engine/pdf/scanned-pdfs.js';
import { deleteQueueKeys, docmillEnv, killAllDocmill, runDocmill, SHARED_REDIS_URL, uniqueQueueName } from '../helpers/docmill-cli.js';

const OCR_RUN_MS = 180_000;
let dir: string;
let src: string;
const queues: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docmill-ocr-workers-'));
  src = join(dir, 'src');
  await mkdir(src);
  for (const [name, text] of [
    ['invoice.pdf', 'Invoice number 4471'],
    ['receipt.pdf', 'Receipt number 9320'],
    ['letter.pdf', 'Letter reference 5108'],
  ]) {
    await writeFile(join(src, name!), await scannedPdf({ runs: [{ x: 72, y: 700, text: text!, size: 24 }] }));
  }
});

afterEach(async () => {
  await killAllDocmill();
  for (const queue of queues.splice(0)) await deleteQueueKeys(queue);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

async function childEnv(): Promise<NodeJS.ProcessEnv> {
  const home = await mkdtemp(join(dir, 'home-'));
  const temp = join(home, 'tmp');
  await mkdir(temp);
  return docmillEnv({ home, redisUrl: SHARED_REDIS_URL, extra: { TMPDIR: temp } });
}

describe('--ocr-workers', () => {
  it('reads every scan of a run with up to that many tesseract workers', async () => {
    const queue = uniqueQueueName();
    queues.push(queue);
    const out = join(dir, 'out');
    const ran = await runDocmill(['run', src, '--out', out, '--queue', queue, '--ocr-workers', '2'], await childEnv(), OCR_RUN_MS);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/3 converted, 0 skipped, 0 failed/);
    expect(await readFile(join(out, 'invoice.pdf.md'), 'utf8')).toMatch(/Invoice number 4471/);
    expect(await readFile(join(out, 'receipt.pdf.md'), 'utf8')).toMatch(/Receipt number 9320/);
    expect(await readFile(join(out, 'letter.pdf.md'), 'utf8')).toMatch(/Letter reference 5108/);
  }, OCR_RUN_MS);

  it('stops run and serve with a usage error for a count that is not a positive integer', async () => {
    const queue = uniqueQueueName();
    queues.push(queue);
    const env = await childEnv();
    const out = join(dir, 'out-refused');
    const ran = await runDocmill(['run', src, '--out', out, '--queue', queue, '--ocr-workers', '0'], env);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--ocr-workers');
    await expect(readFile(join(out, 'invoice.pdf.md'), 'utf8')).rejects.toThrow(/ENOENT/);
    const served = await runDocmill(['serve', '--port', '0', '--ocr-workers', 'two'], env);
    expect(served.code).toBe(2);
    expect(served.stderr).toContain('--ocr-workers');
  }, 60_000);
});
