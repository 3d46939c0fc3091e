/**
 * The workspace of a test that runs docmill (the built CLI, or the library in process): its own HOME, a source
 * folder, an output folder, and on request a fault parse server and a unique queue on the shared Redis. Everything is
 * made before each test (or once for a describe, `lifetime: 'suite'`) and undone after it, in this order: docmill
 * children killed, embedded redis-servers under the output stopped, the test's own `afterChildren` clean-up, the
 * server closed, the queue's keys deleted, the folders removed. Every step runs even when an earlier one fails.
 *
 *   const workspace = useCliWorkspace({ faultServer: { latencyMs: 20 }, queue: true });
 *   it('...', async () => { await runDocmill(['run', workspace.src, '--out', workspace.out], ...) });
 *
 * Hooks the test file registers after this call run after the workspace is made, and before it is undone.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { builtCliExists, deleteQueueKeys, killAllDocmill, stopEmbeddedRedis, uniqueQueueName } from './docmill-cli.js';
import { startFaultParseServer, type FaultMode, type FaultParseServer } from './loopback-servers.js';
import { makeTempDir, removeTempDir } from './temp-files.js';

export interface CliWorkspaceOptions {
  /** Starts a fault parse server with this behaviour (closed afterwards); none when absent. */
  faultServer?: FaultMode;
  /** A unique queue name on the shared Redis, its keys deleted afterwards. */
  queue?: boolean;
  /**
   * `out` is an empty folder of its own (true), or `<outParent>/out`, which does not exist until docmill makes it
   * (false, the default).
   */
  outExists?: boolean;
  /** The tests start the built CLI: fail at once, saying what to do, when dist/ is missing. Default true. */
  builtCli?: boolean;
  /** Made before each test (default), or once for the enclosing describe. */
  lifetime?: 'test' | 'suite';
  /** The test file's own clean-up, run once docmill's children are gone, before the server closes and the folders go. */
  afterChildren?: () => unknown;
}

export interface CliWorkspace {
  /** HOME for docmill's children (a temp folder, so nothing lands in the real home). */
  readonly home: string;
  /** An empty source folder. */
  readonly src: string;
  /** The folder `out` is made in (`out` itself with `outExists`). */
  readonly outParent: string;
  readonly out: string;
  /** Only with `queue: true`. */
  readonly queue: string;
  /** Only with `faultServer`. */
  readonly server: FaultParseServer;
  /** Another empty temp folder, removed with the others. */
  tempDir(): Promise<string>;
}

interface Current {
  home: string;
  src: string;
  outParent: string;
  out: string;
  queue?: string;
  server?: FaultParseServer;
  extraDirs: string[];
}

export function useCliWorkspace(options: CliWorkspaceOptions = {}): CliWorkspace {
  const [before, after] = options.lifetime === 'suite' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  let current: Current | undefined;
  const live = (): Current => {
    if (!current) throw new Error('the workspace exists only while a test runs (useCliWorkspace makes it in a before hook)');
    return current;
  };

  if (options.builtCli ?? true) {
    beforeAll(() => {
      if (!builtCliExists()) throw new Error('dist/ is missing: run `npm run build` before the tests that start the CLI');
    });
  }

  before(async () => {
    const made: Current = { home: '', src: '', outParent: '', out: '', extraDirs: [] };
    current = made;
    made.home = await makeTempDir();
    made.src = await makeTempDir();
    made.outParent = await makeTempDir();
    made.out = options.outExists ? made.outParent : join(made.outParent, 'out');
    if (options.queue) made.queue = uniqueQueueName();
    if (options.faultServer) made.server = await startFaultParseServer(options.faultServer);
  });

  after(async () => {
    const done = current;
    if (!done) return;
    const failures: unknown[] = [];
    const step = async (work: () => unknown): Promise<void> => {
      try {
        await work();
      } catch (error) {
        failures.push(error);
      }
    };
    await step(killAllDocmill);
    if (done.out) await step(() => stopEmbeddedRedis(done.out));
    if (options.afterChildren) await step(options.afterChildren);
    if (done.server) await step(() => done.server?.close());
    if (done.queue) await step(() => deleteQueueKeys(done.queue!));
    await step(() => Promise.all([done.home, done.src, done.outParent, ...done.extraDirs].map((dir) => removeTempDir(dir || undefined))));
    current = undefined;
    if (failures.length > 0) throw failures[0];
  });

  return {
    get home() {
      return live().home;
    },
    get src() {
      return live().src;
    },
    get outParent() {
      return live().outParent;
    },
    get out() {
      return live().out;
    },
    get queue() {
      const { queue } = live();
      if (queue === undefined) throw new Error('no queue: pass `queue: true` to useCliWorkspace');
      return queue;
    },
    get server() {
      const { server } = live();
      if (!server) throw new Error('no parse server: pass `faultServer` to useCliWorkspace');
      return server;
    },
    async tempDir() {
      const dir = await makeTempDir();
      live().extraDirs.push(dir);
      return dir;
    },
  };
}
