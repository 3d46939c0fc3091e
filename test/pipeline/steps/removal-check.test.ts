/**
 * The removal check of a parse job, on a folder store and the shared Redis: a job whose file was removed after it was
 * queued is cancelled before it reads; one that learns of a `delete` removal only after writing takes back what it
 * wrote; a `keep` removal leaves a finished conversion standing; a file found missing when read is skipped, not failed.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentOutcome } from '../../../src/pipeline/outcome.js';
import type { JobContext } from '../../../src/pipeline/job-context.js';
import { loadOptions } from '../../../src/pipeline/steps/load-options.js';
import { cancelIfMissing, cancelIfRemoved, recordCancelled, undoIfRemoved } from '../../../src/pipeline/steps/removal-check.js';
import { writeOutputs } from '../../../src/pipeline/steps/write-outputs.js';
import { createSource } from '../../../src/sources/create-source.js';
import { SourceReadError } from '../../../src/sources/errors.js';
import { FsStore } from '../../../src/store/fs-store.js';
import { makeTempDir, rejectionOf, removeTempDir } from '../../helpers/temp-files.js';
import { captureLogs, jobData, openStepQueue, type StepQueue } from './step-fixtures.js';

const HTML = '<p>Sales grew.</p>';
const SHA = createHash('sha256').update(HTML).digest('hex');

let steps: StepQueue;
let src: string;
let out: string;
let store: FsStore;
const outcomes: DocumentOutcome[] = [];

beforeEach(async () => {
  steps = await openStepQueue();
  src = await makeTempDir();
  out = await makeTempDir();
  store = new FsStore(out);
  outcomes.length = 0;
  await writeFile(join(src, 'report.html'), HTML);
});

afterEach(async () => {
  await store.close();
  await steps.close();
  await removeTempDir(src);
  await removeTempDir(out);
});

const deps = () => ({
  store,
  control: steps.control,
  logger: captureLogs().logger,
  sourceFor: (location: string) => createSource(location),
  onOutcome: (outcome: DocumentOutcome) => outcomes.push(outcome),
});

async function context(): Promise<JobContext> {
  const ctx = await steps.context(jobData('report.html', {}, src));
  ctx.useOptions(await loadOptions(ctx, steps.control));
  return ctx;
}

async function manifest(): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(out, '_docmill', 'manifest.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('before reading', () => {
  it('cancels a job whose file was removed after it was queued, and records one skipped line without reporting it', async () => {
    const ctx = await context();
    expect(await cancelIfRemoved(ctx, deps())).toBeUndefined();
    await steps.control.removals.mark(ctx.data.uri, { at: ctx.job.timestamp + 1, outputs: 'keep' });
    const cancelled = await cancelIfRemoved(ctx, deps());
    expect(cancelled).toEqual({ status: 'cancelled', reason: 'source removed before it was converted', report: false });
    expect(await recordCancelled(ctx, cancelled!, deps())).toEqual({ status: 'skipped', outputs: 0 });
    expect(await manifest()).toEqual([expect.objectContaining({ path: 'report.html', status: 'skipped', reason: 'source removed before it was converted' })]);
    // The removal itself is what the run counts: this job's cancellation is not a second outcome.
    expect(outcomes).toEqual([]);
  });

  it('takes a group document\'s removal as looked up for the whole group when it started, in one lookup', async () => {
    const ctx = await context();
    const other = 'file:///elsewhere/other.html';
    await steps.control.removals.mark(other, { at: ctx.job.timestamp + 1, outputs: 'delete' });
    const found = await steps.control.removals.removedSinceEach([ctx.data.uri, other], ctx.job.timestamp);
    expect([...found.keys()]).toEqual([other]);

    ctx.removalAtStart = { mark: found.get(ctx.data.uri) };
    // Marked after the group looked: the check after writing finds it.
    await steps.control.removals.mark(ctx.data.uri, { at: ctx.job.timestamp + 1, outputs: 'keep' });
    expect(await cancelIfRemoved(ctx, deps())).toBeUndefined();
    ctx.removalAtStart = { mark: found.get(other) };
    expect(await cancelIfRemoved(ctx, deps())).toEqual({ status: 'cancelled', reason: 'source removed before it was converted', report: false });
  });

  it('does not cancel for a removal seen before the job was queued (the file came back and was queued again)', async () => {
    const ctx = await context();
    await steps.control.removals.mark(ctx.data.uri, { at: ctx.job.timestamp - 1, outputs: 'delete' });
    expect(await cancelIfRemoved(ctx, deps())).toBeUndefined();
  });

  it('takes a file found missing when read as skipped and reported, and any other read failure as not its case', async () => {
    const missing = cancelIfMissing(new SourceReadError('report.html', 'missing', 'no such file'));
    expect(missing).toEqual({ status: 'cancelled', reason: 'source removed before it was read', report: true });
    expect(cancelIfMissing(new SourceReadError('report.html', 'io', 'permission denied'))).toBeUndefined();
    expect(cancelIfMissing(new Error('disk on fire'))).toBeUndefined();

    const ctx = await context();
    await recordCancelled(ctx, missing!, deps());
    expect(outcomes).toEqual([expect.objectContaining({ status: 'skipped', relativePath: 'report.html', reason: 'source removed before it was read' })]);
  });
});

describe('after writing', () => {
  async function written(ctx: JobContext): Promise<void> {
    await writeOutputs(ctx, SHA, { data: { markdown: 'Sales grew.', metadata: { numPages: 1, creditsUsed: 1 } }, attempts: 1, durationMs: 1 }, deps());
    expect(await readFile(join(out, 'report.html.md'), 'utf8')).toBe('Sales grew.');
  }

  it('deletes what the job wrote when the file was removed meanwhile with delete, and the removal line says why', async () => {
    const ctx = await context();
    await written(ctx);
    await steps.control.removals.mark(ctx.data.uri, { at: Date.now(), outputs: 'delete' });
    const undone = await undoIfRemoved(ctx, deps());
    expect(undone).toMatchObject({ status: 'cancelled', recorded: true, reason: 'source removed while it was converted; outputs deleted' });
    await expect(readFile(join(out, 'report.html.md'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await store.readState('report.html')).toBeUndefined();
    // recordCancelled writes no second line for it.
    await recordCancelled(ctx, undone!, deps());
    expect(await manifest()).toEqual([expect.objectContaining({ path: 'report.html', status: 'skipped', reason: undone!.reason })]);
  });

  it('keeps a finished conversion when the removal said keep', async () => {
    const ctx = await context();
    await written(ctx);
    await steps.control.removals.mark(ctx.data.uri, { at: Date.now(), outputs: 'keep' });
    expect(await undoIfRemoved(ctx, deps())).toBeUndefined();
    expect(await readFile(join(out, 'report.html.md'), 'utf8')).toBe('Sales grew.');
  });

  it('lets go of the content lock in the same check when the file was not removed, and holds it for the deletes when it was', async () => {
    const ctx = await context();
    await written(ctx);
    const taken = (owner: string, ms: number) => steps.control.lockContent(`${SHA}:fp`, owner, 30_000, AbortSignal.timeout(ms));
    const first = await taken('job-a', 5000);
    expect(await undoIfRemoved(ctx, deps(), first)).toBeUndefined();
    const second = await taken('job-b', 1000); // free at once

    await steps.control.removals.mark(ctx.data.uri, { at: Date.now(), outputs: 'delete' });
    expect(await undoIfRemoved(ctx, deps(), second)).toMatchObject({ status: 'cancelled' });
    expect(await rejectionOf(taken('job-c', 500))).toBeDefined();
    await second.release();
    await (await taken('job-c', 1000)).release();
  });
});
