/**
 * One start of one job, as every step of the pipeline sees it: the job, its lock token and abort signal, its data as
 * this start began, when it began, what it is parsed with, and the parse requests made for it so far (those of earlier
 * starts included, as the job's data carries them across deferrals and pauses). Steps take this one object instead of
 * a list of arguments; the request count lives here and nowhere else, as do the time the document has cost across
 * starts and the time of its last request (what the manifest records: docs/cli.md, "The manifest").
 */
import type { Job } from 'bullmq';
import type { ProcessingSettings } from '../common/processing-settings.js';
import type { ParseOptions } from '../contract/options.js';
import { parseJobDataSchema, RANGE_JOB_NAME, type ParseJobData } from '../queue/job-data.js';
import type { RemovalMark } from '../queue/removal-marks.js';

/**
 * What the steps use of a BullMQ job: a document's own job, or one document of a group job (./group-member.ts),
 * which answers the same calls for that document alone.
 */
export type PipelineJob = Pick<
  Job,
  | 'id'
  | 'name'
  | 'data'
  | 'opts'
  | 'timestamp'
  | 'attemptsMade'
  | 'attemptsStarted'
  | 'parent'
  | 'queueQualifiedName'
  | 'updateData'
  | 'moveToDelayed'
  | 'moveToWait'
  | 'moveToWaitingChildren'
  | 'getDependenciesCount'
  | 'getIgnoredChildrenFailures'
>;

/** What a job is parsed with. */
export interface JobOptions {
  /** The options the user asked for: they decide which outputs are written. */
  asked: ParseOptions;
  /** The options sent: the user's, plus pages and blocks when chunks are written (and per-page Markdown for a range). */
  sent: ParseOptions;
  settings: ProcessingSettings;
}

export class JobContext {
  readonly job: PipelineJob;
  /** One document of a group job: what would move the job (a deferral, a split) moves this document out instead. */
  readonly grouped: boolean;
  readonly token: string | undefined;
  readonly signal: AbortSignal | undefined;
  /** The job's data when this start began. */
  readonly data: ParseJobData;
  readonly startedAt = Date.now();
  #requests: number;
  #options: JobOptions | undefined;
  /** What earlier starts spent on the document. */
  readonly #workedBefore: number;
  #lastAttemptMs: number | undefined;
  #attemptSentAt: number | undefined;
  readonly #leaveSlot: () => void;
  /**
   * A group's document: the removal of its file seen since the group was queued (`mark`, or none), as looked up for
   * every document of the group at once when the group started (DocumentProcessor); unset, the removal check asks.
   */
  removalAtStart: { mark: RemovalMark | undefined } | undefined;

  /** `leaveSlot`: gives back the document's conversion slot (a group's document: DocumentSlots), when it holds one. */
  constructor(job: PipelineJob, token?: string, signal?: AbortSignal, grouped = false, leaveSlot: () => void = () => undefined) {
    this.job = job;
    this.grouped = grouped;
    this.#leaveSlot = leaveSlot;
    this.token = token;
    this.signal = signal;
    this.data = this.#validated(job.data);
    this.#requests = this.data.requestsMade ?? 0;
    this.#workedBefore = this.data.workedMs ?? 0;
    this.#lastAttemptMs = this.data.lastAttemptMs;
  }

  /** A page range of a long PDF (a child job), not a document. */
  get isRange(): boolean {
    return this.job.name === RANGE_JOB_NAME;
  }

  /**
   * What is left of the document only waits (for its outputs to be durable) and then records it: its conversion slot
   * goes to the next document. Once given back, it is not taken again.
   */
  leaveSlot(): void {
    this.#leaveSlot();
  }

  /** Who holds the document's credit reservation and content lock: the job. */
  get owner(): string {
    return this.job.id ?? this.data.uri;
  }

  /** Parse requests made for this document (or range) so far, by this start and the earlier ones. */
  get requests(): number {
    return this.#requests;
  }

  /** Counts requests that reached the API. */
  countRequests(count = 1): void {
    this.#requests += count;
  }

  /** What the job is parsed with; set by the load-options step, before any step that parses or writes. */
  get options(): JobOptions {
    if (!this.#options) throw new Error('the job\'s options are read before they were loaded');
    return this.#options;
  }

  useOptions(options: JobOptions): void {
    this.#options = options;
  }

  /** This start's time so far. */
  elapsedMs(): number {
    return Date.now() - this.startedAt;
  }

  /**
   * This start's time and the document's across every start of its job (waits between starts not counted), from one
   * reading of the clock: a record whose job started once holds the same figure twice.
   */
  durations(): { durationMs: number; totalDurationMs: number } {
    const durationMs = this.elapsedMs();
    return { durationMs, totalDurationMs: this.#workedBefore + durationMs };
  }

  /** A parse request is being sent now (its gate slot held). */
  attemptSent(): void {
    this.#attemptSentAt = Date.now();
  }

  /** The request sent last has its answer. */
  attemptAnswered(): void {
    if (this.#attemptSentAt === undefined) return;
    this.#lastAttemptMs = Date.now() - this.#attemptSentAt;
    this.#attemptSentAt = undefined;
  }

  /** How long the last request made for the document took, this start's or an earlier one's. */
  get lastAttemptMs(): number | undefined {
    return this.#lastAttemptMs;
  }

  /** The job's data as last saved (a split plan or a deferral's counters saved by this start since it began). */
  latestData(): ParseJobData {
    return this.#validated(this.job.data);
  }

  /** A group's document holds data its group job's schema validated already (groupJobDataSchema), and only such since. */
  #validated(data: unknown): ParseJobData {
    return this.grouped ? (data as ParseJobData) : parseJobDataSchema.parse(data);
  }

  /** Saves `fields` into the job's data in Redis. */
  async saveData(fields: Partial<ParseJobData>): Promise<void> {
    await this.job.updateData({ ...this.latestData(), ...fields });
  }

  /**
   * Saves the requests made so far and the time spent, with `fields`: the job is about to leave this start (a
   * deferral, a pause, a queue attempt that failed). Saving twice in one start saves the later figures.
   */
  async saveProgress(fields: Partial<ParseJobData> = {}): Promise<void> {
    const lastAttempt = this.#lastAttemptMs === undefined ? {} : { lastAttemptMs: this.#lastAttemptMs };
    await this.saveData({ requestsMade: this.#requests, workedMs: this.durations().totalDurationMs, ...lastAttempt, ...fields });
  }
}
