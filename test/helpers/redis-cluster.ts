/**
 * A real Redis Cluster for tests: three masters (`redis-server --cluster-enabled yes`) on free loopback ports, state
 * in a temp folder, joined by `redis-cli --cluster create … --cluster-replicas 0`. One node can be restarted with
 * its data (SHUTDOWN SAVE, then the same command on the same folder), as a maintenance restart does.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { makeTempDir, removeTempDir } from './temp-files.js';
import { waitFor } from './wait.js';

/** Why the cluster tests cannot run here, or undefined when redis-server and redis-cli are installed. */
export function redisClusterUnavailable(): string | undefined {
  return missingCommand(['redis-server', '--version'], ['redis-cli', '--version']);
}

/** Why the TLS tests cannot run here: the cluster's reasons, or no openssl to make their certificates. */
export function redisTlsUnavailable(): string | undefined {
  return redisClusterUnavailable() ?? missingCommand(['openssl', 'version']);
}

function missingCommand(...commands: Array<[string, string]>): string | undefined {
  for (const [command, argument] of commands) {
    if (spawnSync(command, [argument], { stdio: 'ignore' }).status !== 0) return `${command} is not installed`;
  }
  return undefined;
}

interface ClusterNode {
  port: number;
  process: ChildProcess;
  exited: Promise<void>;
}

export interface RedisClusterHandle {
  /** `redis://:<password>@127.0.0.1:<port>`: the URL of the node on `port`. */
  urlOf(port: number): string;
  ports: number[];
  /** The port of the master serving `key`'s slot. */
  portServing(key: string): Promise<number>;
  /** Stops the node on `port` with its data saved and starts it again; resolves once the cluster is ok again. */
  restartNode(port: number): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisClusterOptions {
  masters?: number;
  /** `requirepass` of every node; the URL carries it. */
  password?: string;
  /** False: one standalone redis-server instead (same ports, password and TLS handling). @default true */
  clusterEnabled?: boolean;
  /** TLS only, clients and cluster bus alike (`rediss://` URLs), with a certificate for 127.0.0.1 from `tls.ca`. */
  tls?: TestCertificates;
}

/** How the helper itself reaches a node. */
interface NodeAccess {
  password: string | undefined;
  tls: TestCertificates | undefined;
}

export async function startRedisCluster({ masters = 3, password, tls, clusterEnabled = true }: RedisClusterOptions = {}): Promise<RedisClusterHandle> {
  const dir = await makeTempDir();
  const access: NodeAccess = { password, tls };
  const tlsArgs = tls
    ? ['--tls-port', '', '--port', '0', '--tls-cluster', 'yes', '--tls-auth-clients', 'no', '--tls-cert-file', tls.certFile, '--tls-key-file', tls.keyFile, '--tls-ca-cert-file', tls.caFile]
    : [];
  const nodes = new Map<number, ClusterNode>();
  const launch = (port: number): ClusterNode => {
    const child = spawn(
      'redis-server',
      [
        ...(tls ? tlsArgs.map((arg, index) => (index === 1 ? String(port) : arg)) : ['--port', String(port)]),
        '--bind', '127.0.0.1',
        ...(clusterEnabled ? ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`)] : []),
        '--dbfilename', `dump-${port}.rdb`,
        '--dir', dir,
        '--save', '',
        '--appendonly', 'no',
        '--maxmemory-policy', 'noeviction',
        '--daemonize', 'no',
        ...(password ? ['--requirepass', password, '--masterauth', password] : []),
      ],
      { stdio: 'ignore' },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const node = { port, process: child, exited };
    nodes.set(port, node);
    return node;
  };
  const stop = async (): Promise<void> => {
    for (const node of nodes.values()) node.process.kill('SIGKILL');
    await Promise.all([...nodes.values()].map((node) => node.exited));
    nodes.clear();
    await removeTempDir(dir);
  };
  try {
    const ports = await clusterPorts(masters);
    for (const port of ports) launch(port);
    for (const port of ports) await waitFor(`redis-server on ${port}`, () => ping(port, access), { timeoutMs: 10_000, intervalMs: 50 });
    if (clusterEnabled) {
      const create = spawnSync(
        'redis-cli',
        [
          ...(password ? ['-a', password, '--no-auth-warning'] : []),
          ...(tls ? ['--tls', '--cacert', tls.caFile] : []),
          ...['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes'],
        ],
        { encoding: 'utf8', timeout: 30_000 },
      );
      if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
      for (const port of ports) await waitFor(`cluster_state:ok on ${port}`, () => clusterOk(port, access, masters), { timeoutMs: 20_000, intervalMs: 100 });
    }
    const urlOf = (port: number): string => `${tls ? 'rediss' : 'redis'}://${password ? `:${encodeURIComponent(password)}@` : ''}127.0.0.1:${port}`;
    return {
      urlOf,
      ports,
      portServing: async (key) => {
        return withNode(ports[0]!, access, async (client) => {
          const slot = Number(await client.call('CLUSTER', 'KEYSLOT', key));
          const ranges = (await client.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number, ...unknown[]]]>;
          const range = ranges.find(([from, to]) => slot >= from && slot <= to);
          if (!range) throw new Error(`no node serves slot ${slot}`);
          return Number(range[2][1]);
        });
      },
      restartNode: async (port) => {
        const node = nodes.get(port);
        if (!node) throw new Error(`no node on ${port}`);
        await withNode(port, access, (client) => client.call('SHUTDOWN', 'SAVE')).catch(() => undefined);
        await node.exited;
        launch(port);
        await waitFor(`redis-server on ${port} again`, () => ping(port, access), { timeoutMs: 10_000, intervalMs: 50 });
        if (clusterEnabled) for (const each of ports) await waitFor(`cluster_state:ok on ${each}`, () => clusterOk(each, access, masters), { timeoutMs: 20_000, intervalMs: 100 });
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Free ports P whose cluster bus port P + 10000 is free as well. */
async function clusterPorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = await listenable(0);
    if (port < 55_000 && !ports.includes(port) && (await listenable(port + 10_000).catch(() => 0)) > 0) ports.push(port);
  }
  return ports;
}

function listenable(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A plain connection to one node (no cluster redirections), closed after `use`. */
async function withNode<T>(port: number, access: NodeAccess, use: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis({
    port,
    host: '127.0.0.1',
    password: access.password,
    ...(access.tls ? { tls: { ca: readFileSync(access.tls.caFile) } } : {}),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await use(client);
  } finally {
    client.disconnect();
  }
}

async function ping(port: number, access: NodeAccess): Promise<boolean> {
  return withNode(port, access, async (client) => (await client.ping()) === 'PONG').catch(() => false);
}

/** The node sees the cluster ok with every master known and serving (after a restart: it has rejoined). */
async function clusterOk(port: number, access: NodeAccess, masters: number): Promise<boolean> {
  const info = await withNode(port, access, (client) => client.call('CLUSTER', 'INFO') as Promise<string>).catch(() => '');
  const known = Number(/cluster_known_nodes:(\d+)/.exec(info)?.[1] ?? 0);
  const size = Number(/cluster_size:(\d+)/.exec(info)?.[1] ?? 0);
  return /cluster_state:ok/.test(info) && known >= masters && size >= masters;
}

export interface TestCertificates {
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** A throwaway CA and a certificate it signed for 127.0.0.1 and localhost (openssl), in `dir`. */
export async function makeTestCertificates(dir: string): Promise<TestCertificates> {
  const files = { caFile: join(dir, 'ca.crt'), certFile: join(dir, 'server.crt'), keyFile: join(dir, 'server.key') };
  const caKey = join(dir, 'ca.key');
  const request = join(dir, 'server.csr');
  const extensions = join(dir, 'server.ext');
  await writeFile(extensions, 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const steps = [
    ['req', '-x509', ...ec, '-keyout', caKey, '-out', files.caFile, '-days', '2', '-subj', '/CN=docmill test CA'],
    ['req', ...ec, '-keyout', files.keyFile, '-out', request, '-subj', '/CN=127.0.0.1'],
    ['x509', '-req', '-in', request, '-CA', files.caFile, '-CAkey', caKey, '-CAcreateserial', '-out', files.certFile, '-days', '2', '-extfile', extensions],
  ];
  for (const args of steps) {
    const made = spawnSync('openssl', args, { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl ${args[0]} failed: ${made.stderr}`);
  }
  return files;
}
