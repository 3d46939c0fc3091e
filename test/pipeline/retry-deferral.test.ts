/**
 * A document waiting out the backoff after a 503 holds no job slot: other documents are parsed meanwhile, and the
 * backoff itself is honoured. The built CLI, the shared Redis, a loopback parse server with scripted faults.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { docmillEnv, runDocmill, SHARED_REDIS_URL } from '../helpers/docmill-cli.js';
import type { FaultParseServer } from '../helpers/fault-parse-server.js';
import { baseName, lastLineByPath, manyFiles, readManifest, writeTree } from './pipeline-fixtures.js';

const workspace = useCliWorkspace({ faultServer: { latencyMs: 20 }, queue: true });
let server: FaultParseServer;
let home: string;
let src: string;
let out: string;
let queue: string;

beforeEach(() => {
  ({ server, home, src, out, queue } = workspace);
});

describe('a retryable failure', () => {
  it('waits its backoff in the queue, not in a job slot: the documents behind it are parsed meanwhile', async () => {
    const files = manyFiles(9);
    await writeTree(src, files);
    // The first three documents (as many as the jobs `--concurrency 1` keeps open) fail once with a 503.
    const failing = ['doc-000.html', 'doc-001.html', 'doc-002.html'];
    server.setMode({
      latencyMs: 20,
      faults: failing.map((filename) => ({ filename, times: 1, reply: { status: 503, json: { success: false, error: 'Service Unavailable' } } })),
    });

    const env = docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-retry-key', redisUrl: SHARED_REDIS_URL });
    const result = await runDocmill(['run', src, '--out', out, '--queue', queue, '--concurrency', '1'], env, 120_000);

    expect(result.code, result.stderr).toBe(0);
    const firstRetry = Math.min(...failing.map((name) => server.requestsFor(name)[1]?.arrivedAt ?? Number.POSITIVE_INFINITY));
    for (const name of failing) {
      const [refused, retried] = server.requestsFor(name);
      expect(refused?.status).toBe(503);
      expect(retried?.status).toBe(200);
      // The contract's backoff after a first failure: at least 2 s.
      expect((retried?.arrivedAt ?? 0) - (refused?.answeredAt ?? 0)).toBeGreaterThanOrEqual(2000);
    }
    // Every other document was parsed, once, before the first retry went out.
    for (const file of files.filter((f) => !failing.includes(baseName(f.path)))) {
      const requests = server.requestsFor(baseName(file.path));
      expect(requests.map((r) => r.status)).toEqual([200]);
      expect(requests[0]?.arrivedAt ?? Number.POSITIVE_INFINITY).toBeLessThan(firstRetry);
    }
    const byPath = lastLineByPath(await readManifest(out));
    for (const file of files) {
      expect(byPath.get(file.path)?.status).toBe('converted');
      expect(byPath.get(file.path)?.attempts).toBe(failing.includes(baseName(file.path)) ? 2 : 1);
    }
  }, 150_000);
});
