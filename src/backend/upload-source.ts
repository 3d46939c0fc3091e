/**
 * What the client uploads: a name, a size, and a way to open the bytes afresh for each attempt.
 * Bytes are streamed; only a small file may be held whole in memory (src/pipeline/materialise.ts).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { FileReadError, InvalidSourceError, kindOf } from './errors.js';

export interface UploadSource {
  /** Name sent as the multipart `filename`; its extension selects the content type. */
  fileName: string;
  /** Exact byte length: checked against the 50 MB limit before sending, and sent as part of Content-Length. */
  size: number;
  /** A fresh stream of the bytes; called once per attempt. */
  open(): AsyncIterable<Uint8Array>;
}

/**
 * All the bytes of a stream of chunks in one array. A stream of one chunk (a small file held in memory, bytes already
 * read) gives that chunk as it is, not a copy: the callers only read it.
 */
export async function collectBytes(chunks: AsyncIterable<Uint8Array>, signal?: AbortSignal): Promise<Uint8Array> {
  const collected: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    signal?.throwIfAborted();
    collected.push(chunk);
    size += chunk.byteLength;
  }
  return collected.length === 1 ? collected[0]! : Buffer.concat(collected, size);
}

/** All of an upload's bytes in one array (collectBytes). */
export function readUploadBytes(source: UploadSource, signal?: AbortSignal): Promise<Uint8Array> {
  return collectBytes(source.open(), signal);
}

/** An UploadSource for bytes already in memory (standard input, say), named `fileName`. */
export function bytesUploadSource(fileName: string, bytes: Uint8Array): UploadSource {
  return {
    fileName,
    size: bytes.byteLength,
    open: async function* () {
      yield bytes;
    },
  };
}

/** An UploadSource for a local file, after checking that it exists and is a regular file. */
export async function localFileSource(path: string): Promise<UploadSource> {
  if (typeof path !== 'string') throw new InvalidSourceError(`the path of the file to parse is ${kindOf(path)}, not a string`);
  let stats;
  try {
    stats = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A URL reads as a path no file has: say what is meant instead.
    const missing = /^(?:https?|s3|ftp):\/\//i.test(path) ? 'no such file: a local file is read here, not a URL (download it first)' : 'no such file';
    const reason = code === 'ENOENT' ? missing : code === 'EACCES' ? 'permission denied' : `cannot read (${code})`;
    throw new FileReadError(path, reason, error);
  }
  if (!stats.isFile()) throw new FileReadError(path, 'not a regular file');
  return {
    fileName: basename(path),
    size: stats.size,
    // Up to the size stated (the length an upload announces): a file that fits one chunk is then read into one
    // buffer of its own size, not into a 256 kB one copied to fit and read again to find the end.
    open: () => createReadStream(path, { highWaterMark: 256 * 1024, ...(stats.size > 0 ? { end: stats.size - 1 } : {}) }),
  };
}
