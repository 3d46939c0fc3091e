/**
 * One file on the local disk as a SourceFile, and reading it back: shared by the folder source and the
 * single-file source.
 */
import { constants as fsConstants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
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
  } catch (error) {
    await handle.close();
    if (error instanceof SourceReadError) throw error;
    throw new SourceReadError(file.relativePath, 'io', `stat failed (${errorCodeOf(error)})`, error);
  }
  const stream = handle.createReadStream();
  return signal ? addAbortSignal(signal, stream) : stream;
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
