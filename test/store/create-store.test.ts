/** createStore: S3 for s3:// (with a client), a local folder otherwise. */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/create-store.js';
import { FsStore } from '../../src/store/fs-store.js';
import { S3Store } from '../../src/store/s3-store.js';

describe('createStore', () => {
  it('makes an FsStore rooted at the resolved path for a folder', async () => {
    const store = await createStore('./out');
    expect(store).toBeInstanceOf(FsStore);
    expect((store as FsStore).root).toBe(resolve('./out'));
    expect(store.location).toBe('./out');
  });

  it('accepts a file: URL', async () => {
    const folder = resolve('/tmp/docmill-out');
    const location = pathToFileURL(folder).href;
    const store = (await createStore(location)) as FsStore;
    expect(store).toBeInstanceOf(FsStore);
    expect(store.root).toBe(folder);
    expect(store.location).toBe(location);
  });

  it('makes an S3Store for s3:// with the given client', async () => {
    const client = new S3Client({ region: 'us-east-1' });
    const store = await createStore('s3://bucket/prefix', { s3Client: client });
    expect(store).toBeInstanceOf(S3Store);
    expect(store.location).toBe('s3://bucket/prefix');
    client.destroy();
  });

  it.each([
    ['s3://bucket/prefix', 'needs an S3 client'],
    ['https://example.com/out', 'unsupported scheme'],
    ['', 'empty'],
  ])('refuses %j with STORE_INVALID_LOCATION', async (location, message) => {
    await expect(createStore(location)).rejects.toThrow(
      expect.objectContaining({ code: 'STORE_INVALID_LOCATION', message: expect.stringContaining(message) }),
    );
  });
});
