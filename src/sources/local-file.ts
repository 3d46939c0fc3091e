/**
 * One file on the local disk as a SourceFile, and reading it back: shared by the folder source and the
 * single-file source.
 */
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { addAbortSignal, type Readable } from 'node:stream';
import type { InlineFileCalls } from '../common/inline-file-calls.js';
import { fileUriOf, fsPathOfFileUri, type FsPath } from './byte-paths.js';
import { errorCodeOf, SourceReadError } from './errors.js';
import type { SourceFile } from './source.js';

/** `<mtimeMs>-<size>`: changes when the file is rewritten (same-millisecond rewrites of equal size aside). */
export function localChangeToken(stats: Pick<Stats, 'mtimeMs' | 'size'>): string {
  return `${Math.trunc(stats.mtimeMs)}-${stats.size}`;
}

export function localSourceFile(absolutePath: FsPath, relativePath: string, stats: Stats): SourceFile {
  return {
    uri: fileUriOf(absolutePath),
    relativePath,
    size: stats.size,
    changeToken: localChangeToken(stats),
  };
}

/**
 * Opens a listed file. The file is opened and checked before the stream is returned, so a file that has gone or
 * is no longer a regular file fails here, with a typed error, rather than later as a stream error mid-upload.
 */
export async function openLocalFile(file: SourceFile, signal?: AbortSignal): Promise<Readable> {
  const { handle } = await openChecked(file, signal);
  const stream = handle.createReadStream();
  return signal ? addAbortSignal(signal, stream) : stream;
}

/**
 * A listed file's bytes when it holds at most `maxBytes`, read in one go (an open, a stat, a read, a close: no stream,
 * which costs a small document more than its read); undefined when it is larger, for the caller to stream it. The same
 * typed errors as openLocalFile. Made inline by `calls` (the source's: common/inline-file-calls.ts) on a local disk
 * that answers fast, else through the thread pool.
 */
export async function readSmallLocalFile(file: SourceFile, maxBytes: number, calls: InlineFileCalls, signal?: AbortSignal): Promise<Buffer | undefined> {
  signal?.throwIfAborted();
  const bytes = await calls.call(
    () => readSmallInline(file, maxBytes),
    () => readSmallPooled(file, maxBytes),
  );
  signal?.throwIfAborted();
  return bytes;
}

function readSmallInline(file: SourceFile, maxBytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(fsPathOfFileUri(file.uri), READ_WITHOUT_BLOCKING);
  } catch (error) {
    throw openFailure(file, error);
  }
  try {
    let size: number;
    try {
      size = regularFileSize(file, fstatSync(fd));
    } catch (error) {
      throw statFailure(file, error);
    }
    if (size > maxBytes) return undefined;
    const reading = new SmallRead(size, maxBytes);
    try {
      let more = true;
      while (more) more = reading.more(readSync(fd, reading.buffer, reading.filled, reading.room, reading.filled));
    } catch (error) {
      throw readFailure(file, error);
    }
    return reading.bytes();
  } finally {
    closeSync(fd);
  }
}

async function readSmallPooled(file: SourceFile, maxBytes: number): Promise<Buffer | undefined> {
  const { handle, size } = await openChecked(file);
  try {
    if (size > maxBytes) return undefined;
    const reading = new SmallRead(size, maxBytes);
    try {
      let more = true;
      while (more) more = reading.more((await handle.read(reading.buffer, reading.filled, reading.room, reading.filled)).bytesRead);
    } catch (error) {
      throw readFailure(file, error);
    }
    return reading.bytes();
  } finally {
    await handle.close();
  }
}

/**
 * A small file read into one buffer, sized from its stat. One byte more than that size is asked for: a file grown
 * since fills the buffer, and is read on, up to the limit.
 */
class SmallRead {
  buffer: Buffer;
  filled = 0;
  #tooLarge = false;
  readonly #maxBytes: number;

  constructor(size: number, maxBytes: number) {
    this.buffer = Buffer.allocUnsafe(size + 1);
    this.#maxBytes = maxBytes;
  }

  /** Room left in the buffer: what the next read asks for. */
  get room(): number {
    return this.buffer.byteLength - this.filled;
  }

  /** Takes a read's count; whether to read on. */
  more(bytesRead: number): boolean {
    this.filled += bytesRead;
    if (this.filled > this.#maxBytes) {
      this.#tooLarge = true;
      return false;
    }
    // A read of a regular file that returns less than asked has reached its end (libuv and Node retry one a signal
    // interrupted): the usual small file takes one read.
    if (bytesRead === 0 || this.filled < this.buffer.byteLength) return false;
    const grown = Buffer.allocUnsafe(Math.min(this.buffer.byteLength * 2, this.#maxBytes + 1));
    this.buffer.copy(grown, 0, 0, this.filled);
    this.buffer = grown;
    return true;
  }

  /** The bytes read, or undefined when the file grew past the limit. */
  bytes(): Buffer | undefined {
    return this.#tooLarge ? undefined : this.buffer.subarray(0, this.filled);
  }
}

/** A listed file opened and found to be a regular file still, with its size now; typed errors otherwise. */
async function openChecked(file: SourceFile, signal?: AbortSignal): Promise<{ handle: FileHandle; size: number }> {
  signal?.throwIfAborted();
  let handle;
  try {
    handle = await open(fsPathOfFileUri(file.uri), READ_WITHOUT_BLOCKING);
  } catch (error) {
    throw openFailure(file, error);
  }
  try {
    return { handle, size: regularFileSize(file, await handle.stat()) };
  } catch (error) {
    await handle.close();
    throw statFailure(file, error);
  }
}

function openFailure(file: SourceFile, error: unknown): SourceReadError {
  const code = errorCodeOf(error);
  const failure = code === 'ENOENT' ? 'missing' : code === 'EISDIR' ? 'not-a-file' : 'io';
  return new SourceReadError(file.relativePath, failure, `${describeOpenFailure(code)} (${code})`, error);
}

/** The size of a listed file found still a regular file; a typed error when it is no longer one. */
function regularFileSize(file: SourceFile, stats: Stats): number {
  if (!stats.isFile()) throw new SourceReadError(file.relativePath, 'not-a-file', 'it is no longer a regular file');
  return stats.size;
}

function statFailure(file: SourceFile, error: unknown): SourceReadError {
  return error instanceof SourceReadError ? error : new SourceReadError(file.relativePath, 'io', `stat failed (${errorCodeOf(error)})`, error);
}

function readFailure(file: SourceFile, error: unknown): SourceReadError {
  return new SourceReadError(file.relativePath, 'io', `read failed (${errorCodeOf(error)})`, error);
}

/**
 * O_NONBLOCK so that a path replaced by a FIFO fails the regular-file check below instead of hanging in open()
 * until some writer appears; it changes nothing for regular files. Windows has no such flag (nor FIFOs there).
 */
const READ_WITHOUT_BLOCKING = fsConstants.O_RDONLY | ((fsConstants.O_NONBLOCK as number | undefined) ?? 0);

function describeOpenFailure(code: string): string {
  switch (code) {
    case 'ENOENT':
      return 'it no longer exists';
    case 'EISDIR':
      return 'it is now a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return 'open failed';
  }
}
