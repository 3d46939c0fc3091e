/**
 * `s3://bucket/prefix` locations and `s3://bucket/key` URIs. The part after the bucket is taken literally (not
 * percent-decoded), as the AWS CLI does: S3 keys may contain '%', spaces and any Unicode.
 */
import { S3UrlError } from './errors.js';

export interface S3Location {
  bucket: string;
  /** Everything after `s3://bucket/`, possibly '' (the whole bucket). */
  prefix: string;
}

const SCHEME = 's3://';
/**
 * Characters any bucket name is made of. Deliberately looser than AWS's current rules (3-63 lower-case
 * characters): legacy buckets and S3-compatible stores allow upper case and '_'; the server judges the rest.
 */
const BUCKET_NAME = /^[A-Za-z0-9._-]+$/;

export function parseS3Url(url: string): S3Location {
  if (!url.toLowerCase().startsWith(SCHEME)) throw new S3UrlError(url, 'it must start with s3://');
  const rest = url.slice(SCHEME.length);
  const slash = rest.indexOf('/');
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  const prefix = slash === -1 ? '' : rest.slice(slash + 1);
  if (bucket === '') throw new S3UrlError(url, 'the bucket name is missing (expected s3://bucket/prefix)');
  if (!BUCKET_NAME.test(bucket)) {
    throw new S3UrlError(url, `"${bucket}" is not a bucket name (letters, digits, '.', '-' and '_' only)`);
  }
  return { bucket, prefix };
}

/** The URI of one object, as SourceFile.uri carries it. */
export function s3ObjectUri(bucket: string, key: string): string {
  return `${SCHEME}${bucket}/${key}`;
}

/**
 * A prefix read as a folder: 'docs' and 'docs/' both become 'docs/', so `s3://b/docs` lists `docs/a.pdf` but not
 * `docs-old/a.pdf`. '' stays '' (the whole bucket).
 */
export function asFolderPrefix(prefix: string): string {
  return prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
}
