/**
 * One file on the local disk as a SourceFile, and reading it back: shared by the folder source and the
 * single-file source.
 */
import { constants as fsConstants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { addAbortSignal, type Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { errorCodeOf, SourceReadError } from './errors.js';
import type { SourceFile } from './source.js';

/** `<mtimeMs>-<size>`: changes when the file is rewritten (same-millisecond rewrites of equal size aside). */
export function localChangeToken(stats: Pick<Stats, 'mtimeMs' | 'size'>): string {
  return `${Math.trunc(stats.mtimeMs)}-${stats.size}`;
}

export function localSourceFile(absolutePath: string, relativePath: string, stats: Stats): SourceFile {
  return {
    uri: pathToFileURL(absolutePath).href,
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
 * typed errors as openLocalFile.
 */
export async function readSmallLocalFile(file: SourceFile, maxBytes: number, signal?: AbortSignal): Promise<Buffer | undefined> {
  const { handle, size } = await openChecked(file, signal);
  try {
    if (size > maxBytes) return undefined;
    // One byte more than its size at the stat: a file grown since fills the buffer, and is read on, up to the limit.
    let buffer = Buffer.allocUnsafe(size + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.byteLength - filled, filled);
      filled += bytesRead;
      if (filled > maxBytes) return undefined;
      // A read of a regular file that returns less than asked has reached its end (libuv retries one a signal
      // interrupted): the usual small file takes one read.
      if (bytesRead === 0 || filled < buffer.byteLength) break;
      const grown = Buffer.allocUnsafe(Math.min(buffer.byteLength * 2, maxBytes + 1));
      buffer.copy(grown, 0, 0, filled);
      buffer = grown;
    }
    signal?.throwIfAborted();
    return buffer.subarray(0, filled);
  } catch (error) {
    if (error instanceof SourceReadError || signal?.aborted) throw error;
    throw new SourceReadError(file.relativePath, 'io', `read failed (${errorCodeOf(error)})`, error);
  } finally {
    await handle.close();
  }
}

/** A listed file opened and found to be a regular file still, with its size now; typed errors otherwise. */
async function openChecked(file: SourceFile, signal?: AbortSignal): Promise<{ handle: FileHandle; size: number }> {
  signal?.throwIfAborted();
  const path = fileURLToPath(file.uri);
  let handle;
  try {
    handle = await open(path, READ_WITHOUT_BLOCKING);
  } catch (error) {
    const code = errorCodeOf(error);
    const failure = code === 'ENOENT' ? 'missing' : code === 'EISDIR' ? 'not-a-file' : 'io';
    throw new SourceReadError(file.relativePath, failure, `${describeOpenFailure(code)} (${code})`, error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new SourceReadError(file.relativePath, 'not-a-file', 'it is no longer a regular file');
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close();
    if (error instanceof SourceReadError) throw error;
    throw new SourceReadError(file.relativePath, 'io', `stat failed (${errorCodeOf(error)})`, error);
  }
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
