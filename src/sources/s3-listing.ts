/**
 * ListObjectsV2 as a stream of objects: one page in memory at a time, the next page requested only when the
 * consumer has taken the current one, so a listing of millions of keys runs in constant memory.
 */
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { SourceListError } from './errors.js';

export interface S3ObjectSummary {
  key: string;
  /** The ETag without its quotes; undefined if the store sent none. */
  etag: string | undefined;
  size: number;
}

export interface S3ListRequest {
  bucket: string;
  prefix: string;
  /** MaxKeys per page (S3 caps it at 1000, its default). */
  pageSize?: number | undefined;
  /** For error messages: the location as the user gave it. */
  location: string;
  signal?: AbortSignal | undefined;
}

export async function* listS3Objects(client: S3Client, request: S3ListRequest): AsyncGenerator<S3ObjectSummary> {
  let continuationToken: string | undefined;
  do {
    request.signal?.throwIfAborted();
    let page;
    try {
      page = await client.send(
        new ListObjectsV2Command({
          Bucket: request.bucket,
          Prefix: request.prefix === '' ? undefined : request.prefix,
          ContinuationToken: continuationToken,
          MaxKeys: request.pageSize,
        }),
        { abortSignal: request.signal },
      );
    } catch (error) {
      if (request.signal?.aborted) throw error;
      throw new SourceListError(request.location, describeS3Error(error), error);
    }
    for (const object of page.Contents ?? []) {
      if (object.Key === undefined) continue;
      yield { key: object.Key, etag: unquoteEtag(object.ETag), size: object.Size ?? 0 };
    }
    continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (continuationToken !== undefined);
}

/** S3 sends ETags in quotes (`"9b2cf535f27731c974343645a3985328"`); change tokens carry the bare value. */
export function unquoteEtag(etag: string | undefined): string | undefined {
  return etag?.replaceAll('"', '');
}

/** `NoSuchBucket: The specified bucket does not exist`, or the best available part of that. */
export function describeS3Error(error: unknown): string {
  if (error instanceof Error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const parts = [error.name, error.message].filter((part) => part !== '' && part !== 'Error');
    return `${parts.join(': ')}${status === undefined ? '' : ` (HTTP ${status})`}`;
  }
  return String(error);
}
