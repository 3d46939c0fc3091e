/**
 * One poll of the S3 watch: the current listing and the previous checkpoint, both in key order, walked side by
 * side like the merge step of a merge sort. A key absent from the checkpoint is new; a key whose ETag differs has
 * changed; checkpoint keys passed over were deleted and are dropped. Every current key is written to the next
 * checkpoint as it goes. Memory use is constant, whatever the number of keys.
 *
 * Why not remember only the newest LastModified seen: a multipart upload's LastModified is when the upload
 * started, so an object completed after a poll can carry a time before it and would be missed for good.
 */
import { S3ListingOrderError } from './errors.js';
import type { CheckpointEntry, CheckpointWriter } from './s3-checkpoint.js';
import { compareS3Keys } from './s3-key-order.js';
import type { SourceFile } from './source.js';

export interface ListedObject {
  key: string;
  etag: string;
  file: SourceFile;
}

/** A new or changed file, or a recorded key the listing no longer has. */
export type ObjectChange = { kind: 'changed'; file: SourceFile } | { kind: 'gone'; key: string };

/**
 * Yields the new and changed files of `current`, and the recorded keys it no longer lists. With no `previous`
 * checkpoint, records the baseline and yields nothing. Throws S3ListingOrderError if the listing is not in key order,
 * as the comparison depends on it.
 */
export async function* detectChanges(
  current: AsyncIterable<ListedObject>,
  previous: AsyncIterable<CheckpointEntry> | undefined,
  next: CheckpointWriter,
  location: string,
): AsyncGenerator<ObjectChange> {
  const recorded = previous?.[Symbol.asyncIterator]();
  try {
    let candidate = recorded ? await advance(recorded) : undefined;
    let previousKey: string | undefined;
    for await (const object of current) {
      if (previousKey !== undefined && compareS3Keys(previousKey, object.key) >= 0) {
        throw new S3ListingOrderError(location, previousKey, object.key);
      }
      previousKey = object.key;
      // The recorded keys that sort before this one are gone from the bucket (or the selection).
      while (recorded && candidate && compareS3Keys(candidate.key, object.key) < 0) {
        yield { kind: 'gone', key: candidate.key };
        candidate = await advance(recorded);
      }
      const unchanged = candidate?.key === object.key && candidate.etag === object.etag;
      await next.append({ key: object.key, etag: object.etag });
      if (recorded && !unchanged) yield { kind: 'changed', file: object.file };
    }
    for (; recorded && candidate; candidate = await advance(recorded)) {
      if (candidate.key !== previousKey) yield { kind: 'gone', key: candidate.key };
    }
  } finally {
    await recorded?.return?.();
  }
}

async function advance(iterator: AsyncIterator<CheckpointEntry>): Promise<CheckpointEntry | undefined> {
  const result = await iterator.next();
  return result.done ? undefined : result.value;
}
