/**
 * One parser of `s3://bucket/rest` for sources and stores: both read the same bucket from the same text and refuse
 * the same malformed locations, each with its own typed error; what follows the bucket is each caller's rule.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { isS3Location, parseS3Location, s3ObjectUri } from '../../src/common/s3-location.js';
import { S3UrlError } from '../../src/sources/errors.js';
import { parseS3Url } from '../../src/sources/s3-url.js';
import { S3Store } from '../../src/store/s3-store.js';
import { InvalidLocationError } from '../../src/store/store-errors.js';

const client = new S3Client({ region: 'us-east-1' });
afterAll(() => client.destroy());

class Refused extends Error {}

describe('parseS3Location', () => {
  it('splits the bucket from the rest, which it keeps literally', () => {
    const parse = (text: string) => parseS3Location(text, (reason) => new Refused(reason));
    expect(parse('s3://bucket')).toEqual({ bucket: 'bucket', rest: '' });
    expect(parse('S3://Legacy_Bucket/')).toEqual({ bucket: 'Legacy_Bucket', rest: '' });
    expect(parse('s3://b/a b/%20/../Übersicht')).toEqual({ bucket: 'b', rest: 'a b/%20/../Übersicht' });
    expect(parse(s3ObjectUri('b', 'docs//x+y.pdf'))).toEqual({ bucket: 'b', rest: 'docs//x+y.pdf' });
    expect(isS3Location('S3://b')).toBe(true);
    expect(isS3Location('./s3:/b')).toBe(false);
  });

  it.each([
    ['s3://', 'the bucket name is missing'],
    ['s3:///prefix', 'the bucket name is missing'],
    ['http://bucket/x', 'it must start with s3://'],
    ['s3://bu cket/x', 'is not a bucket name'],
  ])('refuses %j through the caller, the source and the store each with its own code', (text, reason) => {
    expect(() => parseS3Location(text, (why) => new Refused(why))).toThrow(Refused);
    expect(() => parseS3Url(text)).toThrow(expect.objectContaining({ code: 'S3_INVALID_URL', message: expect.stringContaining(reason) }));
    expect(() => parseS3Url(text)).toThrow(S3UrlError);
    expect(() => new S3Store({ location: text, client })).toThrow(expect.objectContaining({ code: 'STORE_INVALID_LOCATION', message: expect.stringContaining(reason) }));
    expect(() => new S3Store({ location: text, client })).toThrow(InvalidLocationError);
  });

  it('leaves the rest to each caller: a source takes it literally, a store makes it a safe folder', () => {
    for (const [text, literal, folder] of [
      ['s3://b/docs', 'docs', 'docs/'],
      ['s3://b//docs//2026/', '/docs//2026/', 'docs/2026/'],
      ['s3://b', '', ''],
    ] as const) {
      expect(parseS3Url(text)).toEqual({ bucket: 'b', prefix: literal });
      const store = new S3Store({ location: text, client });
      expect([store.bucket, store.prefix]).toEqual(['b', folder]);
    }
    expect(parseS3Url('s3://b/docs/../up')).toEqual({ bucket: 'b', prefix: 'docs/../up' });
    expect(() => new S3Store({ location: 's3://b/docs/../up', client })).toThrow(expect.objectContaining({ code: 'STORE_INVALID_LOCATION' }));
  });
});
