/**
 * A pool ends its tesseract workers when the thread whose page they read timed out. Pages still waiting for those
 * workers then fail with a clear error instead of waiting for ever (tesseract.js neither answers nor fails a job sent
 * to an ended worker, and reports it as an unhandled rejection, which fails this file under vitest).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TesseractWorkers } from '../../../src/engine/pdf/ocr/tesseract.js';

/** A blank 200 × 50 greyscale page (PGM). */
const BLANK = new Uint8Array(Buffer.concat([Buffer.from('P5 200 50 255\n'), Buffer.alloc(200 * 50, 255)]));

let workers: TesseractWorkers | undefined;

afterEach(async () => {
  await workers?.close();
});

describe('TesseractWorkers ended with pages waiting', () => {
  it('fails the waiting pages with a clear error, and reads the next page with a fresh worker', async () => {
    workers = new TesseractWorkers();
    const waiting = [workers.recognise(BLANK, 'eng'), workers.recognise(BLANK, 'eng', false), workers.recognise(BLANK, 'eng')];
    await workers.close();

    const outcomes = await Promise.allSettled(waiting);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const outcome of outcomes) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ message: 'the OCR worker was ended before this page was read' });
    }
    await expect(workers.recognise(BLANK, 'eng')).resolves.toEqual([]);
  }, 60_000);
});
