/**
 * Work files (a long PDF's page ranges and their checkpoints, below `_docmill/ranges/`) on both stores: binary bytes
 * come back unchanged, deletion removes them, and no key outside the ranges area can be named.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsStore } from '../../src/store/fs-store.js';
import { rangeKey } from '../../src/store/layout.js';
import type { OutputStore } from '../../src/store/output-store.js';
import { S3Store } from '../../src/store/s3-store.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { startLocalS3rver, type LocalS3rver } from './local-s3rver.js';

let dir: string;
let s3: LocalS3rver;

beforeAll(async () => {
  dir = await makeTempDir();
  s3 = await startLocalS3rver();
});
afterAll(async () => {
  await s3?.stop();
  await removeTempDir(dir);
});

const SHA = 'a'.repeat(64);
const FINGERPRINT = '0123abcd';

const stores: Array<[string, () => OutputStore]> = [
  ['fs', () => new FsStore(dir)],
  ['S3', () => new S3Store({ location: `s3://${s3.bucket}/work`, client: s3.client })],
];

describe.each(stores)('work files on the %s store', (_name, makeStore) => {
  it('keeps binary range bytes intact, and deletes them', async () => {
    const store = makeStore();
    // Bytes that are not valid UTF-8: a text round trip would change them.
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), randomBytes(64 * 1024)]);
    const key = rangeKey(SHA, FINGERPRINT, 61, 120, 'pdf');
    expect(key).toBe(`_docmill/ranges/${SHA}/${FINGERPRINT}/61-120.pdf`);
    await store.writeWorkFile(key, bytes);
    expect(Buffer.from((await store.readWorkFile(key)) ?? [])).toEqual(bytes);
    await store.deleteWorkFiles([key, rangeKey(SHA, FINGERPRINT, 61, 120, 'json')]);
    expect(await store.readWorkFile(key)).toBeUndefined();
    await store.close();
  });

  it('refuses keys outside the ranges area', async () => {
    const store = makeStore();
    await expect(store.writeWorkFile('_docmill/state/a.json', '{}')).rejects.toMatchObject({ code: 'STORE_UNSAFE_PATH' });
    await expect(store.readWorkFile('_docmill/ranges/../manifest.jsonl')).rejects.toMatchObject({ code: 'STORE_UNSAFE_PATH' });
    await expect(store.deleteWorkFiles(['report.pdf.md'])).rejects.toMatchObject({ code: 'STORE_UNSAFE_PATH' });
    expect(() => rangeKey(SHA, FINGERPRINT, 5, 4, 'pdf')).toThrow();
    await store.close();
  });
});
