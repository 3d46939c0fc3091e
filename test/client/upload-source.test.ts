import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFileSource } from '../../src/backend/upload-source.js';

async function readAll(chunks: AsyncIterable<Uint8Array>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of chunks) out.push(Buffer.from(chunk));
  return out;
}

describe('localFileSource', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docmill-upload-source-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives a small file as one chunk of exactly its bytes, afresh for each attempt', async () => {
    const path = join(dir, 'small.pdf');
    const bytes = Buffer.from('%PDF-1.4\n' + 'x'.repeat(150_000));
    await writeFile(path, bytes);
    const source = await localFileSource(path);
    expect(source.size).toBe(bytes.length);
    for (let attempt = 0; attempt < 2; attempt++) {
      const chunks = await readAll(source.open());
      expect(chunks).toHaveLength(1);
      expect(chunks[0]!.equals(bytes)).toBe(true);
    }
  });

  it('gives a file larger than one chunk whole, and an empty file as no bytes', async () => {
    const large = join(dir, 'large.pdf');
    const bytes = Buffer.alloc(700_000, 7);
    await writeFile(large, bytes);
    expect(Buffer.concat(await readAll((await localFileSource(large)).open())).equals(bytes)).toBe(true);
    const empty = join(dir, 'empty.pdf');
    await writeFile(empty, '');
    expect(Buffer.concat(await readAll((await localFileSource(empty)).open())).length).toBe(0);
  });
});
