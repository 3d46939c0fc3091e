/**
 * The one way docmill builds an S3Client, for the S3 source and the S3 store alike. Credentials and region come
 * from the AWS SDK's standard chain (environment, shared config and credentials files, SSO, instance and container
 * roles) unless given.
 */
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';

export { parseS3Url } from './s3-url.js';

export interface S3ClientOptions {
  /** An S3-compatible endpoint (MinIO, s3rver, R2...): `http://127.0.0.1:9000`. */
  endpoint?: string | undefined;
  region?: string | undefined;
  /** `http://endpoint/bucket/key` rather than `http://bucket.endpoint/key`; default true when `endpoint` is set. */
  forcePathStyle?: boolean | undefined;
  /** Explicit credentials (tests, or a caller with its own provider); default: the SDK's chain. */
  credentials?: S3ClientConfig['credentials'];
}

export function createS3Client(options: S3ClientOptions = {}): S3Client {
  const config: S3ClientConfig = {
    // The SDK's default since 3.729 is to add CRC checksums to every upload and to validate them on download;
    // S3-compatible servers that predate it (s3rver among them) store streamed uploads with the aws-chunked framing
    // bytes inside the object. WHEN_REQUIRED keeps checksums for the operations that need them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  if (options.endpoint !== undefined) config.endpoint = options.endpoint;
  if (options.region !== undefined) config.region = options.region;
  if (options.credentials !== undefined) config.credentials = options.credentials;
  const forcePathStyle = options.forcePathStyle ?? options.endpoint !== undefined;
  if (forcePathStyle) config.forcePathStyle = true;
  return new S3Client(config);
}
