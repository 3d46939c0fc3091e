/**
 * s3rver for the store tests, with a client configured as s3rver needs. The server runs in a child process
 * started with --openssl-legacy-provider (see fixtures/s3rver-process.mjs), so paginated listings work without
 * NODE_OPTIONS in the test process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const SERVER_SCRIPT = fileURLToPath(new URL('./fixtures/s3rver-process.mjs', import.meta.url));

export interface LocalS3rver {
  endpoint: string;
  bucket: string;
  client: S3Client;
  /** Every key in the bucket (all pages). */
  listAllKeys(): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startLocalS3rver(bucket = 'docmill-test'): Promise<LocalS3rver> {
  const directory = await makeTempDir();
  const child = spawn(process.execPath, ['--openssl-legacy-provider', SERVER_SCRIPT, directory, bucket], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
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
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    bucket,
    client,
    async listAllKeys() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      return keys.sort();
    },
    async stop() {
      client.destroy();
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      await removeTempDir(directory);
    },
  };
}

function readPort(child: ChildProcess): Promise<number> {
  const lines = createInterface({ input: child.stdout! });
  return new Promise<number>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`s3rver exited before listening (code ${String(code)})`));
    child.once('exit', onExit);
    child.once('error', reject);
    lines.once('line', (line) => {
      child.off('exit', onExit);
      child.off('error', reject);
      lines.close();
      try {
        resolve((JSON.parse(line) as { port: number }).port);
      } catch (error) {
        reject(error);
      }
    });
  });
}
