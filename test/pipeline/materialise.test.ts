/**
 * materialise() on local files: the sha256 recorded for a document is that of the bytes parsed. A small file is read
 * once and parsed from memory, so a file rewritten between its hash and its parse is parsed as it was hashed; a large
 * one is streamed from disk again for its upload.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { materialise } from '../../src/pipeline/materialise.js';
import { LocalDirSource } from '../../src/sources/local-dir-source.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

let dir: string;

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await removeTempDir(dir);
});

async function uploaded(open: () => AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of open()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function listed(name: string, bytes: Buffer) {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { path, file: { uri: pathToFileURL(path).href, relativePath: name, size: bytes.byteLength, changeToken: 'token' } };
}

describe('materialise a local file', () => {
  it('parses a small file as it was hashed, on every attempt, though it changed on disk since', async () => {
    const original = Buffer.from('<html><body><p>first</p></body></html>');
    const { path, file } = await listed('page.html', original);
    const local = await materialise(new LocalDirSource({ location: dir }), file);
    await writeFile(path, '<html><body><p>rewritten meanwhile</p></body></html>');

    expect(local.sha256).toBe(createHash('sha256').update(original).digest('hex'));
    expect(local.size).toBe(original.byteLength);
    expect(await uploaded(local.upload.open)).toEqual(original);
    expect(await uploaded(local.upload.open)).toEqual(original);
  });

  it('hashes and uploads a file over the in-memory limit whole', async () => {
    const large = Buffer.alloc(1024 * 1024 + 1, 7);
    const { file } = await listed('big.bin', large);
    const local = await materialise(new LocalDirSource({ location: dir }), file);

    expect(local.sha256).toBe(createHash('sha256').update(large).digest('hex'));
    expect(local.size).toBe(large.byteLength);
    expect(await uploaded(local.upload.open)).toEqual(large);
  });
});
