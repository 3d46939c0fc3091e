/**
 * Reads a file's lines from its end backwards, in chunks: a look back over the newest lines of a manifest that may
 * have grown to millions costs only the bytes it reads. Lines are split at the newline byte, which never occurs
 * inside a UTF-8 sequence.
 */
import type { FileHandle } from 'node:fs/promises';

const NEWLINE = 0x0a;
const CHUNK_BYTES = 64 * 1024;

/**
 * The lines of the open file, last first, within its last `maxBytes` (a line cut by that bound is left out). A
 * final line without its newline is a line too (a reader skips it if torn).
 */
export async function* linesFromEnd(handle: FileHandle, maxBytes: number, chunkBytes = CHUNK_BYTES): AsyncGenerator<string> {
  const { size } = await handle.stat();
  const floor = Math.max(0, size - maxBytes);
  let end = size;
  let carry = Buffer.alloc(0);
  while (end > floor) {
    const start = Math.max(floor, end - chunkBytes);
    const buffer = Buffer.concat([await readRange(handle, start, end), carry]);
    let lineEnd = buffer.length;
    for (let index = buffer.length - 1; index >= 0; index--) {
      if (buffer[index] !== NEWLINE) continue;
      if (index + 1 < lineEnd) yield buffer.toString('utf8', index + 1, lineEnd);
      lineEnd = index;
    }
    carry = buffer.subarray(0, lineEnd);
    end = start;
  }
  if (floor === 0 && carry.length > 0) yield carry.toString('utf8');
}

async function readRange(handle: FileHandle, start: number, end: number): Promise<Buffer> {
  const buffer = Buffer.alloc(end - start);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
    if (bytesRead === 0) return buffer.subarray(0, filled);
    filled += bytesRead;
  }
  return buffer;
}
