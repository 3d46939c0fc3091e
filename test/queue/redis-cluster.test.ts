/**
 * docmill on a real Redis Cluster (three masters on local ports, a password on every node), given only the URL of
 * one node: enqueue, two workers, `status`, `failed --retry`, `resume` and the credit budget from the built CLI,
 * with the master that holds the queue restarted mid-run. Every key lands in the slot of the `{docmill}` hash tag.
 */
import { Queue } from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueue } from '../../src/app/enqueue.js';
import { queueStatus } from '../../src/app/queue-admin.js';
import { QueueDiscovery } from '../../src/queue/queue-discovery.js';
import { QUEUE_PREFIX } from '../../src/queue/queue-names.js';
import { connectChecked, type RedisClient } from '../../src/queue/redis-connection.js';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { docmillEnv, runDocmill, SHARED_REDIS_URL, startDocmill, waitFor, type DocmillProcess } from '../helpers/docmill-cli.js';
import type { FaultParseServer } from '../helpers/fault-parse-server.js';
import {
  makeTestCertificates,
  redisClusterUnavailable,
  redisTlsUnavailable,
  startRedisCluster,
  type RedisClusterHandle,
  type TestCertificates,
} from '../helpers/redis-cluster.js';
import { baseName, lastLineByPath, manyFiles, readManifest, writeTree } from '../pipeline/pipeline-fixtures.js';

const PASSWORD = 'cluster-secret-4f9a';
const unavailable = redisClusterUnavailable();
if (unavailable) console.warn(`Redis Cluster tests skipped: ${unavailable}`);
const tlsUnavailable = redisTlsUnavailable();
if (tlsUnavailable && !unavailable) console.warn(`Redis TLS tests skipped: ${tlsUnavailable}`);

interface StatusReport {
  paused: false | { kind: string; message: string };
  counts: Record<string, number>;
  budget: { maxCredits: number; used: number; reserved: number } | null;
}

describe.skipIf(unavailable !== undefined)('docmill on a Redis Cluster', () => {
  let cluster: RedisClusterHandle;
  const workspace = useCliWorkspace({ faultServer: { latencyMs: 150 }, outExists: true });
  let server: FaultParseServer;
  let home: string;
  let src: string;
  let out: string;
  /** The URL docmill is given: a node that does not serve the queue's slot, so every command must follow the cluster. */
  let url: string;
  let holder: number;

  beforeAll(async () => {
    cluster = await startRedisCluster({ password: PASSWORD });
    holder = await cluster.portServing('{docmill}');
    url = cluster.urlOf(cluster.ports.find((port) => port !== holder)!);
  }, 40_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  beforeEach(() => {
    ({ server, home, src, out } = workspace);
  });

  const env = () => docmillEnv({ home, apiUrl: server.url, redisUrl: url });
  const status = async (queue: string): Promise<StatusReport> => {
    const result = await runDocmill(['status', '--queue', queue, '--json'], env());
    if (result.code !== 0) throw new Error(result.stderr);
    return JSON.parse(result.stdout) as StatusReport;
  };

  /** Keys held by each master: a queue's keys must all sit on the one that serves `{docmill}`. */
  async function keysPerMaster(): Promise<Map<number, number>> {
    const client = await connectChecked({ url });
    try {
      const counts = new Map<number, number>();
      for (const node of (client as Cluster).nodes('master')) counts.set(Number(node.options.port), await node.dbsize());
      return counts;
    } finally {
      client.disconnect();
    }
  }

  it('finds cluster mode from one node URL, and a standalone Redis stays a plain connection', async () => {
    let client: RedisClient = await connectChecked({ url });
    const discovery = new QueueDiscovery(client);
    try {
      expect(client).toBeInstanceOf(Cluster);
      expect((client as Cluster).nodes('master')).toHaveLength(3);
      // The dashboard's listing of every queue scans the cluster's masters, not one node.
      const queue = new Queue('cluster-listed', { connection: client, prefix: QUEUE_PREFIX });
      await queue.waitUntilReady();
      await queue.add('document', {});
      expect((await discovery.queues()).map((listed) => listed.name)).toContain('cluster-listed');
      await queue.obliterate({ force: true });
      await queue.close();
    } finally {
      await discovery.close();
      client.disconnect();
    }
    // An ACL user that may not run INFO: cluster mode is found through CLUSTER INFO instead.
    for (const port of cluster.ports) {
      const node = new Redis({ port, host: '127.0.0.1', password: PASSWORD, lazyConnect: true });
      await node.connect();
      await node.call('ACL', 'SETUSER', 'no-info', 'on', '>no-info-pass', '~*', '&*', '+@all', '-info');
      node.disconnect();
    }
    client = await connectChecked({ url: url.replace(`:${encodeURIComponent(PASSWORD)}@`, 'no-info:no-info-pass@') });
    try {
      expect(client).toBeInstanceOf(Cluster);
      await expect(client.info()).rejects.toThrow(/NOPERM/);
    } finally {
      client.disconnect();
    }
    await expect(connectChecked({ url: `${url}/2` })).rejects.toMatchObject({
      code: 'REDIS_UNAVAILABLE',
      message: expect.stringContaining('a cluster has only database 0') as unknown,
    });
    client = await connectChecked({ url: SHARED_REDIS_URL });
    try {
      expect(client).not.toBeInstanceOf(Cluster);
    } finally {
      client.disconnect();
    }
  });

  it('two workers drain a queue through a restart of the master that holds it: nothing lost, nothing parsed twice', async () => {
    const queue = 'cluster-fleet';
    const files = manyFiles(40);
    await writeTree(src, files);
    const bad = files[7]!;
    server.updateMode({ faults: [{ filename: baseName(bad.path), times: 1, reply: { status: 400, json: { success: false, error: 'unreadable' } } }] });

    const enqueued = await runDocmill(['enqueue', src, '--queue', queue], env());
    expect(enqueued.code, enqueued.stderr).toBe(0);
    expect(enqueued.stderr).toContain('queued 40 documents');

    const args = ['worker', '--out', out, '--queue', queue, '--concurrency', '2'];
    const workers: DocmillProcess[] = [startDocmill(args, env()), startDocmill(args, env())];
    await waitFor('both workers to start', () => workers.every((worker) => worker.stderr.includes('worker started')), { timeoutMs: 20_000 });
    await waitFor('ten documents parsed', () => server.successes >= 10, { timeoutMs: 30_000, intervalMs: 50 });

    await cluster.restartNode(holder);
    expect(server.successes, 'the restart should land mid-run').toBeLessThan(39);

    await waitFor('a manifest line for every file', async () => lastLineByPath(await readManifest(out)).size === files.length, {
      timeoutMs: 40_000,
      intervalMs: 200,
    });
    const byPath = lastLineByPath(await readManifest(out));
    for (const file of files) expect(byPath.get(file.path)?.status, file.path).toBe(file === bad ? 'failed' : 'converted');
    for (const file of files) expect(server.requestsFor(baseName(file.path)), baseName(file.path)).toHaveLength(1);
    const drained = await waitFor('status to show the queue drained', async () => {
      const report = await status(queue);
      return report.counts.active === 0 ? report : undefined;
    });
    expect(drained.counts).toMatchObject({ waiting: 0, active: 0, failed: 1 });

    const retried = await runDocmill(['failed', '--queue', queue, '--out', out, '--retry'], env());
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toContain(bad.path);
    expect(retried.stderr).toContain('1 failed documents are back in queue cluster-fleet');
    await waitFor('the retried document converted', async () => lastLineByPath(await readManifest(out)).get(bad.path)?.status === 'converted', {
      timeoutMs: 20_000,
      intervalMs: 200,
    });
    expect(server.requestsFor(baseName(bad.path))).toHaveLength(2);

    for (const worker of workers) worker.kill('SIGTERM');
    for (const worker of workers) expect((await worker.exited).code, worker.stderr.slice(-2000)).toBe(0);
    for (const worker of workers) expect(worker.stderr).not.toContain(PASSWORD);

    const perMaster = await keysPerMaster();
    expect([...perMaster.entries()].filter(([, keys]) => keys > 0).map(([port]) => port)).toEqual([holder]);
  }, 90_000);

  it('pauses the queue at the credit budget; status shows it; resume --max-credits lets the worker finish', async () => {
    const queue = 'cluster-budget';
    const files = manyFiles(5, 'budget');
    await writeTree(src, files);
    // Queued in process (the CLI's enqueue is run above): the same library call, without starting another process.
    await enqueue({ source: src, redisUrl: url, queue }).done;

    const worker = startDocmill(['worker', '--queue', queue, '--out', out, '--concurrency', '1', '--max-credits', '3'], env());
    await waitFor('the worker to stop at the budget', () => worker.stderr.includes('credit budget reached'), { timeoutMs: 30_000, intervalMs: 100 });
    const stopped = await waitFor('status to show the pause with nothing active', async () => {
      const report = await status(queue);
      return report.paused && report.counts.active === 0 ? report : undefined;
    });
    expect(stopped.paused).toMatchObject({ kind: 'budget' });
    expect(stopped.budget).toEqual({ maxCredits: 3, used: 3, reserved: 0 });
    expect(stopped.counts.waiting).toBe(2);

    const resumed = await runDocmill(['resume', '--queue', queue, '--max-credits', '10'], env());
    expect(resumed.code, resumed.stderr).toBe(0);
    await waitFor('every document converted', async () => {
      const byPath = lastLineByPath(await readManifest(out));
      return files.every((file) => byPath.get(file.path)?.status === 'converted');
    }, { timeoutMs: 20_000, intervalMs: 200 });
    // The library call behind `status`, in process (the CLI's status is run above).
    expect((await queueStatus({ redisUrl: url, queue })).report.budget).toEqual({ maxCredits: 10, used: 5, reserved: 0 });
    expect(server.requests).toHaveLength(5);
    worker.kill('SIGTERM');
    expect((await worker.exited).code, worker.stderr.slice(-2000)).toBe(0);
  }, 60_000);
});

describe.skipIf(tlsUnavailable !== undefined)('rediss:// with a password', () => {
  const workspace = useCliWorkspace({ faultServer: { latencyMs: 20 }, lifetime: 'suite' });
  let certificates: TestCertificates;

  beforeAll(async () => {
    certificates = await makeTestCertificates(await workspace.tempDir());
  });

  it.each([
    ['a Redis Cluster', true],
    ['a standalone Redis', false],
  ])('a run converts every document through %s over TLS', async (_kind, clusterEnabled) => {
    const redis = await startRedisCluster({ password: PASSWORD, tls: certificates, clusterEnabled, masters: clusterEnabled ? 3 : 1 });
    try {
      const src = await workspace.tempDir();
      const out = join(await workspace.tempDir(), 'out');
      const files = manyFiles(3, clusterEnabled ? 'cluster' : 'standalone');
      await writeTree(src, files);
      const env = docmillEnv({
        home: workspace.home,
        apiUrl: workspace.server.url,
        redisUrl: redis.urlOf(redis.ports[0]!),
        // The test CA, trusted the way an operator trusts a private one.
        extra: { NODE_EXTRA_CA_CERTS: certificates.caFile },
      });
      const result = await runDocmill(['run', src, '--out', out, '--queue', 'tls'], env);
      expect(result.code, result.stderr.slice(-2000)).toBe(0);
      expect(result.stderr).not.toContain(PASSWORD);
      const byPath = lastLineByPath(await readManifest(out));
      for (const file of files) expect(byPath.get(file.path)?.status, file.path).toBe('converted');
    } finally {
      await redis.stop();
    }
  }, 40_000);
});
