/**
 * Picks the store for an output location: S3 for `s3://`, a local folder for anything else. The S3 store (and with it
 * the AWS SDK, a second or more of loading) is loaded only for an `s3://` location.
 */
import { fileURLToPath } from 'node:url';
import type { S3Client } from '@aws-sdk/client-s3';
import { FsStore } from './fs-store.js';
import type { OutputStore } from './output-store.js';
import { InvalidLocationError } from './store-errors.js';

export interface CreateStoreOptions {
  /** Required for an `s3://` location; built by the caller (endpoint, credentials, checksum settings). */
  s3Client?: S3Client | undefined;
}

/** Any `scheme://` prefix; Windows paths (`C:\out`) have one letter and no `//`, so they do not match. */
const URL_SCHEME = /^([a-z][a-z0-9+.-]+):\/\//i;

export async function createStore(location: string, options: CreateStoreOptions = {}): Promise<OutputStore> {
  const scheme = URL_SCHEME.exec(location)?.[1]?.toLowerCase();
  if (scheme === 's3') {
    if (!options.s3Client) throw new InvalidLocationError(location, 'an s3:// location needs an S3 client');
    const { S3Store } = await import('./s3-store.js');
    return new S3Store({ location, client: options.s3Client });
  }
  if (scheme === 'file') return new FsStore(pathOfFileUrl(location), location);
  if (scheme !== undefined) throw new InvalidLocationError(location, `unsupported scheme ${scheme}://; use a folder or s3://`);
  if (location.trim() === '') throw new InvalidLocationError(location, 'the location is empty');
  return new FsStore(location);
}

function pathOfFileUrl(location: string): string {
  try {
    return fileURLToPath(location);
  } catch (error) {
    throw new InvalidLocationError(location, error instanceof Error ? error.message : String(error));
  }
}
