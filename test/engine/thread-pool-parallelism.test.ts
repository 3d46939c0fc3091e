/**
 * The engine's thread pool measured, not assumed: two CPU-bound documents on a pool of two overlap in time, and on a
 * pool of one they run one after the other.
 *
 * The times come from inside the worker threads: a child Node process runs the built pool (dist/) with a preload
 * (`--import`, which worker threads inherit) that stamps, on each engine thread, when a document's task arrived and
 * when its reply was posted. No upper bound on speed is asserted (the machine is shared); only the order of events.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** Runs on every thread of the child; only engine threads (not the main one) record. */
const TIMELINE_PRELOAD = `
import { appendFileSync } from 'node:fs';
import { isMainThread, parentPort, threadId } from 'node:worker_threads';
const file = process.env.TIMELINE_FILE;
const now = () => performance.timeOrigin + performance.now();
const record = (event) => appendFileSync(file, JSON.stringify({ ...event, threadId, at: now() }) + '\\n');
if (!isMainThread && parentPort && file) {
  // The engine thread's own 'message' handler is wrapped rather than joined by a second listener: a listener added
  // here would start the port before the thread's module has loaded, and the first task would reach only it.
  for (const method of ['on', 'addListener']) {
    const original = parentPort[method].bind(parentPort);
    parentPort[method] = (name, listener) =>
      name === 'message'
        ? original(name, (task, ...rest) => {
            record({ event: 'start', id: task.id, fileName: task.fileName });
            return listener(task, ...rest);
          })
        : original(name, listener);
  }
  const post = parentPort.postMessage.bind(parentPort);
  parentPort.postMessage = (reply, ...rest) => {
    // Replies only: the thread also tells its readiness and the stages a conversion enters.
    if ('ok' in reply) record({ event: 'end', id: reply.id, ok: reply.ok });
    return post(reply, ...rest);
  };
}
`;

/** Parses the given CSV files on a pool of the given size; prints each document's table row count. */
const DRIVER = `
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
const [distUrl, size, ...files] = process.argv.slice(2);
const { EngineThreadPool } = await import(new URL('src/engine/thread-pool.js', distUrl).href);
const { validateParseOptions } = await import(new URL('src/contract/validation.js', distUrl).href);
const validation = validateParseOptions({});
if (!validation.ok) throw new Error('default options rejected');
const pool = new EngineThreadPool({ size: Number(size) });
try {
  const results = await Promise.all(files.map((file) => pool.run(readFileSync(file), basename(file), validation.options)));
  const rows = results.map((data) => (data.markdown ?? '').split('\\n').filter((line) => line.startsWith('| ')).length);
  console.log(JSON.stringify(rows));
} finally {
  await pool.close();
}
`;

interface TimelineEvent {
  event: 'start' | 'end';
  id: number;
  threadId: number;
  at: number;
  fileName?: string;
  ok?: boolean;
}

interface DocumentSpan {
  fileName: string;
  threadId: number;
  start: number;
  end: number;
}

const ROWS = 150_000;

/** A CSV whose conversion keeps a thread busy for a good while (seconds on a loaded machine). */
function cpuHeavyCsv(seed: string): string {
  const lines = ['id,name,region,amount,note'];
  for (let i = 0; i < ROWS; i++) lines.push(`${i},${seed}-${i},region ${i % 17},${(i * 7.31).toFixed(2)},"note ${i}, ${seed}"`);
  return `${lines.join('\n')}\n`;
}

let dir: string;

beforeAll(() => {
  if (!existsSync(join(DIST, 'src', 'engine', 'thread-pool.js')) || !existsSync(join(DIST, 'workers', 'engine-thread.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before this test');
  }
});

beforeEach(async () => {
  dir = await makeTempDir();
  await writeFile(join(dir, 'preload.mjs'), TIMELINE_PRELOAD);
  await writeFile(join(dir, 'driver.mjs'), DRIVER);
  await writeFile(join(dir, 'alpha.csv'), cpuHeavyCsv('alpha'));
  await writeFile(join(dir, 'beta.csv'), cpuHeavyCsv('beta'));
});

afterEach(async () => {
  await removeTempDir(dir);
});

/** Runs both documents on a pool of `size` threads in a child process; returns each document's span and rows. */
async function runPool(size: number): Promise<{ spans: DocumentSpan[]; rows: number[] }> {
  const timeline = join(dir, `timeline-${size}.jsonl`);
  const args = [
    '--import',
    pathToFileURL(join(dir, 'preload.mjs')).href,
    join(dir, 'driver.mjs'),
    pathToFileURL(DIST).href,
    String(size),
    join(dir, 'alpha.csv'),
    join(dir, 'beta.csv'),
  ];
  const child = spawn(process.execPath, args, { env: { ...process.env, TIMELINE_FILE: timeline }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  expect(code, stderr).toBe(0);

  const events = (await readFile(timeline, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as TimelineEvent);
  const spans = events
    .filter((event) => event.event === 'start')
    .map((start) => {
      const end = events.find((event) => event.event === 'end' && event.id === start.id);
      expect(end, `the reply for ${start.fileName}`).toBeDefined();
      expect(end?.ok, `${start.fileName} parsed`).toBe(true);
      expect(end?.threadId, `${start.fileName} answered by the thread that took it`).toBe(start.threadId);
      return { fileName: start.fileName ?? '', threadId: start.threadId, start: start.at, end: end!.at };
    });
  expect(spans.length, 'documents seen starting on an engine thread (how does workers/engine-thread listen now?)').toBe(2);
  return { spans, rows: JSON.parse(stdout) as number[] };
}

describe('EngineThreadPool parallelism (timed from inside the threads)', () => {
  it('a pool of two parses two CPU-bound documents at the same time, on two threads', async () => {
    const { spans, rows } = await runPool(2);

    // Header, separator and one row per record: the whole table each time.
    expect(rows).toEqual([ROWS + 2, ROWS + 2]);
    expect(spans.map((span) => span.fileName).sort()).toEqual(['alpha.csv', 'beta.csv']);
    const [first, second] = spans as [DocumentSpan, DocumentSpan];
    expect(first.threadId).not.toBe(second.threadId);
    // Overlap: each document started before the other finished.
    const lastStart = Math.max(first.start, second.start);
    const firstEnd = Math.min(first.end, second.end);
    expect(lastStart, JSON.stringify(spans)).toBeLessThan(firstEnd);
  }, 120_000);

  it('a pool of one parses them one after the other, on one thread', async () => {
    const { spans, rows } = await runPool(1);

    expect(rows).toEqual([ROWS + 2, ROWS + 2]);
    expect(spans.map((span) => span.fileName).sort()).toEqual(['alpha.csv', 'beta.csv']);
    const [first, second] = [...spans].sort((a, b) => a.start - b.start) as [DocumentSpan, DocumentSpan];
    expect(second.threadId).toBe(first.threadId);
    expect(second.start, JSON.stringify(spans)).toBeGreaterThanOrEqual(first.end);
  }, 120_000);
});
