/** S3 locations, the shared client settings, and S3's key order. */
import { describe, expect, it } from 'vitest';
import { S3UrlError } from '../../src/sources/errors.js';
import { createS3Client, parseS3Url } from '../../src/sources/s3-client.js';
import { compareS3Keys } from '../../src/sources/s3-key-order.js';
import { asFolderPrefix, s3ObjectUri } from '../../src/sources/s3-url.js';

describe('parseS3Url', () => {
  it('splits bucket and prefix, keeping the prefix literally', () => {
    expect(parseS3Url('s3://bucket')).toEqual({ bucket: 'bucket', prefix: '' });
    expect(parseS3Url('s3://bucket/')).toEqual({ bucket: 'bucket', prefix: '' });
    expect(parseS3Url('s3://my.bucket-1/docs/2024')).toEqual({ bucket: 'my.bucket-1', prefix: 'docs/2024' });
    expect(parseS3Url('s3://b/a b/%20/Übersicht/')).toEqual({ bucket: 'b', prefix: 'a b/%20/Übersicht/' });
    expect(parseS3Url(s3ObjectUri('b', 'docs/../x.pdf'))).toEqual({ bucket: 'b', prefix: 'docs/../x.pdf' });
  });

  it.each([
    ['s3://', 'the bucket name is missing'],
    ['s3:///prefix', 'the bucket name is missing'],
    ['https://bucket/prefix', 'it must start with s3://'],
    ['bucket/prefix', 'it must start with s3://'],
    ['s3://bad bucket/x', 'is not a bucket name'],
  ])('refuses %s with S3_INVALID_URL', (url, reason) => {
    let error: unknown;
    try {
      parseS3Url(url);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(S3UrlError);
    expect(error).toMatchObject({ code: 'S3_INVALID_URL' });
    expect((error as Error).message).toContain(reason);
    expect((error as Error).message).toContain(url);
  });

  it('reads prefixes as folders', () => {
    expect(asFolderPrefix('')).toBe('');
    expect(asFolderPrefix('docs')).toBe('docs/');
    expect(asFolderPrefix('docs/')).toBe('docs/');
  });
});

describe('createS3Client', () => {
  it('uses path-style addressing for a custom endpoint and checksums only when required', async () => {
    const client = createS3Client({ endpoint: 'http://127.0.0.1:9000', region: 'eu-west-1' });
    try {
      expect(client.config.forcePathStyle).toBe(true);
      expect(await client.config.region()).toBe('eu-west-1');
      expect(await client.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
      expect(await client.config.responseChecksumValidation()).toBe('WHEN_REQUIRED');
    } finally {
      client.destroy();
    }
    const virtualHosted = createS3Client({ endpoint: 'http://127.0.0.1:9000', region: 'eu-west-1', forcePathStyle: false });
    expect(virtualHosted.config.forcePathStyle).toBe(false);
    virtualHosted.destroy();
  });
});

describe('compareS3Keys', () => {
  it('orders keys as UTF-8 bytes, as S3 lists them', () => {
    expect(compareS3Keys('a-b', 'a/b')).toBeLessThan(0);
    expect(compareS3Keys('B', 'a')).toBeLessThan(0);
    // U+FF5E (3 UTF-8 bytes, one UTF-16 unit) sorts before U+1F4C4 (4 bytes, a surrogate pair), unlike JS's `<`.
    expect(compareS3Keys('\uFF5E', '\u{1F4C4}')).toBeLessThan(0);
    expect('\uFF5E' < '\u{1F4C4}').toBe(false);
  });
});
