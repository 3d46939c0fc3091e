/**
 * The pool's shared tesseract workers when an engine thread ends: a thread stopped in the middle of a document (its
 * time ran out) ends them even between two of its pages, when no other thread waits for one; a thread recycled
 * between documents leaves them for the next scan. A real worker thread relays a page through a real SharedOcr.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { SharedOcr } from '../../../src/engine/pdf/ocr/ocr-relay.js';

function osThreads(): number | undefined {
  if (!existsSync('/proc/self/status')) return undefined;
  return Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

/** An engine thread's part: one page sent to the pool, then a word to the test once it is answered. */
const ONE_PAGE = `
const { parentPort } = require('node:worker_threads');
const header = Buffer.from('P5\\n64 32\\n255\\n', 'latin1');
const image = new Uint8Array(header.length + 64 * 32).fill(255);
image.set(header);
parentPort.on('message', (message) => {
  if (message && typeof message.ocrAnswer === 'number') parentPort.postMessage({ answered: 'lines' in message });
});
parentPort.postMessage({ ocrRequest: 1, image, languages: 'eng', invert: false }, [image.buffer]);
`;

let ocr: SharedOcr | undefined;
let thread: Worker | undefined;

afterEach(async () => {
  await thread?.terminate();
  await ocr?.close();
});

/** A thread whose one page the shared workers have read: they are running when this resolves. */
async function threadWithPageRead(shared: SharedOcr): Promise<Worker> {
  const worker = new Worker(ONE_PAGE, { eval: true });
  const answered = new Promise<unknown>((resolve) => worker.on('message', (message: { answered?: boolean }) => message.answered !== undefined && resolve(message.answered)));
  shared.serve(worker);
  expect(await answered).toBe(true);
  return worker;
}

describe.skipIf(osThreads() === undefined)('shared OCR workers when an engine thread ends', () => {
  it('are ended when a thread is stopped between two of its pages and no other thread waits for one', async () => {
    ocr = new SharedOcr();
    thread = await threadWithPageRead(ocr);
    await thread.terminate();
    // The engine thread is gone; the tesseract worker it used is still there, idle. (Counted from here: the first
    // worker may start threads the process then keeps, libuv's pool among them on Node 24.)
    const withWorkers = osThreads()!;
    ocr.abandon(thread, true);
    expect(await until(() => osThreads()! < withWorkers, 15_000)).toBe(true);
  }, 60_000);

  it('are kept for the next scan when a thread is recycled between documents', async () => {
    ocr = new SharedOcr();
    thread = await threadWithPageRead(ocr);
    await thread.terminate();
    const withWorkers = osThreads()!;
    ocr.abandon(thread, false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(osThreads()!).toBeGreaterThanOrEqual(withWorkers);
  }, 60_000);
});
