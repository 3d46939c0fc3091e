/**
 * The steps that read the source and write the store, on real files (a source folder and a folder store) and the
 * shared Redis: reading and hashing the file, finding the same content converted before, writing the outputs and the
 * state, and recording the document's line in the manifest with its metrics.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UnrecoverableError, Worker } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocmillMetrics } from '../../../src/metrics/metrics.js';
import type { DocumentOutcome } from '../../../src/pipeline/outcome.js';
import { JobContext } from '../../../src/pipeline/job-context.js';
import { loadOptions } from '../../../src/pipeline/steps/load-options.js';
import { readSource } from '../../../src/pipeline/steps/read-source.js';
import { recordFailure, recordFinished } from '../../../src/pipeline/steps/record.js';
import { reuseByContent } from '../../../src/pipeline/steps/reuse-content.js';
import { skipIfUnchanged } from '../../../src/pipeline/steps/skip-unchanged.js';
import { writeOutputs } from '../../../src/pipeline/steps/write-outputs.js';
import { createSource } from '../../../src/sources/create-source.js';
import { FsStore } from '../../../src/store/fs-store.js';
import { StoreWriteError } from '../../../src/store/store-errors.js';
import { BadRequestError, ServerError } from '../../../src/backend/errors.js';
import { MAX_FILE_BYTES } from '../../../src/contract/limits.js';
import type { ParseJobData } from '../../../src/queue/job-data.js';
import { makeTempDir, rejectionOf, removeTempDir } from '../../helpers/temp-files.js';
import { QUEUE_PREFIX } from '../../../src/queue/queue-names.js';
import { captureLogs, jobData, openStepQueue, type StepQueue } from './step-fixtures.js';

const HTML = '<html><body><h1>Sales</h1><p>Grew.</p></body></html>';
const SHA = createHash('sha256').update(HTML).digest('hex');

let steps: StepQueue;
let src: string;
let out: string;
let store: FsStore;
let metrics: DocmillMetrics;
const outcomes: DocumentOutcome[] = [];

beforeEach(async () => {
  steps = await openStepQueue();
  src = await makeTempDir();
  out = await makeTempDir();
  store = new FsStore(out);
  metrics = new DocmillMetrics();
  logs = captureLogs();
  outcomes.length = 0;
  await writeFile(join(src, 'report.html'), HTML);
  await writeFile(join(src, 'copy.html'), HTML);
});

afterEach(async () => {
  await store.close();
  await steps.close();
  await removeTempDir(src);
  await removeTempDir(out);
});

async function context(path: string, fields: Partial<ParseJobData> = {}, attempts = 1): Promise<JobContext> {
  const ctx = await steps.context(jobData(path, { size: HTML.length, ...fields }, src), undefined, { attempts });
  ctx.useOptions(await loadOptions(ctx, steps.control));
  return ctx;
}

async function sample(name: 'bytesRead' | 'bytesWritten'): Promise<number> {
  return (await metrics[name].get()).values[0]?.value ?? 0;
}

let logs: ReturnType<typeof captureLogs>;
const deps = () => ({ store, control: steps.control, metrics, logger: logs.logger, sourceFor: (location: string) => createSource(location), onOutcome: (outcome: DocumentOutcome) => outcomes.push(outcome) });

/** Converts `path` as if the API had answered with `markdown` (and `warning`), through the write and record steps. */
async function convert(path: string, markdown: string, warning?: string) {
  const ctx = await context(path);
  ctx.countRequests();
  const data = { markdown, metadata: { numPages: 1, creditsUsed: 1 }, ...(warning === undefined ? {} : { warning }) };
  const state = await writeOutputs(ctx, SHA, { data, attempts: 1, durationMs: 1 }, deps());
  return recordFinished(ctx, { status: 'converted', state, requests: ctx.requests }, deps());
}

describe('readSource', () => {
  it('reads and hashes the file, counting the bytes read', async () => {
    const local = await readSource(await context('report.html'), deps());
    try {
      expect(local.sha256).toBe(SHA);
      expect(local.size).toBe(HTML.length);
      expect(await sample('bytesRead')).toBe(HTML.length);
    } finally {
      await local.dispose();
    }
  });

  it('refuses a file over the upload limit unread, unless it is a PDF', async () => {
    const error = await rejectionOf(readSource(await context('report.html', { size: MAX_FILE_BYTES + 1 }), deps()));
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toContain('over the parse API');
    expect(await sample('bytesRead')).toBe(0);
  });
});

describe('writeOutputs and recordFinished', () => {
  it('writes the outputs and the state, then one manifest line with the requests, the totals and the metrics', async () => {
    const result = await convert('report.html', '# Sales');
    expect(result).toEqual({ status: 'converted', outputs: 2, numPages: 1 });
    expect(await readFile(join(out, 'report.html.md'), 'utf8')).toBe('# Sales');
    expect(await store.readState('report.html')).toMatchObject({ sha256: SHA, origin: 'parsed', requests: 1, creditsUsed: 1 });
    // The metric counts the bytes of the files as written.
    const written = (await Promise.all(['report.html.md', 'report.html.json'].map((name) => stat(join(out, name))))).reduce((sum, file) => sum + file.size, 0);
    expect(await sample('bytesWritten')).toBe(written);
    const manifest = (await readFile(join(out, '_docmill', 'manifest.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(manifest).toEqual([expect.objectContaining({ path: 'report.html', status: 'converted', attempts: 1, creditsUsed: 1, sha256: SHA })]);
    expect(await steps.control.stats()).toMatchObject({ converted: 1, pages: 1, credits: 1 });
    expect((await metrics.documents.get()).values).toEqual([expect.objectContaining({ labels: { status: 'converted' }, value: 1 })]);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'converted', relativePath: 'report.html', requests: 1, creditsUsed: 1 })]);
    expect(outcomes[0]).not.toHaveProperty('warning');
    expect(manifest[0]).not.toHaveProperty('warning');
    expect(logs.lines.filter((line) => line.msg === 'converted with a warning')).toEqual([]);
    expect((await metrics.documentsWithWarning.get()).values[0]?.value ?? 0).toBe(0);
  });

  it("keeps the parse's warning with the document: in its state, its manifest line, its outcome and the log", async () => {
    const warning = 'The file was cut short: its 12 whole parts were read, and what came after them is missing.';
    await convert('report.html', '# Sales', `${warning} `);
    expect(await store.readState('report.html')).toMatchObject({ warning });
    const manifest = (await readFile(join(out, '_docmill', 'manifest.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(manifest).toEqual([expect.objectContaining({ path: 'report.html', status: 'converted', warning })]);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'converted', warning })]);
    expect(await logs.line('converted with a warning')).toMatchObject({ level: 40, file: 'report.html', warning });
    expect((await metrics.documentsWithWarning.get()).values[0]?.value).toBe(1);
    // A rerun that finds it unchanged names the same outputs: its line carries the warning too; the outcome, about
    // what this run converted, does not.
    const again = await context('report.html');
    const state = await store.readState('report.html');
    await recordFinished(again, { status: 'skipped', state: state!, reason: 'unchanged', requests: 0 }, deps());
    const lines = (await readFile(join(out, '_docmill', 'manifest.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[1]).toMatchObject({ status: 'skipped', reason: 'unchanged', warning });
    expect(outcomes[1]).toMatchObject({ status: 'skipped' });
    expect(outcomes[1]).not.toHaveProperty('warning');
    expect(logs.lines.filter((line) => line.msg === 'converted with a warning')).toHaveLength(1);
    expect((await metrics.documentsWithWarning.get()).values[0]?.value).toBe(1);
  });
});

describe('writeOutputs with the outputs made durable by group commit', () => {
  it('gives back the document\'s slot while its outputs wait for the flush pass, and puts them in place after it', async () => {
    const passes: Array<{ paths: readonly string[]; done: () => void }> = [];
    const held = new FsStore(out, out, { commitWindowMs: 50, flush: (paths) => new Promise<void>((done) => passes.push({ paths, done })) });
    try {
      const { job, token } = await steps.take(jobData('report.html', { size: HTML.length }, src));
      const events: string[] = [];
      const ctx = new JobContext(job, token, undefined, true, () => events.push('slot given back'));
      ctx.useOptions(await loadOptions(ctx, steps.control));
      const writing = writeOutputs(ctx, SHA, { data: { markdown: '# Sales', metadata: { numPages: 1 } }, attempts: 1, durationMs: 1 }, { ...deps(), store: held });
      await waitForPass(passes);
      // The slot given back; nothing in place and no state yet: the pass has not made the outputs durable.
      expect(events.length).toBeGreaterThan(0);
      expect(new Set(events)).toEqual(new Set(['slot given back']));
      expect(existsSync(join(out, 'report.html.md'))).toBe(false);
      expect(await held.readState('report.html')).toBeUndefined();
      expect(passes[0]!.paths.map((path) => path.slice(path.lastIndexOf('~') + 1)).sort()).toEqual(['report.html.json', 'report.html.md']);
      passes[0]!.done();
      const state = await writing;
      expect(await readFile(join(out, 'report.html.md'), 'utf8')).toBe('# Sales');
      expect(await held.readState('report.html')).toEqual(state);
    } finally {
      const closing = held.close();
      for (const pass of passes) pass.done();
      await closing;
    }
  });
});

async function waitForPass(passes: readonly unknown[]): Promise<void> {
  for (let tries = 0; passes.length === 0; tries++) {
    if (tries > 200) throw new Error('no flush pass started');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('a job started again after its worker died', () => {
  async function manifestLines(): Promise<{ path: string; status: string }[]> {
    const text = await readFile(join(out, '_docmill', 'manifest.jsonl'), 'utf8').catch(() => '');
    return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { path: string; status: string });
  }

  /**
   * The job's first start converts the document and writes its state, and its manifest line when `recordLine`; then
   * its worker "dies": the job goes back to the queue unfinished, and is taken again as BullMQ restarts a stalled job.
   */
  async function restartAfter(recordLine: boolean): Promise<JobContext> {
    const first = await context('report.html');
    first.countRequests();
    const state = await writeOutputs(first, SHA, { data: { markdown: '# Sales', metadata: { numPages: 1, creditsUsed: 1 } }, attempts: 1, durationMs: 1 }, deps());
    if (recordLine) await recordFinished(first, { status: 'converted', state, requests: first.requests }, deps());
    const job = first.job as unknown as { moveToWait(token?: string): Promise<number> };
    await job.moveToWait(first.token);
    const worker = new Worker(steps.name, null, { connection: steps.redis, prefix: QUEUE_PREFIX, autorun: false });
    try {
      const token = 'second-start';
      const again = await worker.getNextJob(token, { block: false });
      if (!again) throw new Error('the job did not come back');
      expect(again.attemptsStarted).toBe(2);
      const ctx = new JobContext(again, token);
      ctx.useOptions(await loadOptions(ctx, steps.control));
      return ctx;
    } finally {
      await worker.close(true);
    }
  }

  it('does not record the document again when its earlier start wrote its manifest line', async () => {
    const ctx = await restartAfter(true);
    const finished = await skipIfUnchanged(ctx, store);
    expect(finished).toMatchObject({ status: 'converted', recorded: { path: 'report.html', status: 'converted' } });
    await recordFinished(ctx, finished!, deps());
    expect(await manifestLines()).toEqual([expect.objectContaining({ path: 'report.html', status: 'converted' })]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['converted', 'converted']);
  });

  it('records the conversion once when its earlier start died before the manifest line', async () => {
    const ctx = await restartAfter(false);
    const finished = await skipIfUnchanged(ctx, store);
    expect(finished).toMatchObject({ status: 'converted' });
    expect(finished?.recorded).toBeUndefined();
    await recordFinished(ctx, finished!, deps());
    expect(await manifestLines()).toEqual([expect.objectContaining({ path: 'report.html', status: 'converted' })]);
  });
});

describe('reuseByContent', () => {
  it('copies the outputs of the same content converted under another path, and says so', async () => {
    await convert('report.html', '# Sales');
    const ctx = await context('copy.html');
    const reused = await reuseByContent(ctx, SHA, store);
    expect(reused).toMatchObject({ status: 'skipped', reason: 'same content as report.html', requests: 0 });
    expect(await readFile(join(out, 'copy.html.md'), 'utf8')).toBe('# Sales');
    expect(await store.readState('copy.html')).toMatchObject({ origin: 'copied', sha256: SHA });
  });

  it("carries the warning of the outputs it copies", async () => {
    await convert('report.html', '# Sales', 'Page(s) 2: the text after that point is missing.');
    const reused = await reuseByContent(await context('copy.html'), SHA, store);
    expect(reused?.state.warning).toBe('Page(s) 2: the text after that point is missing.');
    expect(await store.readState('copy.html')).toMatchObject({ origin: 'copied', warning: 'Page(s) 2: the text after that point is missing.' });
  });

  it('finds nothing for content not converted, and looks for nothing with --force', async () => {
    expect(await reuseByContent(await context('copy.html'), SHA, store)).toBeUndefined();
    await convert('report.html', '# Sales');
    expect(await reuseByContent(await context('copy.html', { force: true }), SHA, store)).toBeUndefined();
  });
});

describe('recordFailure', () => {
  it('records a final failure with the API\'s code, and only logs one BullMQ will retry', async () => {
    const ctx = await context('report.html');
    ctx.countRequests();
    const refused = new BadRequestError({ status: 400, apiCode: 'BAD_REQUEST', apiMessage: 'Invalid multipart form-data request.', retryable: false });
    expect(await recordFailure(ctx, refused, deps())).toBe(false);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'failed', requests: 1, error: { status: 400, code: 'BAD_REQUEST', message: 'Invalid multipart form-data request.' } })]);
    expect(await steps.control.stats()).toMatchObject({ failed: 1 });

    const unavailable = new ServerError({ status: 503, apiMessage: 'Service Unavailable', retryable: true });
    const retried = await context('copy.html', {}, 3);
    expect(await recordFailure(retried, unavailable, deps())).toBe(true);
    expect(outcomes).toHaveLength(1);
    expect((await logs.line('BullMQ will retry')).file).toBe('copy.html');
  });

  it('counts, logs and tells a final failure with its own cause even when its manifest line cannot be written', async () => {
    // The manifest's path taken by a folder: every append fails, as on a full disk.
    await mkdir(join(out, '_docmill', 'manifest.jsonl'), { recursive: true });
    const ctx = await context('report.html');
    const full = new StoreWriteError('report.html.md', Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    expect(await recordFailure(ctx, full, deps())).toBe(false);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'failed', error: { code: 'STORE_WRITE_FAILED', message: expect.stringContaining('no space left') as unknown } })]);
    expect(await steps.control.stats()).toMatchObject({ failed: 1 });
    expect((await logs.line('document failed')).message).toContain('no space left');
    expect((await logs.line('the failure could not be written to the manifest')).file).toBe('report.html');
  });
});
