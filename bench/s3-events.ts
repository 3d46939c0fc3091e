/**
 * Benchmark "S3 events" (issue 20): how long after a bucket changes its documents are converted, with
 * `docmill watch --events` (the bucket's notifications through SQS) beside `docmill watch` polling at its default
 * interval (30 s). Run by hand, never by the tests:
 *
 *   npm run build && npx tsx bench/s3-events.ts                 # 1,000 objects, about a minute
 *   npx tsx bench/s3-events.ts --objects 200 --poll-interval 10000
 *
 * Real parts on loopback: s3rver (S3), fauxqs (SQS, in this process), the shared Redis, and a parse server that
 * answers at once (test/helpers/fault-parse-server.ts, 5 ms): what is measured is the watch, not parsing. For each
 * contender, a fresh prefix, queue and output folder; docmill is started and its first listing done, then
 * `--objects` objects are created at once (50 puts in flight). With events, each object's notification is sent to SQS
 * as its put completes, as S3 does. The figure is the time from the last change (the last notification sent; for
 * polling, the last put, when S3 would have sent it) to the last output written (the latest `at` of the manifest's
 * lines), with the time to the first output beside it.
 *
 * Flags: --objects N (1000) · --poll-interval MS (30000, docmill's default) · --concurrency N (16)
 *        --redis-url URL (redis://127.0.0.1:6379) · --keep (keep the output folders)
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFaultParseServer } from '../test/helpers/fault-parse-server.js';
import { startSqs, type FauxqsHandle } from '../test/helpers/fauxqs.js';
import { s3Notification } from '../test/helpers/s3-notifications.js';
import { startS3rver, type S3rverHandle } from '../test/helpers/s3rver.js';
import { deleteQueueKeys } from './lib/redis-cleanup.js';
import { markdownTable } from './lib/table.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BUCKET = 'bench';

const { values: flags } = parseArgs({
  options: {
    objects: { type: 'string', default: '1000' },
    'poll-interval': { type: 'string', default: '30000' },
    concurrency: { type: 'string', default: '16' },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    keep: { type: 'boolean', default: false },
  },
});
const OBJECTS = Number(flags.objects);
const POLL_MS = Number(flags['poll-interval']);

interface Result {
  contender: string;
  lastChangeToLastOutputMs: number;
  lastChangeToFirstOutputMs: number;
  converted: number;
  parseRequests: number;
}

async function main(): Promise<void> {
  const [s3, sqs] = await Promise.all([startS3rver([BUCKET]), startSqs()]);
  const server = await startFaultParseServer({ latencyMs: 5 });
  const results: Result[] = [];
  try {
    for (const contender of ['events', 'polling'] as const) {
      server.clearRequests();
      results.push(await measure(contender, s3, sqs, server.url, () => server.requests.length));
    }
  } finally {
    await server.close();
    await Promise.all([s3.close(), sqs.close()]);
  }
  const rows = results.map((result) => [
    result.contender,
    `${(result.lastChangeToLastOutputMs / 1000).toFixed(2)} s`,
    `${(result.lastChangeToFirstOutputMs / 1000).toFixed(2)} s`,
    `${result.converted}/${OBJECTS}`,
    String(result.parseRequests),
  ]);
  console.log(`\n${OBJECTS} objects created at once; polling at ${POLL_MS} ms\n`);
  console.log(markdownTable(['watch', 'last change → last output', 'last change → first output', 'converted', 'parse requests'], rows));
  const [events, polling] = results;
  if (events && polling) {
    console.log(`\npolling / events, last change → last output: ${(polling.lastChangeToLastOutputMs / events.lastChangeToLastOutputMs).toFixed(1)}×`);
  }
}

async function measure(
  contender: 'events' | 'polling',
  s3: S3rverHandle,
  sqs: FauxqsHandle,
  apiUrl: string,
  parseRequests: () => number,
): Promise<Result> {
  const prefix = `${contender}-${randomUUID().slice(0, 8)}`;
  const queue = `bench-${randomUUID()}`;
  const home = await mkdtemp(join(tmpdir(), 'docmill-bench-home-'));
  const out = await mkdtemp(join(tmpdir(), 'docmill-bench-out-'));
  const eventQueue = contender === 'events' ? sqs.createQueue(`bench-${randomUUID()}`).url : undefined;
  const args = ['watch', `s3://${BUCKET}/${prefix}`, '--out', out, '--queue', queue, '--s3-endpoint', s3.endpoint, '--concurrency', flags.concurrency!];
  if (eventQueue) args.push('--events', eventQueue, '--sqs-endpoint', sqs.endpoint, '--relist-interval', '0');
  else args.push('--poll-interval', String(POLL_MS));
  const child = spawn(process.execPath, [join(REPO, 'bin', 'docmill.js'), ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CACHE_HOME: join(home, '.cache'),
      REDIS_URL: flags['redis-url'],
      DOCMILL_API_URL: apiUrl,
      DOCMILL_LOG_LEVEL: 'warn',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    // The first listing (and, polling, the baseline poll right after it) of an empty prefix takes well under this.
    await sleep(3000);
    if (child.exitCode !== null) throw new Error(`docmill exited: ${stderr}`);
    let lastChange = 0;
    const names = Array.from({ length: OBJECTS }, (_, i) => `${prefix}/batch/doc ${String(i).padStart(4, '0')}.html`);
    for (let i = 0; i < names.length; i += 50) {
      await Promise.all(
        names.slice(i, i + 50).map(async (key, j) => {
          const body = `<html><body><h1>Document ${i + j}</h1></body></html>\n`;
          const put = await s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
          if (eventQueue) {
            const etag = put.ETag!.replaceAll('"', '');
            await sqs.send(eventQueue, s3Notification({ kind: 'created', bucket: BUCKET, key, etag, size: Buffer.byteLength(body) }));
          }
          lastChange = Math.max(lastChange, Date.now());
        }),
      );
    }
    const deadline = Date.now() + POLL_MS * 2 + 300_000;
    let times: number[] = [];
    while (Date.now() < deadline) {
      times = await convertedTimes(out);
      if (times.length >= OBJECTS) break;
      await sleep(250);
    }
    return {
      contender,
      lastChangeToLastOutputMs: Math.max(...times) - lastChange,
      lastChangeToFirstOutputMs: Math.min(...times) - lastChange,
      converted: times.length,
      parseRequests: parseRequests(),
    };
  } finally {
    await stop(child);
    await deleteQueueKeys(flags['redis-url']!, queue);
    if (!flags.keep) await Promise.all([rm(out, { recursive: true, force: true }), rm(home, { recursive: true, force: true })]);
  }
}

/** When each converted document's manifest line was written (ms since the epoch). */
async function convertedTimes(out: string): Promise<number[]> {
  const text = await readFile(join(out, '_docmill', 'manifest.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.includes('"status":"converted"'))
    .map((line) => Date.parse((JSON.parse(line) as { at: string }).at));
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

await main();
