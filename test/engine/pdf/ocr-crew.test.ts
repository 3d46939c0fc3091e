/**
 * A language set's tesseract workers under a stream of pages: one worker reads a page on one core, so a batch of
 * scans on several engine threads gets more workers (up to one per thread) once its pages keep coming, and the
 * extras end once the stream stops; two pages that merely meet (figures of a mixed batch) share the one worker.
 * Real tesseract.js workers read real page images.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TesseractWorkers } from '../../../src/engine/pdf/ocr/tesseract.js';

/**
 * A blank greyscale page (PGM): tesseract reads it and finds no line. Each is one pixel wider than the one before:
 * a page with the bytes of one read already is answered from memory, without a worker (recognition-memo.ts).
 */
let pagesMade = 0;
function blankPage(): Uint8Array {
  const width = 96 + pagesMade++;
  const header = Buffer.from(`P5\n${width} 48\n255\n`, 'latin1');
  const image = new Uint8Array(header.length + width * 48).fill(255);
  image.set(header);
  return image;
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

let workers: TesseractWorkers | undefined;

afterEach(async () => {
  await workers?.close();
  workers = undefined;
});

describe('tesseract workers of a language set', () => {
  it('start a second worker for pages that keep coming while the first is busy, and end it once they stop', async () => {
    workers = new TesseractWorkers({ perSet: 2, sustainedMs: 0, extraIdleMs: 300 });
    const shared = workers;
    await shared.recognise(blankPage(), 'eng', false);
    expect(shared.size).toBe(1);
    // Two pages at once, as two engine threads send them: the second does not wait behind the first.
    const both = Promise.all([shared.recognise(blankPage(), 'eng', false), shared.recognise(blankPage(), 'eng', false)]);
    expect(shared.size).toBe(2);
    expect(await both).toEqual([[], []]);
    expect(await until(() => shared.size === 1, 10_000)).toBe(true);
  }, 60_000);

  it('count pages that come with short pauses between them as pages that keep coming', async () => {
    workers = new TesseractWorkers({ perSet: 2, sustainedMs: 600, pauseMs: 2_000, extraIdleMs: 60_000 });
    const shared = workers;
    // One page after another, as an engine thread sends the image regions of text pages, with its layout between.
    const started = Date.now();
    while (Date.now() - started < 700) {
      await shared.recognise(blankPage(), 'eng', false);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(shared.size).toBe(1);
    // Two at once now, after more than 600 ms of pages: the second reads beside the first.
    const both = Promise.all([shared.recognise(blankPage(), 'eng', false), shared.recognise(blankPage(), 'eng', false)]);
    expect(shared.size).toBe(2);
    await both;
  }, 60_000);

  it('start no extra worker for pages that meet after a long pause', async () => {
    workers = new TesseractWorkers({ perSet: 2, sustainedMs: 300, pauseMs: 200, extraIdleMs: 60_000 });
    const shared = workers;
    await shared.recognise(blankPage(), 'eng', false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const both = Promise.all([shared.recognise(blankPage(), 'eng', false), shared.recognise(blankPage(), 'eng', false)]);
    expect(shared.size).toBe(1);
    await both;
  }, 60_000);

  it('never start more workers than the set may have', async () => {
    workers = new TesseractWorkers({ perSet: 2, sustainedMs: 0, extraIdleMs: 60_000 });
    const shared = workers;
    const pages = Array.from({ length: 4 }, () => shared.recognise(blankPage(), 'eng', false));
    expect(shared.size).toBe(2);
    expect(await Promise.all(pages)).toEqual([[], [], [], []]);
    expect(shared.size).toBe(2);
  }, 60_000);

  it('read two pages that meet with the one worker when the set has not been busy for long', async () => {
    workers = new TesseractWorkers({ perSet: 2 });
    const shared = workers;
    const both = Promise.all([shared.recognise(blankPage(), 'eng', false), shared.recognise(blankPage(), 'eng', false)]);
    expect(shared.size).toBe(1);
    expect(await both).toEqual([[], []]);
    expect(shared.size).toBe(1);
  }, 60_000);

  it('keep one worker a set by default, as a thread converting alone uses them', async () => {
    workers = new TesseractWorkers({ sustainedMs: 0 });
    const shared = workers;
    const both = Promise.all([shared.recognise(blankPage(), 'eng', false), shared.recognise(blankPage(), 'eng', false)]);
    expect(shared.size).toBe(1);
    await both;
  }, 60_000);
});
