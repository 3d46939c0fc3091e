/**
 * Makes a listed file available for upload and learns its sha256 on the way, holding at most a buffer in memory.
 * Local files are hashed in place and uploaded from where they are; remote ones (S3) are spooled to a temporary
 * file while hashed, since the bytes are needed twice (hash, then upload and maybe retries). A small local file
 * (SMALL_FILE_BYTES) is kept in memory once read for its hash and uploaded from there: read once, not twice, which is
 * most of the file system's share of a small document's cost (bench/small-docs.ts), and the bytes parsed are then
 * the bytes hashed. A source that can hand over a small file in one piece (Source.readSmall: the local ones) is read so,
 * without a stream.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadSource } from '../backend/upload-source.js';
import { fsPathOfFileUri } from '../sources/byte-paths.js';
import type { Source, SourceFile } from '../sources/source.js';

export interface MaterialisedFile {
  upload: UploadSource;
  sha256: string;
  size: number;
  /** Removes any spool file. */
  dispose(): Promise<void>;
}

/** Local files up to this size are held in memory between their hash and their upload (one per open job at most). */
const SMALL_FILE_BYTES = 1024 * 1024;

function baseName(relativePath: string): string {
  return relativePath.slice(relativePath.lastIndexOf('/') + 1);
}

/** The held bytes as an upload stream: one chunk, the same for every attempt. */
async function* heldBytes(bytes: Buffer): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** A small local file held in memory once read: hashed from those bytes and uploaded from them, nothing to remove. */
function heldFile(file: SourceFile, bytes: Buffer, sha256: string): MaterialisedFile {
  return {
    upload: { fileName: baseName(file.relativePath), size: bytes.byteLength, open: () => heldBytes(bytes) },
    sha256,
    size: bytes.byteLength,
    dispose: async () => undefined,
  };
}

export async function materialise(source: Source, file: SourceFile, signal?: AbortSignal): Promise<MaterialisedFile> {
  if (file.uri.startsWith('file:')) {
    const path = fsPathOfFileUri(file.uri);
    const whole = file.size <= SMALL_FILE_BYTES ? await source.readSmall?.(file, SMALL_FILE_BYTES, signal) : undefined;
    if (whole !== undefined) {
      const bytes = Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength);
      return heldFile(file, bytes, createHash('sha256').update(bytes).digest('hex'));
    }
    const hash = createHash('sha256');
    let size = 0;
    const kept: Buffer[] | undefined = file.size <= SMALL_FILE_BYTES ? [] : undefined;
    // Read through the source so a vanished file gets the source's own clear error.
    const stream = await source.open(file, signal);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.byteLength;
      // A file grown past the limit since it was listed is read again for its upload, as a large one is.
      if (kept && size <= SMALL_FILE_BYTES) kept.push(chunk);
    }
    if (kept && size <= SMALL_FILE_BYTES) return heldFile(file, Buffer.concat(kept, size), hash.digest('hex'));
    return {
      upload: { fileName: baseName(file.relativePath), size, open: () => createReadStream(path) },
      sha256: hash.digest('hex'),
      size,
      dispose: async () => undefined,
    };
  }
  const directory = await mkdtemp(join(tmpdir(), 'docmill-spool-'));
  const spool = join(directory, 'body');
  try {
    const hash = createHash('sha256');
    const hasher = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    await pipeline(await source.open(file, signal), hasher, createWriteStream(spool), signal ? { signal } : {});
    const { size } = await stat(spool);
    return {
      upload: { fileName: baseName(file.relativePath), size, open: () => createReadStream(spool) },
      sha256: hash.digest('hex'),
      size,
      dispose: () => rm(directory, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
