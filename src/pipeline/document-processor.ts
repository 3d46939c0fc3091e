/**
 * The work of one job: decide whether the document is already done, otherwise parse it through the API gate and
 * write its outputs. Throttling, exhausted credits and rejected keys never cost the document an attempt and never
 * fail it; only errors about the document itself do.
 */
import { DelayedError, RateLimitError, UnrecoverableError, WaitingChildrenError, WaitingError, type Job, type Queue } from 'bullmq';
import type { Logger } from 'pino';
import {
  CreditsExhaustedError,
  ForbiddenError,
  ParseAbortedError,
  ParseApiError,
  RateLimitedError,
  UnauthorizedError,
  isRetryCandidate,
  type RetryCandidate,
} from '../backend/errors.js';
import type { AttemptOutcome, ParseBackend, ParseResult } from '../backend/parse-backend.js';
import { backoffMs, DEFAULT_RETRY_SETTINGS, retryDelayMs } from '../client/retry-policy.js';
import type { UploadSource } from '../backend/upload-source.js';
import type { ProcessingSettings } from '../common/processing-settings.js';
import type { ParseOptions } from '../contract/options.js';
import { extensionOf } from '../contract/extensions.js';
import { MAX_FILE_BYTES } from '../contract/limits.js';
import { DocmillError } from '../errors/docmill-error.js';
import type { DocmillMetrics } from '../metrics/metrics.js';
import { parseJobDataSchema, RANGE_JOB_NAME, type ParseJobData } from '../queue/job-data.js';
import type { QueueControl } from '../queue/queue-control.js';
import type { Source, SourceFile } from '../sources/source.js';
import { outputFiles } from '../store/layout.js';
import type { DocumentOutputs, DocumentState, ManifestEntry, OutputStore } from '../store/output-store.js';
import type { GateTicket, ParseGate } from './api-gate.js';
import { costOfUpload } from './document-cost.js';
import { LongPdfs, RangeBytesMissing, rangeOptions, type SplitPlan } from './long-pdf.js';
import { materialise, type MaterialisedFile } from './materialise.js';
import type { DocumentOutcome } from './outcome.js';
import { documentOutputs, parseOptionsFor } from './chunk-outputs.js';

/** 429s in a row at a limit of 1 before the whole queue is paused for the Retry-After. */
const THROTTLES_AT_FLOOR_BEFORE_QUEUE_PAUSE = 3;

export interface ProcessorDeps {
  queue: Queue;
  control: QueueControl;
  store: OutputStore;
  backend: ParseBackend;
  gate: ParseGate;
  sourceFor: (location: string) => Source;
  logger: Logger;
  metrics?: DocmillMetrics | undefined;
  /** Told of every finished document (the run's progress display). */
  onOutcome?: (outcome: DocumentOutcome) => void;
  /** Told when the API rejects the key (401/403): the caller stops its workers. */
  onAuthFailure?: (error: ParseApiError) => void;
  /** Told when the queue is paused for exhausted credits. */
  onPaused?: (error: ParseApiError) => void;
  /** Told of every parse request made (retries included): the run's count of what the API received. */
  onRequest?: () => void;
  /** The content lock's time to live (renewed while held); a crashed holder's lock frees after this. @default 30000 */
  contentLockMs?: number;
  /** A PDF with more pages is parsed in page ranges of at most this many (as is one over 50 MiB). @default timeout / 500 ms */
  splitPages?: number | undefined;
}

/** The value a finished job stores in BullMQ (small). */
export interface ParseJobResult {
  status: 'converted' | 'skipped';
  outputs: number;
  numPages?: number | undefined;
}

/** An attempt not sent because sending has stopped (the key was refused, the queue is paused). */
class SendingStopped extends Error {}

export class DocumentProcessor {
  #throttlesAtFloor = 0;
  /** The API refused the key: no request goes out with it again from this process. */
  #keyRefused: ParseApiError | undefined;

  readonly #longPdfs: LongPdfs;

  constructor(private readonly deps: ProcessorDeps) {
    this.#longPdfs = new LongPdfs({ queue: deps.queue, store: deps.store, logger: deps.logger, splitPages: deps.splitPages });
  }

  /** The BullMQ processor function. */
  readonly process = async (job: Job, token?: string, signal?: AbortSignal): Promise<ParseJobResult> => {
    if (job.name === RANGE_JOB_NAME) return this.#processRange(job, token, signal);
    const started = Date.now();
    const data = parseJobDataSchema.parse(job.data);
    const requests = { count: data.requestsMade ?? 0 };
    try {
      return await this.#processDocument(job, token, data, requests, started, signal);
    } catch (error) {
      if (error instanceof WaitingError || error instanceof RateLimitError || error instanceof DelayedError) throw error;
      if (error instanceof ParseAbortedError || error instanceof WaitingChildrenError) throw error;
      const retryable = await this.#recordFailure(job, data, error, requests.count, started);
      if (retryable || error instanceof UnrecoverableError) throw error;
      // A document that cannot succeed (bad request, corrupt, too large...) must not spend further attempts.
      throw new UnrecoverableError(describeFailure(error).message);
    }
  };

  async #processDocument(
    job: Job,
    token: string | undefined,
    data: ParseJobData,
    requests: { count: number },
    started: number,
    signal?: AbortSignal,
  ): Promise<ParseJobResult> {
    const { store, control } = this.deps;
    const settings = await control.loadSettings(data.optionsFingerprint);
    const asked = await control.loadOptions(data.optionsFingerprint);
    const options = parseOptionsFor(asked, settings);
    if (!data.force) {
      const state = await store.readState(data.relativePath);
      if (state && state.changeToken === data.changeToken && state.optionsFingerprint === data.optionsFingerprint) {
        if (wroteStateBefore(job, state)) {
          // This very job converted the document, then its process died before the manifest line: record it now,
          // with its pages and credits, instead of as an unchanged skip.
          const recovered = state.origin === 'copied';
          const requestsMade = requests.count + (state.requests ?? 0);
          return this.#finish(data, state, recovered ? 'skipped' : 'converted', recovered ? 'same content' : undefined, requestsMade, started, state.sha256);
        }
        return this.#finish(data, state, 'skipped', 'unchanged', requests.count, started, state.sha256);
      }
    }
    if (data.size > MAX_FILE_BYTES && extensionOf(data.relativePath) !== '.pdf') {
      throw new UnrecoverableError(`${data.relativePath}: ${data.size} bytes is over the parse API's 50 MiB limit`);
    }
    const file: SourceFile = { uri: data.uri, relativePath: data.relativePath, size: data.size, changeToken: data.changeToken };
    const local = await materialise(this.deps.sourceFor(data.source), file, signal);
    this.deps.metrics?.bytesRead.inc(local.size);
    try {
      if (!data.force) {
        const done = await this.#reuseByContent(data, local.sha256, requests.count, started);
        if (done) return done;
      }
      const release = await control.lockContent(
        `${local.sha256}:${data.optionsFingerprint}`,
        job.id ?? data.uri,
        this.deps.contentLockMs ?? 30_000,
        signal,
      );
      try {
        if (!data.force) {
          // Another job with the same content may have finished while we waited for the lock.
          const done = await this.#reuseByContent(data, local.sha256, requests.count, started);
          if (done) return done;
        }
        const result = await this.#withinBudget(job, token, data, local.upload, options, requests, () => this.#parseWholeOrInRanges(job, token, data, local, options, settings, requests, signal));
        const split = documentOutputs(result.data, asked, settings, { path: data.relativePath, sha256: local.sha256 });
        const outputs = await store.writeDocument(data.relativePath, split);
        this.deps.metrics?.bytesWritten.inc(outputBytes(data.relativePath, split));
        const metadata = result.data.metadata;
        const state: DocumentState = {
          relativePath: data.relativePath,
          source: data.uri,
          changeToken: data.changeToken,
          sha256: local.sha256,
          optionsFingerprint: data.optionsFingerprint,
          outputs,
          numPages: metadata?.numPages,
          totalPages: metadata?.totalPages,
          creditsUsed: metadata?.creditsUsed,
          convertedAt: new Date().toISOString(),
          origin: 'parsed',
          requests: requests.count,
        };
        await store.writeState(state);
        await this.#cleanUpRanges(job, data);
        return this.#finish(data, state, 'converted', undefined, requests.count, started, local.sha256);
      } finally {
        await release();
      }
    } finally {
      await local.dispose();
    }
  }

  /**
   * A PDF too large for one request, or too long for one request's timeout, goes in page ranges (src/pipeline/long-pdf.ts):
   * this job cuts them, waits for a child job per range, and is processed again to merge them. Anything else is one
   * request.
   */
  async #parseWholeOrInRanges(
    job: Job,
    token: string | undefined,
    data: ParseJobData,
    local: MaterialisedFile,
    options: ParseOptions,
    settings: ProcessingSettings,
    requests: { count: number },
    signal?: AbortSignal,
  ): Promise<ParseResult> {
    const started = Date.now();
    let plan = data.split ?? (await this.#planRanges(job, local, options, Boolean(data.force)));
    if (!plan) return this.#parse(job, token, local.upload, options, settings, requests, signal);
    let merged;
    try {
      merged = await this.#longPdfs.advance(job, token, parseJobDataSchema.parse(job.data), plan, options);
    } catch (error) {
      if (!(error instanceof RangeBytesMissing)) throw error;
      // Range bytes gone from the store (cleaned by hand): cut again, and add the children afresh.
      plan = await this.#planRanges(job, local, options, false, plan.generation + 1);
      if (!plan) return this.#parse(job, token, local.upload, options, settings, requests, signal);
      merged = await this.#longPdfs.advance(job, token, parseJobDataSchema.parse(job.data), plan, options);
    }
    requests.count += merged.requests;
    return { data: merged.data, attempts: merged.requests, durationMs: Date.now() - started };
  }

  async #planRanges(job: Job, local: MaterialisedFile, options: ParseOptions, fresh: boolean, generation = 0): Promise<SplitPlan | undefined> {
    const current = parseJobDataSchema.parse(job.data);
    const planned = await this.#longPdfs.plan(current, local, options, fresh);
    if (!planned) return undefined;
    const plan = { ...planned, generation };
    await job.updateData({ ...current, split: plan });
    return plan;
  }

  /** Range bytes and checkpoints go once the merged outputs and the state are written; a failure to delete is only logged. */
  async #cleanUpRanges(job: Job, data: ParseJobData): Promise<void> {
    const plan = parseJobDataSchema.parse(job.data).split;
    if (!plan) return;
    await this.#longPdfs.cleanUp(plan, data.optionsFingerprint).catch((error: unknown) => {
      this.deps.logger.warn({ file: data.relativePath, err: error }, 'could not remove the page ranges of a merged PDF');
    });
  }

  /**
   * A child job: one page range of a long PDF, through the same gate, deferrals (429, 5xx) and queue attempts as a
   * document, checkpointed in the store. It records nothing in the manifest: its document does, once merged.
   */
  async #processRange(job: Job, token: string | undefined, signal?: AbortSignal): Promise<ParseJobResult> {
    const data = parseJobDataSchema.parse(job.data);
    const requests = { count: data.requestsMade ?? 0 };
    try {
      const settings = await this.deps.control.loadSettings(data.optionsFingerprint);
      const options = rangeOptions(parseOptionsFor(await this.deps.control.loadOptions(data.optionsFingerprint), settings));
      await this.#longPdfs.processRange(data, (upload) => this.#parse(job, token, upload, options, settings, requests, signal), requests);
      return { status: 'converted', outputs: 0 };
    } catch (error) {
      if (error instanceof WaitingError || error instanceof RateLimitError || error instanceof DelayedError) throw error;
      if (error instanceof ParseAbortedError || error instanceof UnrecoverableError) throw error;
      if (isRetryCandidate(error) && error.retryable) {
        this.deps.logger.warn({ file: data.relativePath, range: data.range, err: error, attempt: job.attemptsMade + 1 }, 'page range failed; BullMQ will retry it');
        throw error;
      }
      const failure = describeFailure(error);
      throw new UnrecoverableError(`${failure.code}: ${failure.message}`);
    }
  }

  /** Same content, same options, already converted (under this path or another): copy, do not parse. */
  async #reuseByContent(data: ParseJobData, sha256: string, requests: number, started: number) {
    const { store } = this.deps;
    const twin = await store.findByContent(sha256, data.optionsFingerprint);
    if (!twin) return undefined;
    let outputs = twin.outputs;
    if (twin.relativePath !== data.relativePath) {
      try {
        outputs = await store.copyDocument(twin, data.relativePath);
      } catch (error) {
        // The twin's outputs were deleted since: parse this one afresh.
        if (error instanceof DocmillError && error.code === 'STORE_OUTPUT_MISSING') return undefined;
        throw error;
      }
    }
    const state: DocumentState = {
      ...twin,
      relativePath: data.relativePath,
      source: data.uri,
      changeToken: data.changeToken,
      outputs,
      convertedAt: new Date().toISOString(),
      origin: 'copied',
    };
    await store.writeState(state);
    const reason = twin.relativePath === data.relativePath ? 'same content' : `same content as ${twin.relativePath}`;
    return this.#finish(data, state, 'skipped', reason, requests, started, sha256);
  }

  /**
   * One attempt of a parse, through the gate: a slot is held only while the request is out. No error is retried in
   * place: after a 429 the document moves to BullMQ's delayed set until its Retry-After has passed, after a 408, 5xx
   * or network error until the contract's backoff has, so no worker sends it earlier and neither a gate slot nor a
   * job slot waits for it (a job sleeping through a 16 s backoff kept a document that was ready from starting:
   * measured, twice the time of a client that frees its slot in a storm of failing answers, bench/fault-storm.ts).
   * Only a concurrency 429 teaches the gate; 5xx, 408 and network errors say nothing about the API's capacity, and a
   * per-minute 429 paces the whole queue instead.
   */
  async #parse(
    job: Job,
    token: string | undefined,
    upload: UploadSource,
    options: ParseOptions,
    settings: ProcessingSettings,
    requests: { count: number },
    signal?: AbortSignal,
  ): Promise<ParseResult> {
    const { gate, backend, metrics } = this.deps;
    let ticket: GateTicket | undefined;
    const settle = (outcome: AttemptOutcome) => {
      requests.count++;
      this.deps.onRequest?.();
      const held = ticket;
      ticket = undefined;
      if (outcome.ok) {
        metrics?.requests.inc({ status: 200 });
        this.#throttlesAtFloor = 0;
        if (!held) return;
        if (outcome.data.metadata?.concurrencyLimited) {
          metrics?.queuedByApi.inc();
          gate.queuedByApi(held);
        } else {
          gate.succeeded(held);
        }
      } else {
        const { error } = outcome;
        metrics?.requests.inc({ status: error instanceof ParseApiError ? error.status : 0 });
        if (!held) return;
        if (error instanceof RateLimitedError && error.kind === 'concurrency') gate.concurrencyLimited(held);
        else gate.released(held);
      }
      metrics?.apiConcurrency.set(gate.limit);
    };
    try {
      const { ocrLanguages } = settings;
      return await backend.parse(upload, options, {
        ...(signal ? { signal } : {}),
        ...(ocrLanguages ? { ocrLanguages } : {}),
        shouldRetry: () => false,
        beforeAttempt: async (attemptSignal) => {
          await this.#assertSending(job);
          ticket = await gate.acquire(attemptSignal);
        },
        afterAttempt: settle,
      });
    } catch (error) {
      if (ticket) gate.released(ticket);
      if (error instanceof SendingStopped) {
        await this.#park(job, token, requests);
        throw new WaitingError();
      }
      if (error instanceof RateLimitedError) await this.#deferForThrottle(job, token, error, requests);
      if (isRetryCandidate(error) && error.retryable) await this.#deferRetry(job, token, error, requests);
      await this.#handleStopErrors(job, token, error, requests);
      throw error;
    }
  }

  /**
   * With a credit budget on the queue (`--max-credits`): reserves the document's estimated credits before it is
   * sent and counts what it really used after (the API's creditsUsed; the estimate when the answer has none). When
   * the estimate would pass the budget nothing is sent: the queue is paused (reason `budget`) for every worker and
   * the document goes back to waiting, unfailed.
   */
  async #withinBudget(
    job: Job,
    token: string | undefined,
    data: ParseJobData,
    upload: UploadSource,
    options: ParseOptions,
    requests: { count: number },
    send: () => Promise<ParseResult>,
  ): Promise<ParseResult> {
    const { budget } = this.deps.control;
    if ((await budget.limit()) === undefined) return send();
    const { credits: estimate } = await costOfUpload(upload, options, this.deps.splitPages);
    const owner = job.id ?? data.uri;
    // A reservation outlives a long PDF's page ranges; a dead worker's is taken over when its job is taken up again.
    const reservation = await budget.reserve(owner, estimate, 24 * 3_600_000);
    if (!reservation.ok) {
      const { used, reserved, limit } = reservation.state;
      await this.deps.control.pause(
        'budget',
        `credit budget reached: ${used} credits used${reserved ? ` and ${reserved} reserved` : ''} of ${limit}; ${data.relativePath} (about ${estimate}) would pass it — raise it with \`docmill resume --max-credits N\``,
      );
      this.deps.logger.warn({ file: data.relativePath, estimate, used, reserved, limit }, 'credit budget reached: queue paused, the remaining documents wait');
      await this.#park(job, token, requests);
      throw new WaitingError();
    }
    let result: ParseResult;
    try {
      result = await send();
    } catch (error) {
      // Waiting for its page ranges, the document keeps its reservation: the ranges spend it, the merge settles it.
      if (!(error instanceof WaitingChildrenError)) await budget.release(owner).catch(() => undefined);
      throw error;
    }
    await budget.settle(owner, result.data.metadata?.creditsUsed ?? estimate);
    return result;
  }

  /** Throws SendingStopped when no request may go out: the key was refused, or the queue is paused (credits, auth). */
  async #assertSending(job: Job): Promise<void> {
    if (this.#keyRefused) throw new SendingStopped('the parse API rejected the key');
    if (await this.deps.queue.isPaused()) {
      // Paused at the credit budget, a document that reserved its credits before is inside it, and goes (so does a
      // page range of a long PDF that did): otherwise two documents racing for the last credits could stop each other.
      if ((await this.deps.control.pauseReason())?.kind === 'budget' && (await this.deps.control.budget.holds(job.id, job.parent?.id))) return;
      throw new SendingStopped('the queue is paused');
    }
  }

  /** A 429: wait its Retry-After (or the contract's backoff) in the delayed set; a per-minute one pauses every worker too. */
  async #deferForThrottle(job: Job, token: string | undefined, error: RateLimitedError, requests: { count: number }): Promise<never> {
    const { gate, metrics, queue, logger } = this.deps;
    metrics?.throttled.inc({ kind: error.kind });
    const throttles = (parseJobDataSchema.parse(job.data).throttles ?? 0) + 1;
    const waitMs = (error.retryAfterMs ?? backoffMs(Math.min(throttles, 5))) + Math.floor(Math.random() * 250);
    this.#throttlesAtFloor = gate.limit === 1 ? this.#throttlesAtFloor + 1 : 0;
    if (error.kind === 'rate' || this.#throttlesAtFloor >= THROTTLES_AT_FLOOR_BEFORE_QUEUE_PAUSE) {
      // The per-minute budget is the team's, not this worker's: every worker on the queue waits it out.
      logger.warn({ waitMs, kind: error.kind, message: error.apiMessage }, 'parse API throttling: pacing the queue for the Retry-After');
      await queue.rateLimit(waitMs);
      metrics?.rateLimitPauses.inc();
      this.#throttlesAtFloor = 0;
    } else {
      logger.debug({ waitMs, limit: gate.limit }, 'parse API concurrency limit: the document waits its Retry-After');
    }
    metrics?.retryAfterWait.inc(waitMs / 1000);
    return this.#deferUntil(job, token, Date.now() + waitMs, requests, { throttles });
  }

  /**
   * A 408, 5xx or network error: the contract's wait before the next attempt (its Retry-After, else the backoff),
   * spent in the delayed set. After the contract's attempts the count starts again and the error goes to BullMQ,
   * whose own attempts (`--attempts`) and backoff take over.
   */
  async #deferRetry(job: Job, token: string | undefined, error: RetryCandidate, requests: { count: number }): Promise<void> {
    const data = parseJobDataSchema.parse(job.data);
    const failures = (data.failures ?? 0) + 1;
    const delayMs = retryDelayMs(error, failures, { ...DEFAULT_RETRY_SETTINGS, maxWaitMs: Number.POSITIVE_INFINITY });
    if (delayMs === undefined) {
      await job.updateData({ ...data, requestsMade: requests.count, failures: 0 });
      return;
    }
    this.deps.logger.warn({ file: data.relativePath, attempt: failures, delayMs, code: error.code }, 'parse attempt failed; retrying after the backoff');
    return this.#deferUntil(job, token, Date.now() + delayMs, requests, { failures });
  }

  /** Moves the job to the delayed set until `timestamp`, keeping its request count; ends this start of the job. */
  async #deferUntil(
    job: Job,
    token: string | undefined,
    timestamp: number,
    requests: { count: number },
    extra: { throttles?: number; failures?: number },
  ): Promise<never> {
    await job.updateData({ ...parseJobDataSchema.parse(job.data), requestsMade: requests.count, ...extra });
    await job.moveToDelayed(timestamp, token);
    throw new DelayedError();
  }

  /** Back to waiting (a paused queue holds it), keeping its request count. */
  async #park(job: Job, token: string | undefined, requests: { count: number }): Promise<void> {
    await job.updateData({ ...parseJobDataSchema.parse(job.data), requestsMade: requests.count });
    await job.moveToWait(token);
  }

  /**
   * 402 pauses the queue; 401/403 pause it too and stop this process sending with the key at once (in-flight
   * documents of every worker see the pause before their next request). Either way the job goes back to waiting,
   * unfailed.
   */
  async #handleStopErrors(job: Job, token: string | undefined, error: unknown, requests: { count: number }): Promise<void> {
    if (error instanceof CreditsExhaustedError) {
      await this.deps.control.pause('credits', `${error.message} — add credits, then run \`docmill resume\``);
      this.deps.logger.error({ status: error.status, message: error.apiMessage }, 'parse API: credits exhausted; queue paused, no job failed');
      this.deps.onPaused?.(error);
      await this.#park(job, token, requests);
      throw new WaitingError();
    }
    if (error instanceof UnauthorizedError || error instanceof ForbiddenError) {
      const first = this.#keyRefused === undefined;
      this.#keyRefused ??= error;
      if (first) {
        await this.deps.control.pause('auth', `${error.message} — fix the key, then run again or \`docmill resume\``);
        this.deps.logger.error({ status: error.status, message: error.apiMessage }, 'parse API rejected the key: sending stopped, queue paused, no job failed');
      }
      this.deps.onAuthFailure?.(error);
      await this.#park(job, token, requests);
      throw new WaitingError();
    }
  }

  async #finish(
    data: ParseJobData,
    state: DocumentState,
    status: 'converted' | 'skipped',
    reason: string | undefined,
    requests: number,
    started: number,
    sha256: string,
  ): Promise<ParseJobResult> {
    const durationMs = Date.now() - started;
    const converted = status === 'converted';
    const entry: ManifestEntry = {
      path: data.relativePath,
      source: data.uri,
      sha256,
      size: data.size,
      status,
      outputs: state.outputs,
      numPages: state.numPages,
      totalPages: state.totalPages,
      creditsUsed: converted ? state.creditsUsed : 0,
      attempts: requests,
      durationMs,
      ...(reason ? { reason } : {}),
      at: new Date().toISOString(),
    };
    await this.deps.store.appendManifest(entry);
    await this.deps.control.addStats(
      {
        [status]: 1,
        pages: converted ? (state.numPages ?? 0) : 0,
        credits: converted ? (state.creditsUsed ?? 0) : 0,
      },
      1,
    );
    const { metrics } = this.deps;
    metrics?.documents.inc({ status });
    if (converted) {
      metrics?.pages.inc(state.numPages ?? 0);
      metrics?.credits.inc(state.creditsUsed ?? 0);
    }
    metrics?.duration.observe(durationMs / 1000);
    this.deps.onOutcome?.({
      status,
      relativePath: data.relativePath,
      requests,
      numPages: converted ? state.numPages : undefined,
      creditsUsed: converted ? state.creditsUsed : undefined,
      durationMs,
      reason,
      record: entry,
    });
    return { status, outputs: state.outputs.length, numPages: state.numPages };
  }

  /**
   * A failure is recorded in the manifest only when it is final: the error is not retryable, or this was the
   * job's last attempt. Errors about the document itself are made unrecoverable so BullMQ does not retry them.
   */
  async #recordFailure(job: Job, data: ParseJobData, error: unknown, requests: number, started: number): Promise<boolean> {
    const retryable = isRetryCandidate(error) && error.retryable;
    const attemptsAllowed = job.opts.attempts ?? 1;
    const final = !retryable || job.attemptsMade + 1 >= attemptsAllowed;
    if (!final) {
      this.deps.logger.warn({ file: data.relativePath, err: error, attempt: job.attemptsMade + 1 }, 'parse failed; BullMQ will retry');
      return true;
    }
    const failure = describeFailure(error);
    const durationMs = Date.now() - started;
    const record: ManifestEntry = {
      path: data.relativePath,
      source: data.uri,
      size: data.size,
      status: 'failed',
      outputs: [],
      attempts: requests,
      durationMs,
      error: failure,
      at: new Date().toISOString(),
    };
    await this.deps.store.appendManifest(record);
    await this.deps.control.addStats({ failed: 1 }, 1);
    this.deps.metrics?.documents.inc({ status: 'failed' });
    this.deps.metrics?.failures.inc({ code: failure.code });
    this.deps.logger.error({ file: data.relativePath, ...failure }, 'document failed');
    this.deps.onOutcome?.({ status: 'failed', relativePath: data.relativePath, requests, durationMs, error: failure, record });
    return retryable;
  }
}

/**
 * Whether the state was written by an earlier start of this same job (a process that died between writing a
 * document's state and its manifest line): the job was started before, and the state is newer than the job.
 */
function wroteStateBefore(job: Job, state: DocumentState): boolean {
  if ((job.attemptsStarted ?? 0) < 2) return false;
  const convertedAt = Date.parse(state.convertedAt);
  return Number.isFinite(convertedAt) && convertedAt >= job.timestamp;
}

/** Bytes of the files the store writes for these outputs (as it serialises them). */
function outputBytes(relativePath: string, outputs: DocumentOutputs): number {
  return outputFiles(relativePath, outputs).reduce((sum, file) => sum + Buffer.byteLength(file.body), 0);
}

function describeFailure(error: unknown): { status?: number; code: string; message: string } {
  // The API's own code (BAD_REQUEST, ENCRYPTED_DOCUMENT...) when it sent one; docmill's otherwise.
  if (error instanceof ParseApiError) return { status: error.status, code: error.apiCode ?? error.code, message: error.apiMessage };
  if (error instanceof DocmillError) return { code: error.code, message: error.message };
  if (error instanceof UnrecoverableError) return { code: 'DOCUMENT_REJECTED', message: error.message };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
