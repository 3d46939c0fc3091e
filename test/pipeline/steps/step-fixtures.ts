/**
 * What the step tests share: a queue of their own on the shared Redis with its QueueControl, jobs taken the way a
 * worker takes them (active, locked, with a token), a store in a temporary folder, and a logger whose lines the test
 * can read.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { Queue, Worker, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import { JobContext } from '../../../src/pipeline/job-context.js';
import { parseOptionsSchema } from '../../../src/contract/options.js';
import { jobDataFor, JOB_NAME, type ParseJobData } from '../../../src/queue/job-data.js';
import { QueueControl } from '../../../src/queue/queue-control.js';
import { QUEUE_PREFIX } from '../../../src/queue/queue-names.js';
import { deleteQueueKeys, SHARED_REDIS_URL, uniqueQueueName } from '../../helpers/docmill-cli.js';

export const FINGERPRINT = '5e0f5e0f5e0f5e0f';

/** A job's data for `relativePath` under the source folder `root` (as the producer writes it). */
export function jobData(relativePath: string, fields: Partial<ParseJobData> = {}, root = '/src'): ParseJobData {
  const file = { uri: pathToFileURL(join(root, relativePath)).href, relativePath, size: 100, changeToken: 'mtime-1:100' };
  return { ...jobDataFor(root, file, FINGERPRINT), ...fields };
}

export interface StepQueue {
  name: string;
  redis: Redis;
  queue: Queue;
  control: QueueControl;
  /** Adds a job and takes it as a worker would: active, locked by `token`. */
  take(data: ParseJobData, name?: string, opts?: JobsOptions): Promise<{ job: Job; token: string }>;
  /** A context for a job taken with `take`. */
  context(data: ParseJobData, name?: string, opts?: JobsOptions): Promise<JobContext>;
  close(): Promise<void>;
}

export async function openStepQueue(): Promise<StepQueue> {
  const name = uniqueQueueName();
  const redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection: redis, prefix: QUEUE_PREFIX });
  const control = new QueueControl(redis, queue);
  await control.saveOptions(FINGERPRINT, parseOptionsSchema.parse({}));
  const worker = new Worker(name, null, { connection: redis, prefix: QUEUE_PREFIX, autorun: false });
  const take = async (data: ParseJobData, jobName = JOB_NAME, opts: JobsOptions = {}) => {
    await queue.add(jobName, data, { jobId: randomUUID(), ...opts });
    const token = randomUUID();
    const job = (await worker.getNextJob(token, { block: false })) as Job | undefined;
    if (!job) throw new Error('no job to take');
    return { job, token };
  };
  return {
    name,
    redis,
    queue,
    control,
    take,
    context: async (data, jobName, opts) => {
      const { job, token } = await take(data, jobName, opts);
      return new JobContext(job, token);
    },
    close: async () => {
      await worker.close(true);
      await queue.close();
      redis.disconnect();
      await deleteQueueKeys(name);
    },
  };
}

/**
 * When BullMQ will run a delayed job: its score in the queue's delayed set, the time in ms × 4096 plus an order counter
 * (BullMQ's getDelayedScore). The job's own `timestamp + delay` is not that time: `timestamp` is when the job was added
 * and `delay` is counted from when it was deferred, so their sum falls short by the time the job spent before that.
 */
export async function delayedUntil(steps: StepQueue, jobId: string | undefined): Promise<number | undefined> {
  const score = await steps.redis.zscore(steps.queue.keys.delayed!, jobId ?? '');
  return score === null ? undefined : Math.floor(Number(score) / 0x1000);
}

/** A logger whose lines are kept as parsed objects, and can be waited for. */
export interface CapturedLogger {
  logger: Logger;
  lines: { level: number; msg: string; [field: string]: unknown }[];
  /** Resolves with the first line whose message contains `text` (already logged, or when it is). */
  line(text: string): Promise<{ level: number; msg: string; [field: string]: unknown }>;
}

export function captureLogs(): CapturedLogger {
  const lines: CapturedLogger['lines'] = [];
  const watchers: { text: string; resolve: (line: CapturedLogger['lines'][number]) => void }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = JSON.parse(chunk.toString('utf8')) as CapturedLogger['lines'][number];
      lines.push(line);
      for (const watcher of watchers.filter((candidate) => line.msg.includes(candidate.text))) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve(line);
      }
      done();
    },
  });
  return {
    logger: pino({ level: 'debug' }, sink),
    lines,
    line: (text) => {
      const found = lines.find((line) => line.msg.includes(text));
      return found ? Promise.resolve(found) : new Promise((resolve) => watchers.push({ text, resolve }));
    },
  };
}
