/**
 * The one parser of `s3://bucket/rest` text, for sources (a location to read, an object's URI) and stores (a location
 * to write). Split by hand rather than with URL, which would resolve `.` and `..` in the path and percent-decode it:
 * S3 keys may hold '%', spaces, `..` and any Unicode, and the AWS CLI reads them literally too.
 *
 * What the part after the bucket may be is the caller's rule (a source takes it literally; a store refuses `.` and
 * `..` segments and makes it a folder), and so is the error: each room reports a bad location with its own typed
 * error and stable code, made by the `invalid` callback from the reason given here.
 */

export interface S3Location {
  bucket: string;
  /** Everything after `s3://bucket/`, taken literally; '' for the whole bucket. */
  rest: string;
}

const SCHEME = 's3://';
/**
 * Characters any bucket name is made of. Deliberately looser than AWS's current rules (3-63 lower-case
 * characters): legacy buckets and S3-compatible stores allow upper case and '_'; the server judges the rest.
 */
const BUCKET_NAME = /^[A-Za-z0-9._-]+$/;

/** `invalid` makes the caller's error from a reason (`the bucket name is missing…`); it is thrown. */
export function parseS3Location(text: string, invalid: (reason: string) => Error): S3Location {
  if (!text.toLowerCase().startsWith(SCHEME)) throw invalid('it must start with s3://');
  const afterScheme = text.slice(SCHEME.length);
  const slash = afterScheme.indexOf('/');
  const bucket = slash === -1 ? afterScheme : afterScheme.slice(0, slash);
  const rest = slash === -1 ? '' : afterScheme.slice(slash + 1);
  if (bucket === '') throw invalid('the bucket name is missing (expected s3://bucket or s3://bucket/prefix)');
  if (!BUCKET_NAME.test(bucket)) throw invalid(`"${bucket}" is not a bucket name (letters, digits, '.', '-' and '_' only)`);
  return { bucket, rest };
}

/** Whether `text` names an S3 location at all (its scheme), whatever else is wrong with it. */
export function isS3Location(text: string): boolean {
  return text.toLowerCase().startsWith(SCHEME);
}

/** The URI of one object, `s3://bucket/key`, as parseS3Location reads it back. */
export function s3ObjectUri(bucket: string, key: string): string {
  return `${SCHEME}${bucket}/${key}`;
}
