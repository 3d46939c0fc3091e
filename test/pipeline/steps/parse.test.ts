/**
 * The parse step against a real loopback API through the real client and the adaptive gate, on the shared Redis:
 * each request counted once in the job's context, what the gate learns, and what each refusal does to the job
 * (deferred after a 429 or a 503, parked with the queue paused after a 401) — never a failure.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DelayedError, Job, WaitingError } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadSource } from '../../../src/backend/upload-source.js';
import { RemoteParseApi } from '../../../src/client/remote-parse-api.js';
import { EngineStartError } from '../../../src/engine/engine-error.js';
import { LocalParseEngine } from '../../../src/engine/local-engine.js';
import { DocmillMetrics } from '../../../src/metrics/metrics.js';
import { ApiGate } from '../../../src/pipeline/api-gate.js';
import type { JobContext } from '../../../src/pipeline/job-context.js';
import { SendingState } from '../../../src/pipeline/sending.js';
import { loadOptions } from '../../../src/pipeline/steps/load-options.js';
import { parse, type ParseDeps } from '../../../src/pipeline/steps/parse.js';
import type { ParseApiError } from '../../../src/backend/errors.js';
import type { RunBlockedError } from '../../../src/errors/run-blocked.js';
import { errorReply, okReply, startRecordingServer, type Handler, type RecordingServer, type Reply } from '../../helpers/recording-server.js';
import { makeTempDir, rejectionOf, removeTempDir } from '../../helpers/temp-files.js';
import { captureLogs, delayedUntil, jobData, openStepQueue, type StepQueue } from './step-fixtures.js';

const PAGE: UploadSource = {
  fileName: 'page.html',
  size: 27,
  open: async function* () {
    yield Buffer.from('<html><h1>Sales</h1></html>');
  },
};

let steps: StepQueue;
let server: RecordingServer | undefined;
let api: RemoteParseApi | undefined;
let deps: ParseDeps;
let gate: ApiGate;
let requestsTold: number;
let refusals: (ParseApiError | RunBlockedError)[];

async function serve(handler: Handler): Promise<void> {
  server = await startRecordingServer(handler);
  api = new RemoteParseApi({ apiUrl: server.url, apiKey: 'key' });
  deps = { ...deps, backend: api };
}

beforeEach(async () => {
  steps = await openStepQueue();
  gate = new ApiGate({ max: 4, initial: 1 });
  requestsTold = 0;
  refusals = [];
  deps = {
    queue: steps.queue,
    control: steps.control,
    gate,
    backend: undefined as never,
    metrics: new DocmillMetrics(),
    logger: captureLogs().logger,
    sending: new SendingState(),
    onRequest: () => requestsTold++,
    onSendingStopped: (error) => refusals.push(error),
  };
});

afterEach(async () => {
  await api?.close();
  await server?.close();
  api = undefined;
  server = undefined;
  await steps.close();
});

async function context(path = 'page.html'): Promise<JobContext> {
  const ctx = await steps.context(jobData(path));
  ctx.useOptions(await loadOptions(ctx, steps.control));
  return ctx;
}

async function stored(ctx: JobContext): Promise<Job> {
  const job = await Job.fromId(steps.queue, ctx.job.id ?? '');
  if (!job) throw new Error('the job is gone');
  return job;
}

describe('parse', () => {
  it('counts a success once, tells the run, and lets the gate grow', async () => {
    await serve(() => okReply());
    const ctx = await context();
    const result = await parse(ctx, PAGE, deps);
    expect(result.data.markdown).toBe('# ok');
    expect(ctx.requests).toBe(1);
    expect(requestsTold).toBe(1);
    expect(gate.snapshot()).toEqual({ limit: 2, inFlight: 0, waiting: 0 });
  });

  it('defers the document after a concurrency 429 for its Retry-After, counting the request and the throttle', async () => {
    await serve(() => errorReply(429, { error: 'Concurrency limit reached', headers: { 'retry-after': '30' } }));
    const ctx = await context();
    const before = Date.now();
    expect(await rejectionOf(parse(ctx, PAGE, deps))).toBeInstanceOf(DelayedError);
    const after = Date.now();
    const job = await stored(ctx);
    expect(await job.getState()).toBe('delayed');
    // Due 30 s after the refusal, as its Retry-After says, plus under 250 ms of jitter (throttleWaitMs).
    const due = await delayedUntil(steps, job.id);
    expect(due).toBeGreaterThanOrEqual(before + 30_000);
    expect(due).toBeLessThan(after + 30_000 + 250);
    expect(job.data).toMatchObject({ requestsMade: 1, throttles: 1 });
    expect(gate.snapshot()).toMatchObject({ inFlight: 0 });
  });

  it('defers the document after a 503 for the contract backoff, without failing it', async () => {
    await serve(() => errorReply(503));
    const ctx = await context();
    expect(await rejectionOf(parse(ctx, PAGE, deps))).toBeInstanceOf(DelayedError);
    const job = await stored(ctx);
    expect(job.data).toMatchObject({ requestsMade: 1, failures: 1 });
    expect(job.attemptsMade).toBe(0);
  });

  it('after a 401 pauses the queue and parks the document; the next document sends nothing', async () => {
    await serve(() => errorReply(401, { error: 'Unauthorized: Invalid token' }));
    // Both taken before the refusal pauses the queue (as jobs a worker already holds are).
    const [first, second] = [await context('a.html'), await context('b.html')];
    expect(await rejectionOf(parse(first, PAGE, deps))).toBeInstanceOf(WaitingError);
    expect(await (await stored(first)).getState()).toBe('waiting');
    expect((await steps.control.pauseReason())?.kind).toBe('auth');
    expect(refusals.map((error) => (error as ParseApiError).status)).toEqual([401]);

    expect(await rejectionOf(parse(second, PAGE, deps))).toBeInstanceOf(WaitingError);
    expect(server?.arrivals).toBe(1);
    expect(second.requests).toBe(0);
    expect(requestsTold).toBe(1);
  });

  it('when the local engine cannot start its threads, parks the document unfailed, stops sending, and names the cause', async () => {
    // Every thread fails to load, as one of an installation missing a package does.
    const dir = await makeTempDir();
    const threadModule = join(dir, 'broken-thread.mjs');
    await writeFile(threadModule, "throw new Error(\"Cannot find module 'pdfjs-dist'\");\n");
    const engine = new LocalParseEngine({ size: 1, threadModule });
    try {
      deps = { ...deps, backend: engine };
      const [first, second] = [await context('a.html'), await context('b.html')];
      expect(await rejectionOf(parse(first, PAGE, deps))).toBeInstanceOf(WaitingError);
      const job = await stored(first);
      expect(await job.getState()).toBe('waiting');
      expect(job.attemptsMade).toBe(0);
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toBeInstanceOf(EngineStartError);
      expect(refusals[0]?.code).toBe('ENGINE_START_FAILED');
      expect(refusals[0]?.message).toBe("the local engine could not start its parser threads: Cannot find module 'pdfjs-dist'");
      // The queue is not paused: another host's workers may be sound.
      expect(await steps.control.pauseReason()).toBeUndefined();
      expect(await rejectionOf(parse(second, PAGE, deps))).toBeInstanceOf(WaitingError);
      expect(engine.pool.threadsStarted).toBe(2);
    } finally {
      await engine.close();
      await removeTempDir(dir);
    }
  });

  it('does not count a request the client refused to send once the key was refused', async () => {
    // Two documents, a gate of one: the second waits for the slot while the first is refused.
    const answers: ((reply: Reply) => void)[] = [];
    let arrived: (() => void) | undefined;
    const first = new Promise<void>((resolve) => (arrived = resolve));
    await serve(() => {
      arrived?.();
      return new Promise<Reply>((resolve) => answers.push(resolve));
    });
    const [a, b] = [await context('a.html'), await context('b.html')];
    const sending = [rejectionOf(parse(a, PAGE, deps)), rejectionOf(parse(b, PAGE, deps))];
    await first;
    answers[0]?.(errorReply(401));
    const errors = await Promise.all(sending);

    expect(errors.every((error) => error instanceof WaitingError)).toBe(true);
    expect(server?.arrivals).toBe(1);
    expect([a.requests, b.requests].sort()).toEqual([0, 1]);
    expect(requestsTold).toBe(1);
    expect(gate.snapshot()).toMatchObject({ inFlight: 0, waiting: 0 });
  });
});
