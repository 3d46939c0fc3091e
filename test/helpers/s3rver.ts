/**
 * A real S3-compatible server for tests: s3rver 3.7.1 on 127.0.0.1 (a free port), storing in a temp directory.
 *
 * It runs in a child Node process started with `--openssl-legacy-provider`: s3rver encrypts ListObjectsV2
 * continuation tokens with DES, which OpenSSL 3 (Node 17+) refuses without the legacy provider
 * ("error:0308010C:digital envelope routines::unsupported" on the first truncated listing). The flag cannot be
 * turned on from inside a running process, and the child keeps it out of the test process, so tests need no
 * NODE_OPTIONS and no vitest configuration.
 *
 * The child exits when its stdin closes, so it cannot outlive the test process, even one that crashes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { S3Client } from '@aws-sdk/client-s3';
import { makeTempDir, removeTempDir } from './temp-files.js';

export interface S3rverHandle {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** Path-style, us-east-1, credentials S3RVER/S3RVER, checksums only when required. */
  client: S3Client;
  close(): Promise<void>;
}

/** Runs in the child (CommonJS, `node -e`): argv is [s3rver module path, directory, JSON bucket names]. */
const CHILD_SCRIPT = `
const [s3rverPath, directory, bucketNames] = process.argv.slice(1);
const S3rver = require(s3rverPath);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  directory,
  silent: true,
  configureBuckets: JSON.parse(bucketNames).map((name) => ({ name })),
});
server.run().then(
  ({ port }) => process.stdout.write(JSON.stringify({ port }) + '\\n'),
  (error) => { console.error(error); process.exit(1); },
);
process.stdin.on('end', () => server.close().finally(() => process.exit(0)));
process.stdin.resume();
`;

const START_TIMEOUT_MS = 30_000; // generous: a loaded CI machine starts Node slowly, and the hook timeout is 60 s

export async function startS3rver(bucketNames: string[]): Promise<S3rverHandle> {
  const directory = await makeTempDir();
  const s3rverPath = createRequire(import.meta.url).resolve('s3rver');
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '--input-type=commonjs', '-e', CHILD_SCRIPT, s3rverPath, directory, JSON.stringify(bucketNames)],
    // NODE_OPTIONS cleared: the test runner's own loader flags are not meant for this plain Node child.
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  let port: number;
  try {
    port = await readPort(child);
  } catch (error) {
    child.kill();
    await removeTempDir(directory);
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    client,
    close: async () => {
      client.destroy();
      const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve();
      child.stdin?.end();
      await exited;
      await removeTempDir(directory);
    },
  };
}

async function readPort(child: ChildProcess): Promise<number> {
  if (!child.stdout) throw new Error('s3rver child has no stdout');
  const lines = createInterface({ input: child.stdout });
  const timeout = AbortSignal.timeout(START_TIMEOUT_MS);
  const firstLine = new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`s3rver exited (code ${code}) before listening`)));
    timeout.addEventListener('abort', () => reject(new Error(`s3rver did not start within ${START_TIMEOUT_MS} ms`)));
  });
  try {
    const { port } = JSON.parse(await firstLine) as { port: number };
    return port;
  } finally {
    lines.close();
  }
}
