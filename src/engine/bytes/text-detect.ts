/**
 * The engine's one text detector: whether bytes are text in some encoding rather than a binary file, and the start
 * of a text file decoded well enough for markup checks. No charset tables are loaded here (the decoder, text.ts,
 * loads them), so sniffing stays cheap for every converter.
 */
/** Bytes sampled when looking at the NUL pattern. */
const NUL_SAMPLE_BYTES = 4096;
/** Bytes looked at to tell text from binary. */
const TEXT_SAMPLE_BYTES = 8192;
/** Share of C0 control characters (other than tab, line and page breaks, escape) text may hold. */
const MAX_CONTROL_SHARE = 0.01;

/**
 * True when the bytes look like text in some encoding rather than a binary file: a UTF-16 BOM or NUL pattern, or
 * no NUL byte and hardly any control characters in the first 8 KiB (legacy encodings use every byte from 0x80 up,
 * so those bytes say nothing).
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(buffer, [0xff, 0xfe]) || startsWith(buffer, [0xfe, 0xff])) return true;
  if (utf16ByNulPattern(buffer) !== null) return true;
  const sample = buffer.subarray(0, TEXT_SAMPLE_BYTES);
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    if (byte < 0x20 && !TEXT_CONTROLS.has(byte)) controls += 1;
  }
  return controls <= sample.length * MAX_CONTROL_SHARE;
}

/** Tab, line feed, vertical tab, form feed, carriage return, escape (terminal colours in logs). */
const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);

/**
 * The start of a text file for markup checks, about `chars` characters: decoded by BOM or UTF-16 NUL pattern,
 * otherwise as Latin-1 (ASCII markup reads the same in every ASCII-compatible encoding).
 */
export function textHead(bytes: Uint8Array, chars: number): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(buffer, [0xef, 0xbb, 0xbf])) return buffer.toString('latin1', 3, 3 + chars);
  if (startsWith(buffer, [0xff, 0xfe])) return buffer.subarray(2, 2 + chars * 2).toString('utf16le');
  if (startsWith(buffer, [0xfe, 0xff])) return decodeUtf16Be(buffer.subarray(2, 2 + chars * 2));
  const utf16 = utf16ByNulPattern(buffer);
  if (utf16 === 'utf-16le') return stripBom(buffer.subarray(0, chars * 2).toString('utf16le'));
  if (utf16 === 'utf-16be') return stripBom(decodeUtf16Be(buffer.subarray(0, chars * 2)));
  return buffer.toString('latin1', 0, chars);
}

function startsWith(buffer: Buffer, prefix: number[]): boolean {
  return buffer.length >= prefix.length && prefix.every((byte, index) => buffer[index] === byte);
}

function decodeUtf16Be(buffer: Buffer): string {
  const swapped = Buffer.from(buffer.subarray(0, buffer.length & ~1));
  return swapped.swap16().toString('utf16le');
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * UTF-16 without a BOM: in the sample, most code units have a zero in one half (ASCII and Latin text) and the
 * other half is hardly ever zero.
 */
export function utf16ByNulPattern(buffer: Buffer): 'utf-16le' | 'utf-16be' | null {
  const length = Math.min(buffer.length, NUL_SAMPLE_BYTES) & ~1;
  if (length < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let index = 0; index < length; index += 2) {
    if (buffer[index] === 0) evenZeros += 1;
    if (buffer[index + 1] === 0) oddZeros += 1;
  }
  const units = length / 2;
  if (oddZeros >= units * 0.4 && evenZeros <= units * 0.05) return 'utf-16le';
  if (evenZeros >= units * 0.4 && oddZeros <= units * 0.05) return 'utf-16be';
  return null;
}

