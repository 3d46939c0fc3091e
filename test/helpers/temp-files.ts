/** Temp directories and generated files for tests; every directory lives under os.tmpdir()/docmill-test-*. */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function makeTempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'docmill-test-'));
}

export async function removeTempDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** Writes `size` random bytes to dir/name; returns the path and the bytes' sha256. */
export async function writeRandomFile(dir: string, name: string, size: number): Promise<{ path: string; sha256: string }> {
  const bytes = randomBytes(size);
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { path, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** A sparse file of `size` bytes (no disk blocks used): created empty, then extended with truncate. */
export async function writeSparseFile(dir: string, name: string, size: number): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, '');
  await truncate(path, size);
  return path;
}

/** sha256 of a file on disk, streamed. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The rejection of `promise`, or a thrown error when it fulfils. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it fulfilled');
}
