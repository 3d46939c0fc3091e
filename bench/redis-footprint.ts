/**
 * Benchmark "Redis footprint": Redis memory per queued document. Run by hand, never by the tests:
 *
 *   npx tsx bench/redis-footprint.ts                     # 100,000 files, about 2 minutes
 *   npx tsx bench/redis-footprint.ts --files 10000       # a quick look
 *
 * Makes --files empty `.pdf` files in a temporary folder (paths of a realistic depth and length:
 * `<tmp>/src/archive-NN/2026/department-NNN/report-NNNNNN.pdf`), queues them with docmill's own `enqueue` (the
 * library call `docmill enqueue` runs) on a queue of its own (`bench-footprint-<uuid>`), with no worker, so every
 * document waits. Then reads:
 *
 * - the keys of that queue: how many, and the sum of `MEMORY USAGE` over them (exact, whatever else the shared
 *   Redis is doing), per document;
 * - `used_memory` from `INFO memory` before and after (the whole server, so other clients' writes add noise), per
 *   document;
 * - the bytes of one job's hash: its data (the document's reference) and its options, as stored.
 *
 * The queue's keys and the folder are deleted at the end. Goal: at most 1 KB (1,024 bytes) a queued document.
 *
 * Flags: --files N (100000) · --redis-url URL (redis://127.0.0.1:6379) · --keep (leave the queue for a look)
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { enqueue } from '../src/index.js';
import { deleteQueueKeys } from './lib/redis-cleanup.js';
import { markdownTable } from './lib/table.js';
import { exitWithHelpIfAsked } from './lib/help.js';

exitWithHelpIfAsked(import.meta.url);

const { values: flags } = parseArgs({
  options: {
    files: { type: 'string', default: '100000' },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    keep: { type: 'boolean', default: false },
  },
  strict: true,
});

const files = Number(flags.files);
if (!Number.isInteger(files) || files < 1) throw new Error(`--files must be a positive integer, not ${flags.files}`);
const redisUrl = flags['redis-url'];
const GOAL_BYTES = 1024;

async function makeFiles(root: string, count: number): Promise<void> {
  const perFolder = 1000;
  for (let start = 0; start < count; start += perFolder) {
    const folder = join(root, `archive-${String(start / perFolder / 10 | 0).padStart(2, '0')}`, '2026', `department-${String((start / perFolder) % 10 * 7).padStart(3, '0')}`);
    await mkdir(folder, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let index = start; index < Math.min(count, start + perFolder); index++) {
      writes.push(writeFile(join(folder, `report-${String(index).padStart(6, '0')}.pdf`), ''));
    }
    await Promise.all(writes);
  }
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1]);
}

async function queueKeys(redis: Redis, queue: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `{docmill}:${queue}:*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

/** Sum of MEMORY USAGE over `keys` (SAMPLES 0: every element of a collection is counted), pipelined. */
async function memoryUsage(redis: Redis, keys: string[]): Promise<number> {
  let total = 0;
  for (let start = 0; start < keys.length; start += 1000) {
    const pipeline = redis.pipeline();
    for (const key of keys.slice(start, start + 1000)) pipeline.memory('USAGE', key, 'SAMPLES', 0);
    for (const [error, bytes] of (await pipeline.exec()) ?? []) {
      if (error) throw error;
      total += Number(bytes ?? 0);
    }
  }
  return total;
}

/** The keys of a queue grouped by what follows the queue's name: one job hash each, and BullMQ's shared keys. */
function kindOf(key: string, queue: string): string {
  const rest = key.slice(`{docmill}:${queue}:`.length);
  if (/^[0-9a-f]{40}$/.test(rest)) return '<job id> (job hash)';
  // A group job of small documents (`g<count>-<id>`): one hash for all of them.
  const group = /^g(\d+)-[0-9a-f]{40}$/.exec(rest);
  if (group) return `group of ${group[1]} (job hash)`;
  return rest.replace(/[0-9a-f]{40}/g, '<id>');
}

const dir = await mkdtemp(join(tmpdir(), 'docmill-footprint-'));
const queue = `bench-footprint-${randomUUID()}`;
const redis = new Redis(redisUrl);
try {
  const src = join(dir, 'src');
  console.log(`making ${files.toLocaleString('en')} files in ${src}`);
  await makeFiles(src, files);
  const before = await usedMemory(redis);
  const started = Date.now();
  const result = await enqueue({ source: src, redisUrl, queue }).done;
  const seconds = (Date.now() - started) / 1000;
  if (result.queued !== files) throw new Error(`queued ${result.queued} of ${files} files`);
  const after = await usedMemory(redis);

  const keys = await queueKeys(redis, queue);
  const byKind = new Map<string, { keys: number; bytes: number }>();
  for (let start = 0; start < keys.length; start += 5000) {
    const slice = keys.slice(start, start + 5000);
    const pipeline = redis.pipeline();
    for (const key of slice) pipeline.memory('USAGE', key, 'SAMPLES', 0);
    const answers = (await pipeline.exec()) ?? [];
    slice.forEach((key, index) => {
      const kind = kindOf(key, queue);
      const entry = byKind.get(kind) ?? { keys: 0, bytes: 0 };
      entry.keys += 1;
      entry.bytes += Number(answers[index]?.[1] ?? 0);
      byKind.set(kind, entry);
    });
  }
  const keyBytes = [...byKind.values()].reduce((sum, { bytes }) => sum + bytes, 0);
  const jobKey = keys.find((key) => kindOf(key, queue).endsWith('(job hash)'));
  const job = jobKey ? await redis.hgetall(jobKey) : {};
  const oneJob = jobKey ? await memoryUsage(redis, [jobKey]) : 0;

  const perDoc = (bytes: number) => (bytes / files).toFixed(0);
  console.log(`\n${new Date().toISOString()}, load ${loadavg().map((value) => value.toFixed(1)).join(' ')}, redis ${(await redis.info('server')).match(/^redis_version:(.+)$/m)?.[1]?.trim()}`);
  console.log(`\`npx tsx bench/redis-footprint.ts --files ${files}\`: ${files.toLocaleString('en')} documents queued in ${seconds.toFixed(1)} s, none taken\n`);
  console.log(
    markdownTable(
      ['key', 'keys', 'MEMORY USAGE bytes', 'bytes / document'],
      [...byKind.entries()]
        .sort(([, a], [, b]) => b.bytes - a.bytes)
        .map(([kind, { keys: count, bytes }]) => [kind, count.toLocaleString('en'), bytes.toLocaleString('en'), perDoc(bytes)]),
    ),
  );
  console.log(`\nthe queue's keys: **${perDoc(keyBytes)} bytes / document** (goal ≤ ${GOAL_BYTES}: ${keyBytes / files <= GOAL_BYTES ? 'met' : 'missed'})`);
  console.log(`used_memory: ${before.toLocaleString('en')} → ${after.toLocaleString('en')} bytes, ${perDoc(after - before)} bytes / document (the whole server: other clients add noise)`);
  console.log(`one job hash (${jobKey ? kindOf(jobKey, queue) : 'none'}): ${oneJob} bytes; its fields (value bytes):`);
  for (const [field, value] of Object.entries(job)) {
    const shown = value.length > 400 ? `${value.slice(0, 400)}…` : value;
    console.log(`  ${field}: ${Buffer.byteLength(value)}${['data', 'opts'].includes(field) ? ` ${shown}` : ''}`);
  }
} finally {
  redis.disconnect();
  if (!flags.keep) {
    const deleted = await deleteQueueKeys(redisUrl, queue);
    console.log(`\ndeleted ${deleted.toLocaleString('en')} keys of ${queue}`);
  } else {
    console.log(`\nkept queue ${queue}`);
  }
  await rm(dir, { recursive: true, force: true });
}
