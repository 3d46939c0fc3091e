/**
 * BullMQ and ioredis, loaded with `require`. Both are CommonJS packages without an `exports` map: an ESM `import`
 * of one has Node lex every file of its re-export chain for named exports before running it (BullMQ's 34 files,
 * ioredis's 23: about 80 ms of each start). `require` runs them without that pass, and the classes are the very
 * objects an `import` gives (one module cache), so `instanceof` holds across both.
 */
import { createRequire } from 'node:module';
import type * as BullMQ from 'bullmq';
import type * as IORedis from 'ioredis';

const require = createRequire(import.meta.url);
const bullmq = require('bullmq') as typeof BullMQ;
const ioredis = require('ioredis') as typeof IORedis;

export const { Backoffs, DelayedError, MetricsTime, Queue, QueueKeys, RateLimitError, UnrecoverableError, WaitingChildrenError, WaitingError, Worker } = bullmq;
export type Queue = BullMQ.Queue;
export type Worker = BullMQ.Worker;

export const { Cluster, Redis } = ioredis;
export type Cluster = IORedis.Cluster;
export type Redis = IORedis.Redis;
