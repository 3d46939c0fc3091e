/**
 * Errors of the output stores, one class per kind, each with a stable `code`. Errors about one object or file
 * name its key (relative to the store root), so a log line says which output failed.
 */
import { DocmillError } from '../errors/docmill-error.js';
import { RunBlockedError } from '../errors/run-blocked.js';

/** A source path that leaves nothing usable once made safe (`.`, `..`, `/`, an empty string...). */
export class UnsafePathError extends DocmillError {
  readonly input: string;

  constructor(input: string, reason: string) {
    super('STORE_UNSAFE_PATH', `Unsafe relative path ${JSON.stringify(input)}: ${reason}`);
    this.input = input;
  }
}

/** A key that would resolve outside the store root. safeRelativePath makes this unreachable; it is a last guard. */
export class PathEscapeError extends DocmillError {
  readonly key: string;

  constructor(key: string, root: string) {
    super('STORE_PATH_ESCAPE', `Refusing to touch ${JSON.stringify(key)}: it resolves outside the store root ${root}`);
    this.key = key;
  }
}

/** A read that failed for another reason than "not there" (missing objects and files read as undefined). */
export class StoreReadError extends DocmillError {
  readonly key: string;

  constructor(key: string, cause: unknown) {
    super('STORE_READ_FAILED', `Could not read ${key}: ${describe(cause)}`, { cause });
    this.key = key;
  }
}

export class StoreWriteError extends DocmillError {
  readonly key: string;

  constructor(key: string, cause: unknown) {
    super('STORE_WRITE_FAILED', `Could not write ${key}: ${describe(cause)}`, { cause });
    this.key = key;
  }
}

/** The reasons a file system gives for taking no more writes at all, whoever writes: what blocks a run. */
const WRITES_REFUSED: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
};

/**
 * The output takes no more writes (no space left, a quota used up, a read-only file system): no document is at fault
 * and none can be written until it is repaired, so a run stops at the first (RunBlockedError).
 */
export class StoreFullError extends RunBlockedError {
  constructor(
    readonly key: string,
    reason: string,
    cause: unknown,
  ) {
    super('STORE_FULL', `the output cannot be written: ${reason} (writing ${key})`, 'make room on it, or make it writable', { cause });
  }
}

/**
 * Why the file system refuses every write, for an error whose code says it does (ENOSPC...); undefined otherwise. (An
 * S3 output's missing bucket or refused credentials fail the run's first read of the store, before anything is sent.)
 */
export function refusedWritesReason(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code in WRITES_REFUSED ? WRITES_REFUSED[code] : undefined;
}

/** `error` as a StoreFullError when it is a write the file system refused for every writer; undefined otherwise. */
export function writesRefused(error: unknown): StoreFullError | undefined {
  if (error instanceof StoreFullError) return error;
  const key = error instanceof StoreWriteError ? error.key : 'an output';
  const reason = refusedWritesReason(error instanceof StoreWriteError ? error.cause : error);
  return reason === undefined ? undefined : new StoreFullError(key, reason, error);
}

/** A state or index record that is not what docmill writes (edited by hand, or from an incompatible version). */
export class InvalidRecordError extends DocmillError {
  readonly key: string;

  constructor(key: string, reason: string) {
    super('STORE_INVALID_RECORD', `Invalid record ${key}: ${reason}`);
    this.key = key;
  }
}

/** copyDocument found an output its state lists missing from the store (deleted since): parse again instead. */
export class OutputMissingError extends DocmillError {
  readonly key: string;

  constructor(key: string) {
    super('STORE_OUTPUT_MISSING', `Output ${key} is recorded but no longer exists in the store`);
    this.key = key;
  }
}

export class InvalidLocationError extends DocmillError {
  readonly location: string;

  constructor(location: string, reason: string) {
    super('STORE_INVALID_LOCATION', `Invalid output location ${JSON.stringify(location)}: ${reason}`);
    this.location = location;
  }
}

/** A manifest append after close(): the line could no longer be flushed. */
export class StoreClosedError extends DocmillError {
  constructor(location: string) {
    super('STORE_CLOSED', `The output store ${location} is closed`);
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
  }
  return String(cause);
}
