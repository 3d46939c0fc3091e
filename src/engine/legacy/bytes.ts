/** Little-endian reads that never throw: bytes past the end read as 0 (callers check lengths where it matters). */
import iconv from 'iconv-lite';
import { readU16, readU32 } from '../bytes/binary.js';

export { readU16, readU32 };

export function readU8(bytes: Uint8Array, at: number): number {
  return bytes[at] ?? 0;
}

export function readI16(bytes: Uint8Array, at: number): number {
  const value = readU16(bytes, at);
  return value >= 0x8000 ? value - 0x10000 : value;
}

export function readI32(bytes: Uint8Array, at: number): number {
  return readU32(bytes, at) | 0;
}

const UTF16 = new TextDecoder('utf-16le');

/** UTF-16LE text of `count` code units from `at` (clipped to the bytes). */
export function utf16(bytes: Uint8Array, at: number, count: number): string {
  const end = Math.min(bytes.length, at + count * 2);
  return at >= end ? '' : UTF16.decode(bytes.subarray(at, end - ((end - at) % 2)));
}

/** Windows-1252 text of `count` bytes from `at` (clipped): Word's "compressed" text and PowerPoint's TextBytesAtom. */
export function cp1252(bytes: Uint8Array, at: number, count: number): string {
  const end = Math.min(bytes.length, at + count);
  // iconv-lite, not TextDecoder: Node builds without full ICU decode 'windows-1252' as Latin-1 (0x93 stays U+0093).
  return at >= end ? '' : iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset + at, end - at), 'windows-1252');
}

/** Latin-1 text of `count` bytes from `at` (clipped): each byte is the code point. */
export function latin1(bytes: Uint8Array, at: number, count: number): string {
  const end = Math.min(bytes.length, at + count);
  return at >= end ? '' : Buffer.from(bytes.buffer, bytes.byteOffset + at, end - at).toString('latin1');
}
