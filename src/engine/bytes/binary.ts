/**
 * Little-endian readers and byte helpers for the container readers and the sniffer (reads past the end give zeros,
 * never throw).
 */

export function readU16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

export function readU32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 24)) >>> 0
  );
}

export function readU64(bytes: Uint8Array, at: number): number {
  // Offsets and sizes beyond 2^53 cannot be in a 50 MiB upload: a Number is exact for every value that matters.
  return readU32(bytes, at) + readU32(bytes, at + 4) * 0x1_0000_0000;
}

export function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((byte, index) => bytes[at + index] === byte);
}

/** Bytes as Latin-1 text: every byte one character, so ASCII signatures and markup survive any encoding. */
export function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', start, Math.min(end, bytes.length));
}

export function utf8(bytes: Uint8Array, start: number, end: number): string {
  return new TextDecoder('utf-8').decode(bytes.subarray(start, end));
}
