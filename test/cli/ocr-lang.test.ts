/**
 * `--ocr-lang` as a user runs it (the built CLI): OCR reads a scan in every language asked for, even from language
 * packages installed in different folders; a language without data stops the command with the package to install;
 * changing the languages re-parses; `docmill serve --ocr-lang` is the server's default; a remote API never sees them.
 *
 * A second language package is made here, outside the project: `@tesseract.js-data/eng_copy` (the English data docmill
 * ships, under another code) in a folder given by NODE_PATH, which Node searches as it does any node_modules folder.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validatedOptions } from '../../src/app/processing-settings.js';
import { languageDataFile } from '../../src/engine/pdf/ocr/languages.js';
import { QueueControl } from '../../src/queue/queue-control.js';
import { QUEUE_PREFIX } from '../../src/queue/queue-names.js';
import { scannedPdf } from '../engine/pdf/scanned-pdfs.js';
import {
  DOCMILL_BIN,
  deleteQueueKeys,
  docmillEnv,
  killAllDocmill,
  runDocmill,
  SHARED_REDIS_URL,
  uniqueQueueName,
} from '../helpers/docmill-cli.js';
import { okReply, startRecordingServer } from '../helpers/recording-server.js';

const OCR_RUN_MS = 120_000;
let dir: string;
let src: string;
let scan: string;
let packages: string;
const queues: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docmill-ocr-lang-'));
  src = join(dir, 'src');
  await mkdir(src);
  scan = join(src, 'scan.pdf');
  // Declared German (not installed): read with no --ocr-lang, it would come out in English with a warning.
  await writeFile(
    scan,
    await scannedPdf(
      {
        runs: [
          { x: 72, y: 700, text: 'Invoice number 4471', size: 24 },
          { x: 72, y: 660, text: 'Payment is due within thirty days.', size: 16 },
        ],
      },
      { lang: 'de-DE' },
    ),
  );
  packages = join(dir, 'node_modules');
  const english = languageDataFile('eng');
  if (!english) throw new Error('the English OCR data docmill ships is missing');
  const data = join(packages, '@tesseract.js-data', 'eng_copy', '4.0.0_best_int');
  await mkdir(data, { recursive: true });
  await copyFile(english, join(data, 'eng_copy.traineddata.gz'));
  await writeFile(join(packages, '@tesseract.js-data', 'eng_copy', 'package.json'), '{"name":"@tesseract.js-data/eng_copy","version":"1.0.0"}\n');
});

afterEach(async () => {
  await killAllDocmill();
  for (const queue of queues.splice(0)) await deleteQueueKeys(queue);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

/** A fresh home and temporary folder for one command; `extra` adds to its environment. */
async function env(extra: Record<string, string> = {}, options: { apiUrl?: string; redis?: boolean } = {}) {
  const home = await mkdtemp(join(dir, 'home-'));
  const temp = join(home, 'tmp');
  await mkdir(temp);
  return {
    temp,
    env: docmillEnv({
      home,
      ...(options.apiUrl ? { apiUrl: options.apiUrl, apiKey: 'test-key' } : {}),
      ...(options.redis ? { redisUrl: SHARED_REDIS_URL } : {}),
      extra: { TMPDIR: temp, ...extra },
    }),
  };
}

describe('--ocr-lang', () => {
  it('reads a scan with every language asked for, from packages in different folders, and leaves no file behind', async () => {
    const { env: childEnv, temp } = await env({ NODE_PATH: packages });
    const result = await runDocmill(['parse', scan, '--ocr-lang', 'eng_copy+eng', '--json'], childEnv, OCR_RUN_MS);
    expect(result.code, result.stderr).toBe(0);
    const data = JSON.parse(result.stdout) as { markdown: string; warning?: string; metadata: { language?: string } };
    expect(data.markdown).toMatch(/Invoice number 4471[\s\S]*Payment is due within thirty days\./);
    // Read in the languages asked for: not in English for want of German, so no warning.
    expect(data.warning).toBeUndefined();
    // The language the document declares, not the languages it was read in.
    expect(data.metadata.language).toBe('de-DE');
    // tesseract says so on stderr when a language of the set did not load.
    expect(result.stderr).not.toMatch(/Failed loading language/);
    // The two packages' data was linked into one folder for tesseract, and that folder is gone.
    expect(await readdir(temp)).toEqual([]);
  }, OCR_RUN_MS);

  it('stops parse, run and serve with the package to install when a language has no data', async () => {
    const missing = 'no OCR data installed for the requested language deu: npm install @tesseract.js-data/deu';
    const { env: childEnv } = await env();
    const parsed = await runDocmill(['parse', scan, '--ocr-lang', 'deu,eng'], childEnv);
    expect(parsed.code).toBe(2);
    expect(parsed.stderr).toContain(missing);
    expect(parsed.stdout).toBe('');

    const queue = uniqueQueueName();
    queues.push(queue);
    const { env: runEnv } = await env({}, { redis: true });
    const out = join(dir, 'out-missing');
    const ran = await runDocmill(['run', src, '--out', out, '--queue', queue, '--ocr-lang', 'deu'], runEnv);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(missing);
    await expect(readFile(join(out, 'scan.pdf.md'), 'utf8')).rejects.toThrow(/ENOENT/);

    const served = await runDocmill(['serve', '--port', '0', '--ocr-lang', 'deu'], childEnv);
    expect(served.code).toBe(2);
    expect(served.stderr).toContain(missing);

    const invalid = await runDocmill(['parse', scan, '--ocr-lang', 'de-DE'], childEnv);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('OCR language "de-de" is not a tesseract language code');
  }, 60_000);

  it('re-parses a run when the languages change, and skips it when they do not', async () => {
    const queue = uniqueQueueName();
    queues.push(queue);
    const out = join(dir, 'out-rerun');
    const args = ['run', src, '--out', out, '--queue', queue];
    const { env: childEnv } = await env({}, { redis: true });

    const first = await runDocmill(args, childEnv, OCR_RUN_MS);
    expect(first.code, first.stderr).toBe(0);
    // The document's language has no OCR data here: read in English, and the summary names the file and why.
    expect(first.stderr).toMatch(/1 converted \(1 with a warning\), 0 skipped, 0 failed/);
    expect(first.stderr).toContain('with a warning: scan.pdf (OCR read the scanned pages in English');
    expect(await readFile(join(out, 'scan.pdf.md'), 'utf8')).toMatch(/Invoice number 4471/);

    const english = await runDocmill([...args, '--ocr-lang', 'eng'], childEnv, OCR_RUN_MS);
    expect(english.code, english.stderr).toBe(0);
    expect(english.stderr).toMatch(/1 converted, 0 skipped, 0 failed/);

    const again = await runDocmill([...args, '--ocr-lang', 'eng'], childEnv, OCR_RUN_MS);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/0 converted, 1 skipped, 0 failed/);
  }, 3 * OCR_RUN_MS);

  it('is saved with the options by enqueue, for the workers of the queue; worker has no such flag', async () => {
    const queue = uniqueQueueName();
    queues.push(queue);
    const { env: childEnv } = await env({}, { redis: true });
    const enqueued = await runDocmill(['enqueue', src, '--queue', queue, '--ocr-lang', 'eng'], childEnv);
    expect(enqueued.code, enqueued.stderr).toBe(0);
    const redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null });
    const handle = new Queue(queue, { connection: redis, prefix: QUEUE_PREFIX });
    try {
      const { fingerprint } = validatedOptions({}, { ocrLanguages: ['eng'] });
      expect(await new QueueControl(redis, handle).loadSettings(fingerprint)).toEqual({ ocrLanguages: ['eng'] });
    } finally {
      await handle.close();
      redis.disconnect();
    }
    const worker = await runDocmill(['worker', '--out', join(dir, 'out-worker'), '--ocr-lang', 'eng'], childEnv);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toMatch(/unknown option '--ocr-lang'/);
    const watchHelp = await runDocmill(['watch', '--help'], childEnv);
    expect(watchHelp.stdout).toContain('--ocr-lang <codes>');
  }, 60_000);

  it('is never sent to a remote API, and the user is told so once, not per document', async () => {
    const server = await startRecordingServer([okReply()]);
    const twoScans = join(dir, 'two-scans');
    await mkdir(twoScans);
    await copyFile(scan, join(twoScans, 'a.pdf'));
    // Other bytes, or the run would copy a's outputs instead of sending it.
    await writeFile(join(twoScans, 'b.pdf'), Buffer.concat([await readFile(scan), Buffer.from('% another copy\n')]));
    const queue = uniqueQueueName();
    queues.push(queue);
    try {
      const { env: childEnv } = await env({}, { apiUrl: server.url, redis: true });
      const parsed = await runDocmill(['parse', scan, '--ocr-lang', 'eng'], childEnv);
      expect(parsed.code, parsed.stderr).toBe(0);
      expect(parsed.stderr.match(/ocrLanguages applies only to the local engine/g)).toHaveLength(1);
      const ran = await runDocmill(['run', twoScans, '--out', join(dir, 'out-remote'), '--queue', queue, '--ocr-lang', 'eng'], childEnv);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stderr).toMatch(/2 converted/);
      expect(ran.stderr.match(/ocrLanguages applies only to the local engine/g)).toHaveLength(1);
      expect(server.requests).toHaveLength(3);
      for (const request of server.requests) expect(JSON.stringify(request.parts)).not.toMatch(/ocr/i);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('docmill serve --ocr-lang', () => {
  it("reads every request's scans in the server's languages", async () => {
    const { env: childEnv } = await env();
    const server = spawn(process.execPath, [DOCMILL_BIN, 'serve', '--port', '0', '--max-concurrency', '1', '--ocr-lang', 'eng'], {
      env: childEnv,
    });
    let log = '';
    server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<void>((resolve) => server.on('exit', () => resolve()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve did not start:\n${log}`)), 30_000);
        server.stderr.on('data', () => {
          const match = /"url":"(http:\/\/[^"]+)\/v2\/parse"/.exec(log);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      expect(log).toContain('"ocrLanguages":"eng"');
      const { env: clientEnv } = await env({}, { apiUrl: url });
      const result = await runDocmill(['parse', scan, '--json'], clientEnv, OCR_RUN_MS);
      expect(result.code, result.stderr).toBe(0);
      const data = JSON.parse(result.stdout) as { markdown: string; warning?: string };
      expect(data.markdown).toMatch(/Invoice number 4471/);
      // Without --ocr-lang the server would read this German-declared scan in English and warn about German.
      expect(data.warning).toBeUndefined();
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
  }, OCR_RUN_MS);
});
