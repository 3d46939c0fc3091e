/**
 * The operator's cost controls from the built CLI: `--dry-run [--json]` on run and enqueue (nothing sent, queued or
 * written), `--max-credits` on a worker, `status` with the budget, throughput and ETA, and `resume --max-credits`.
 * Real processes: the shared Redis, a loopback parse server that logs every request it receives.
 */
import { existsSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueue } from '../../src/app/enqueue.js';
import { queueNameForOutput } from '../../src/queue/queue-names.js';
import { corpusFile } from '../helpers/corpus.js';
import {
  builtCliExists,
  deleteQueueKeys,
  docmillEnv,
  killAllDocmill,
  queueKeys,
  runDocmill,
  SHARED_REDIS_URL,
  startDocmill,
  uniqueQueueName,
  waitFor,
} from '../helpers/docmill-cli.js';
import { okReply, startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { readManifest } from '../pipeline/pipeline-fixtures.js';

interface StatusReport {
  paused: false | { kind: string; message: string };
  counts: { waiting: number; active: number; completed: number };
  documentsPerMinute: number;
  etaSeconds?: number;
  budget: { maxCredits: number; used: number; reserved: number } | null;
}

let home: string;
let src: string;
let out: string;
let queue: string;
let server: RecordingServer;

beforeAll(() => {
  if (!builtCliExists()) throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
});

beforeEach(async () => {
  home = await makeTempDir();
  src = await makeTempDir();
  out = join(await makeTempDir(), 'out');
  queue = uniqueQueueName();
  server = await startRecordingServer(() => okReply({ numPages: 1, creditsUsed: 1 }));
});

afterEach(async () => {
  await killAllDocmill();
  await server.close();
  await deleteQueueKeys(queue);
  await removeTempDir(home);
  await removeTempDir(src);
});

const env = () => docmillEnv({ home, apiUrl: server.url, apiKey: 'budget-key-7c1d', redisUrl: SHARED_REDIS_URL });

describe('--dry-run', () => {
  it('run --dry-run --json prints one JSON object with the estimate, and sends, queues and writes nothing', async () => {
    await copyFile(corpusFile('pdf/multi-column-2p.pdf'), join(src, 'columns.pdf'));
    await writeFile(join(src, 'prices.csv'), 'item,price\napple,3\n');
    const result = await runDocmill(['run', src, '--out', out, '--dry-run', '--json', '--redact-pii'], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    const estimate = JSON.parse(result.stdout) as { documents: number; pages: number; estimatedCredits: number; items: unknown[] };
    // columns.pdf: 2 pages + 4 + 4 (redaction, one page after the first) = 10; prices.csv: 1 + 4 = 5.
    expect(estimate).toMatchObject({ documents: 2, pages: 3, estimatedCredits: 15 });
    expect(estimate.items).toEqual([
      { path: 'columns.pdf', pages: 2, credits: 10 },
      { path: 'prices.csv', pages: 1, credits: 5 },
    ]);
    expect(server.requests).toEqual([]);
    expect(existsSync(out)).toBe(false);
    expect(await queueKeys(queueNameForOutput(out))).toEqual([]);
  });

  it('enqueue --dry-run shows a table and queues nothing', async () => {
    await copyFile(corpusFile('pdf/code_and_formula.pdf'), join(src, 'formula.pdf'));
    const result = await runDocmill(['enqueue', src, '--queue', queue, '--dry-run', '--formats', 'markdown,json'], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('1 documents · 2 pages · 6 credits (estimated)');
    expect(result.stdout).toMatch(/6\s+2\s+formula\.pdf/);
    expect(await queueKeys(queue)).toEqual([]);
  });

  it('refuses --json without --dry-run', async () => {
    const result = await runDocmill(['run', src, '--out', out, '--json'], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--json goes with --dry-run');
  });
});

describe('--max-credits on run', () => {
  it('exits 5 at the budget with its summary, and the same command with a higher budget finishes', async () => {
    for (const name of ['a', 'b', 'c', 'd']) await writeFile(join(src, `${name}.csv`), `name\n${name}\n`);
    const args = ['run', src, '--out', out, '--queue', queue, '--concurrency', '1'];
    const stopped = await runDocmill([...args, '--max-credits', '2'], env());
    expect(stopped.code, stopped.stderr).toBe(5);
    expect(stopped.stderr).toContain('stopped at the credit budget: 2 of 2 credits used; 2 documents wait in the queue, none failed');
    expect(server.requests).toHaveLength(2);
    const finished = await runDocmill([...args, '--max-credits', '10'], env());
    expect(finished.code, finished.stderr).toBe(0);
    expect(server.requests).toHaveLength(4);
  }, 60_000);
});

describe('--max-credits on a worker', () => {
  it('pauses the queue at the budget with the rest waiting; status shows it; resume --max-credits lets workers finish', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await writeFile(join(src, `${name}.csv`), `name\n${name}\n`);
    await enqueue({ source: src, redisUrl: SHARED_REDIS_URL, queue }).done;

    // Each CSV is estimated and charged 1 credit: 3 fit in the budget, the 4th would pass it.
    const worker = startDocmill(['worker', '--queue', queue, '--out', out, '--concurrency', '1', '--max-credits', '3'], env());
    const status = async () => JSON.parse((await runDocmill(['status', '--queue', queue, '--json'], env())).stdout) as StatusReport;
    const stopped = await waitFor('the queue to pause at the budget', async () => {
      const report = await status();
      return report.paused && report.counts.active === 0 ? report : undefined;
    });
    expect(stopped.paused).toMatchObject({ kind: 'budget' });
    expect(stopped.budget).toEqual({ maxCredits: 3, used: 3, reserved: 0 });
    expect(stopped.counts.waiting).toBe(2);
    expect(stopped.etaSeconds).toBeUndefined();
    expect(server.requests).toHaveLength(3);
    expect((await readManifest(out)).filter((line) => line.status !== 'converted')).toEqual([]);
    await waitFor('the worker to log the budget stop', () => worker.stderr.includes('credit budget reached'));

    worker.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);

    const resumed = await runDocmill(['resume', '--queue', queue, '--max-credits', '10'], env());
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('credit budget of queue');
    expect(resumed.stdout).toContain('was paused: credit budget reached');

    // Resumed with nothing converting: throughput from the last minute, an ETA for what is left, the budget line.
    const running = await status();
    expect(running.paused).toBe(false);
    expect(running.documentsPerMinute).toBeGreaterThan(0);
    expect(running.etaSeconds).toBeDefined();
    expect(Math.abs(running.etaSeconds! - (2 / running.documentsPerMinute) * 60)).toBeLessThan(1);
    const text = (await runDocmill(['status', '--queue', queue], env())).stdout;
    expect(text).toContain('budget: 3 of 10 credits used');
    expect(text).toMatch(/2 left, ETA /);

    // A worker without --max-credits keeps the queue's budget, and finishes the batch inside it.
    const second = startDocmill(['worker', '--queue', queue, '--out', out, '--concurrency', '1'], env());
    await waitFor('the rest to be converted', async () => (await readManifest(out)).filter((line) => line.status === 'converted').length === 5);
    const done = await status();
    expect(done.budget).toEqual({ maxCredits: 10, used: 5, reserved: 0 });
    expect(server.requests).toHaveLength(5);
    second.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  }, 90_000);

  it('holds across worker processes: two workers sharing a queue send exactly what the budget allows', async () => {
    for (let i = 0; i < 24; i++) await writeFile(join(src, `doc-${String(i).padStart(2, '0')}.csv`), `n\n${i}\n`);
    await enqueue({ source: src, redisUrl: SHARED_REDIS_URL, queue }).done;
    // Every document is estimated and charged 1: reservations let 7 out in all, however the two interleave.
    const workers = [1, 2].map(() => startDocmill(['worker', '--queue', queue, '--out', out, '--concurrency', '4', '--max-credits', '7'], env()));
    const status = async () => JSON.parse((await runDocmill(['status', '--queue', queue, '--json'], env())).stdout) as StatusReport;
    const stopped = await waitFor('the queue to pause at the budget', async () => {
      const report = await status();
      return report.paused && report.counts.active === 0 ? report : undefined;
    });
    expect(server.requests).toHaveLength(7);
    expect(stopped.budget).toEqual({ maxCredits: 7, used: 7, reserved: 0 });
    expect(stopped.counts.waiting).toBe(17);
    for (const worker of workers) worker.kill('SIGTERM');
    for (const worker of workers) expect((await worker.exited).code).toBe(0);
  }, 90_000);
});
