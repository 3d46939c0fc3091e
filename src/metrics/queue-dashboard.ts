/**
 * The queue dashboard: bull-board's UI and API for docmill's BullMQ queues, mounted at /queues on a node:http
 * server. Read-only unless built with `write` (then its retry, clean, promote and remove buttons change the queue).
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { Queue } from 'bullmq';
import { NodeHttpBoardAdapter, type HttpMount } from './board-adapter.js';

export const DASHBOARD_PATH = '/queues';

export interface QueueDashboardOptions {
  /** The queues shown: a fixed list, or a lookup made before each API request (a board over a whole Redis). */
  queues: readonly Queue[] | (() => Promise<readonly Queue[]>);
  /** Serve the requests that change queues (retry, clean, promote, remove, pause...). @default false */
  write?: boolean | undefined;
  /** @default /queues */
  basePath?: string | undefined;
}

export type QueueDashboard = HttpMount;

export function createQueueDashboard(options: QueueDashboardOptions): QueueDashboard {
  const write = Boolean(options.write);
  const adapters = new WeakMap<Queue, BullMQAdapter>();
  const adapt = (queue: Queue): BullMQAdapter => {
    let adapter = adapters.get(queue);
    if (!adapter) {
      adapter = new BullMQAdapter(queue, { readOnlyMode: !write, allowRetries: write });
      adapter.setFormatter('name', jobTitle);
      adapters.set(queue, adapter);
    }
    return adapter;
  };
  const source = options.queues;
  let refresh: (() => Promise<void>) | undefined;
  const server = new NodeHttpBoardAdapter({
    basePath: options.basePath ?? DASHBOARD_PATH,
    write,
    beforeApi: () => refresh?.() ?? Promise.resolve(),
    // A job's data names the file a worker reads: a job added or edited by hand could make it read any file it can.
    refused: {
      routes: ['/api/queues/:queueName/add', '/api/queues/:queueName/:jobId/update-data'],
      reason: 'docmill jobs are made by listing a source (docmill enqueue): they cannot be added or edited here',
    },
  });
  const board = createBullBoard({
    queues: typeof source === 'function' ? [] : source.map(adapt),
    serverAdapter: server,
    options: { uiConfig: { boardTitle: 'docmill' } },
  });
  if (typeof source === 'function') {
    refresh = async () => board.replaceQueues((await source()).map(adapt));
  }
  return server;
}

/** docmill's jobs are named `parse` (or `parse-range`, `parse-group`): the board names them by their file, and page range. */
function jobTitle(job: { name?: unknown; data?: unknown }): string {
  const name = typeof job.name === 'string' ? job.name : '';
  const data = (job.data ?? {}) as { relativePath?: unknown; range?: { first?: unknown; last?: unknown }; documents?: unknown };
  if (Array.isArray(data.documents)) {
    // A group job: its first file, and how many more it holds.
    const first = (data.documents[0] as { data?: { relativePath?: unknown } } | undefined)?.data?.relativePath;
    return typeof first === 'string' ? `${first} (+${data.documents.length - 1} more)` : name;
  }
  if (typeof data.relativePath !== 'string') return name;
  const range = data.range && typeof data.range.first === 'number' ? ` (pages ${data.range.first}-${String(data.range.last)})` : '';
  return `${data.relativePath}${range}`;
}
