/**
 * Errors raised by sources, each with a stable `code` (see DocmillError). Messages name the path or key involved,
 * so a log line alone says which file or location is at fault.
 */
import { DocmillError } from '../errors/docmill-error.js';

/** Why a listed file could not be opened. */
export type SourceReadFailure =
  /** It no longer exists. */
  | 'missing'
  /** It is no longer a regular file (replaced by a directory, a FIFO...). */
  | 'not-a-file'
  /** Its content changed since it was listed (S3: the ETag no longer matches). */
  | 'changed'
  /** Anything else: permissions, I/O, network. */
  | 'io';

/** A listed file could not be opened for reading. */
export class SourceReadError extends DocmillError {
  constructor(
    /** The path below the source root (local) or the object key (S3). */
    readonly path: string,
    readonly failure: SourceReadFailure,
    reason: string,
    cause?: unknown,
  ) {
    super('SOURCE_UNREADABLE', `Cannot read ${path}: ${reason}`, { cause });
  }
}

/** The location given as a source does not exist, or is neither a directory nor a file. */
export class SourceNotFoundError extends DocmillError {
  constructor(readonly location: string, reason: string, cause?: unknown) {
    super('SOURCE_NOT_FOUND', `Source ${location} ${reason}`, { cause });
  }
}

/** A source could not be listed at all (root unreadable, bucket missing, access denied, network down). */
export class SourceListError extends DocmillError {
  constructor(readonly location: string, reason: string, cause?: unknown) {
    super('SOURCE_LIST_FAILED', `Cannot list ${location}: ${reason}`, { cause });
  }
}

/** An `s3://bucket/prefix` location that cannot be used. */
export class S3UrlError extends DocmillError {
  constructor(readonly url: string, reason: string) {
    super('S3_INVALID_URL', `Invalid S3 location "${url}": ${reason}`);
  }
}

/** The S3 watch checkpoint file exists but cannot be used (not ours, for another location, or damaged). */
export class CheckpointError extends DocmillError {
  constructor(readonly path: string, reason: string, cause?: unknown) {
    super('SOURCE_CHECKPOINT_INVALID', `Checkpoint ${path} cannot be used: ${reason}`, { cause });
  }
}

/**
 * The S3 listing did not come in UTF-8 binary key order. General purpose buckets always list in that order; the
 * watch's checkpoint comparison depends on it (see s3-change-detector.ts), so it refuses rather than guess.
 */
export class S3ListingOrderError extends DocmillError {
  constructor(readonly location: string, previousKey: string, key: string) {
    super(
      'S3_LISTING_UNORDERED',
      `The listing of ${location} is not in key order ("${key}" came after "${previousKey}"); ` +
        'watching needs a store that lists keys in UTF-8 binary order, as S3 general purpose buckets do',
    );
  }
}

/** The `code` of a Node.js system error (ENOENT, EACCES...), or the error's name when it has none. */
export function errorCodeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string') return name;
  }
  return 'UNKNOWN';
}
