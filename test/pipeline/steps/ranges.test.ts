/**
 * The long-PDF steps on a real folder store, the shared Redis and a loopback API: the split step cuts a PDF longer
 * than a request holds into ranges stored for every worker (once, keeping what an earlier run checkpointed), and a
 * range's job parses its bytes once and checkpoints the result with the requests it took.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WaitingChildrenError } from 'bullmq';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localFileSource } from '../../../src/backend/upload-source.js';
import { RemoteParseApi } from '../../../src/client/remote-parse-api.js';
import { ApiGate } from '../../../src/pipeline/api-gate.js';
import type { JobContext } from '../../../src/pipeline/job-context.js';
import type { MaterialisedFile } from '../../../src/pipeline/materialise.js';
import { RangeWorkFiles } from '../../../src/pipeline/range-work-files.js';
import { SendingState } from '../../../src/pipeline/sending.js';
import { loadOptions } from '../../../src/pipeline/steps/load-options.js';
import { parseRange } from '../../../src/pipeline/steps/parse-range.js';
import { advanceRanges, RangeBytesMissing } from '../../../src/pipeline/steps/range-children.js';
import { splitPdf } from '../../../src/pipeline/steps/split-pdf.js';
import { RANGE_JOB_NAME } from '../../../src/queue/job-data.js';
import { FsStore } from '../../../src/store/fs-store.js';
import { okReply, startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { makeTempDir, removeTempDir } from '../../helpers/temp-files.js';
import { captureLogs, FINGERPRINT, jobData, openStepQueue, type StepQueue } from './step-fixtures.js';

let steps: StepQueue;
let dir: string;
let store: FsStore;
let book: MaterialisedFile;

async function writePdf(path: string, pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) pdf.addPage([612, 792]).drawText(`page ${n}`, { x: 72, y: 700, size: 12, font });
  const bytes = Buffer.from(await pdf.save());
  await writeFile(path, bytes);
  return bytes;
}

async function materialised(path: string, bytes: Buffer): Promise<MaterialisedFile> {
  return { upload: await localFileSource(path), sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.byteLength, dispose: async () => undefined };
}

beforeEach(async () => {
  steps = await openStepQueue();
  dir = await makeTempDir();
  store = new FsStore(join(dir, 'out'));
  const path = join(dir, 'book.pdf');
  book = await materialised(path, await writePdf(path, 5));
});

afterEach(async () => {
  await store.close();
  await steps.close();
  await removeTempDir(dir);
});

async function context(path: string, name?: string, fields = {}): Promise<JobContext> {
  const ctx = await steps.context(jobData(path, fields, dir), name);
  ctx.useOptions(await loadOptions(ctx, steps.control));
  return ctx;
}

const splitDeps = () => ({ store, logger: captureLogs().logger, splitPages: 2 });

describe('splitPdf', () => {
  it('cuts a PDF longer than a range into ranges stored for every worker, and saves the plan in the job', async () => {
    const ctx = await context('book.pdf');
    const plan = await splitPdf(ctx, book, splitDeps(), { fresh: false, generation: 0 });
    expect(plan).toEqual({ sha256: book.sha256, totalPages: 5, generation: 0, ranges: [{ first: 1, last: 2 }, { first: 3, last: 4 }, { first: 5, last: 5 }] });
    expect(ctx.latestData().split).toEqual(plan);
    const files = new RangeWorkFiles(store, book.sha256, FINGERPRINT);
    const first = await files.readBytes({ first: 1, last: 2 });
    expect((await PDFDocument.load(first ?? new Uint8Array())).getPageCount()).toBe(2);
  });

  it('sends a PDF whole when it fits one range, and anything that is not a PDF', async () => {
    expect(await splitPdf(await context('book.pdf'), book, { ...splitDeps(), splitPages: 5 }, { fresh: false, generation: 0 })).toBeUndefined();
    const html = join(dir, 'page.html');
    const bytes = Buffer.from('<h1>x</h1>');
    await writeFile(html, bytes);
    expect(await splitPdf(await context('page.html'), await materialised(html, bytes), splitDeps(), { fresh: false, generation: 0 })).toBeUndefined();
  });

  it('keeps what an earlier run checkpointed (no bytes cut for it), unless fresh (--force)', async () => {
    const files = new RangeWorkFiles(store, book.sha256, FINGERPRINT);
    await files.writeCheckpoint({ first: 3, last: 4 }, 1, { markdown: 'page 3\n\npage 4' });
    await splitPdf(await context('book.pdf'), book, splitDeps(), { fresh: false, generation: 0 });
    expect(await files.readBytes({ first: 3, last: 4 })).toBeUndefined();
    expect(await files.hasCheckpoint({ first: 3, last: 4 })).toBe(true);

    await splitPdf(await context('book.pdf'), book, splitDeps(), { fresh: true, generation: 0 });
    expect(await files.readBytes({ first: 3, last: 4 })).toBeDefined();
    expect(await files.hasCheckpoint({ first: 3, last: 4 })).toBe(false);
  });
});

describe('RangeWorkFiles', () => {
  it('does not trust a checkpoint that does not read back, or is another range\'s', async () => {
    const files = new RangeWorkFiles(store, book.sha256, FINGERPRINT);
    await store.writeWorkFile(files.checkpointKey({ first: 1, last: 2 }), '{"v":1,"first":1,');
    await store.writeWorkFile(files.checkpointKey({ first: 3, last: 4 }), JSON.stringify({ v: 1, first: 3, last: 5, requests: 1, data: { markdown: 'x' } }));
    expect(await files.readCheckpoint({ first: 1, last: 2 })).toBeUndefined();
    expect(await files.readCheckpoint({ first: 3, last: 4 })).toBeUndefined();
  });
});

describe('parseRange', () => {
  let server: RecordingServer;
  let api: RemoteParseApi;

  beforeEach(async () => {
    server = await startRecordingServer(() => okReply({ numPages: 2, creditsUsed: 2 }, { markdown: 'page 1\n\npage 2' }));
    api = new RemoteParseApi({ apiUrl: server.url, apiKey: 'key' });
  });

  afterEach(async () => {
    await api.close();
    await server.close();
  });

  const rangeDeps = () => ({
    queue: steps.queue,
    control: steps.control,
    store,
    gate: new ApiGate({ max: 2 }),
    backend: api,
    logger: captureLogs().logger,
    sending: new SendingState(),
  });

  it('parses its bytes under the range\'s own file name, then checkpoints the result with the requests it took', async () => {
    await splitPdf(await context('book.pdf'), book, splitDeps(), { fresh: false, generation: 0 });
    const range = await context('book.pdf', RANGE_JOB_NAME, { size: 0, range: { first: 1, last: 2, sha256: book.sha256 }, requestsMade: 1 });
    await parseRange(range, rangeDeps());
    expect(server.requests.map((request) => request.parts.find((part) => part.name === 'file')?.filename)).toEqual(['book.pages-1-2.pdf']);
    const checkpoint = await new RangeWorkFiles(store, book.sha256, FINGERPRINT).readCheckpoint({ first: 1, last: 2 });
    expect(checkpoint).toMatchObject({ first: 1, last: 2, requests: 2, data: { markdown: 'page 1\n\npage 2' } });

    // Its job run again (a worker died before completing it): the checkpoint stands, nothing is sent.
    await parseRange(await context('book.pdf', RANGE_JOB_NAME, { size: 0, range: { first: 1, last: 2, sha256: book.sha256 } }), rangeDeps());
    expect(server.requests).toHaveLength(1);
  });

  it('sends nothing when its bytes are gone from the store: its document decides', async () => {
    await parseRange(await context('book.pdf', RANGE_JOB_NAME, { size: 0, range: { first: 1, last: 2, sha256: book.sha256 } }), rangeDeps());
    expect(server.requests).toHaveLength(0);
  });
});

describe('advanceRanges', () => {
  const childDeps = () => ({ queue: steps.queue, store });

  it('adds a child job per range not yet done, under the document, and leaves the document waiting for them', async () => {
    const ctx = await context('book.pdf');
    const plan = (await splitPdf(ctx, book, splitDeps(), { fresh: false, generation: 0 }))!;
    await new RangeWorkFiles(store, book.sha256, FINGERPRINT).writeCheckpoint({ first: 1, last: 2 }, 1, { markdown: 'page 1\n\npage 2' });
    await expect(advanceRanges(ctx, plan, childDeps())).rejects.toBeInstanceOf(WaitingChildrenError);
    expect(await steps.queue.getJobState(ctx.job.id!)).toBe('waiting-children');
    const children = await steps.queue.getJobs(['waiting']);
    expect(children.map((child) => child.id).sort()).toEqual([`${ctx.job.id}-g0-p3-4`, `${ctx.job.id}-g0-p5-5`]);
    for (const child of children) {
      expect(child.name).toBe(RANGE_JOB_NAME);
      expect(child.parentKey).toContain(ctx.job.id!);
      expect(child.data).toMatchObject({ relativePath: 'book.pdf', range: { sha256: book.sha256 } });
    }
  });

  it('merges the checkpoints once every range has one: pages in order, the requests of every range counted', async () => {
    const ctx = await context('book.pdf');
    const plan = (await splitPdf(ctx, book, splitDeps(), { fresh: false, generation: 0 }))!;
    const files = new RangeWorkFiles(store, book.sha256, FINGERPRINT);
    await files.writeCheckpoint({ first: 1, last: 2 }, 1, { markdown: 'page 1\n\npage 2', metadata: { numPages: 2, creditsUsed: 2 } });
    await files.writeCheckpoint({ first: 3, last: 4 }, 3, { markdown: 'page 3\n\npage 4', metadata: { numPages: 2, creditsUsed: 2 } });
    await files.writeCheckpoint({ first: 5, last: 5 }, 1, { markdown: 'page 5', metadata: { numPages: 1, creditsUsed: 1 } });
    const merged = await advanceRanges(ctx, plan, childDeps());
    expect(merged.requests).toBe(5);
    expect(merged.data.markdown).toBe('page 1\n\npage 2\n\npage 3\n\npage 4\n\npage 5');
    expect(merged.data.metadata).toMatchObject({ numPages: 5, creditsUsed: 5, totalPages: 5 });
    expect(await steps.queue.getJobs(['waiting'])).toEqual([]);
  });

  it('says which ranges lost their bytes (a store cleaned by hand), so the document cuts them again', async () => {
    const ctx = await context('book.pdf');
    const plan = (await splitPdf(ctx, book, splitDeps(), { fresh: false, generation: 0 }))!;
    await new RangeWorkFiles(store, book.sha256, FINGERPRINT).removeBytes([{ first: 3, last: 4 }]);
    const error = await advanceRanges(ctx, plan, childDeps()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RangeBytesMissing);
    expect((error as RangeBytesMissing).ranges).toEqual([{ first: 3, last: 4 }]);
  });
});
