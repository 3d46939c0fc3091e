/**
 * `s3://bucket/prefix` locations and `s3://bucket/key` URIs as sources read them: the shared parser
 * (src/common/s3-location.ts) with the part after the bucket taken literally (not percent-decoded, `..` kept), as the
 * AWS CLI does, and S3UrlError (`S3_INVALID_URL`) for a location that is not one.
 */
import { parseS3Location, s3ObjectUri } from '../common/s3-location.js';
import { S3UrlError } from './errors.js';

export { s3ObjectUri };

export interface S3SourceLocation {
  bucket: string;
  /** Everything after `s3://bucket/`, possibly '' (the whole bucket). */
  prefix: string;
}

export function parseS3Url(url: string): S3SourceLocation {
  const { bucket, rest } = parseS3Location(url, (reason) => new S3UrlError(url, reason));
  return { bucket, prefix: rest };
}

/**
 * A prefix read as a folder: 'docs' and 'docs/' both become 'docs/', so `s3://b/docs` lists `docs/a.pdf` but not
 * `docs-old/a.pdf`. '' stays '' (the whole bucket).
 */
export function asFolderPrefix(prefix: string): string {
  return prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
}
