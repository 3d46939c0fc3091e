/**
 * Local paths whose bytes are not UTF-8. A Linux file name is bytes: archives unpacked from old zips or copied from
 * older systems hold names in Latin-1 or a code page (`R\xe9sum\xe9.pdf`). Node decodes names as UTF-8 and puts
 * U+FFFD in place of such bytes, and that string names no file: the file could be neither read nor told apart from
 * its neighbours. Here such a path stays bytes (a Buffer, which every fs call takes) for reading, its `file:` URI
 * carries them percent-encoded, and its text, the relative path the outputs and the manifest are named by, writes
 * each byte that is no part of a UTF-8 character as `%XX` (`R%E9sum%E9.pdf`). A name that is UTF-8 is its own
 * text, unchanged.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A path as fs calls take it: text, or bytes where its names are not UTF-8. */
export type FsPath = string | Buffer;

const SLASH = 0x2f;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The length of the UTF-8 character `bytes` holds at `at`, or 0 when none starts there. */
function characterLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at]!;
  if (lead < 0x80) return 1;
  const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length === 0 || at + length > bytes.length) return 0;
  try {
    // The fatal decoder refuses overlong forms, surrogates and code points past U+10FFFF.
    UTF8.decode(bytes.subarray(at, at + length));
    return length;
  } catch {
    return 0;
  }
}

function hexByte(byte: number): string {
  return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** Whether `bytes` are UTF-8 throughout. */
function isUtf8(bytes: Uint8Array): boolean {
  try {
    UTF8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A name's (or a path's) bytes as text: UTF-8 as it is, each byte outside a UTF-8 character as `%XX`. */
export function bytesText(bytes: Uint8Array): string {
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  let text = '';
  for (let at = 0; at < bytes.length; ) {
    const length = characterLength(bytes, at);
    text += length === 0 ? hexByte(bytes[at]!) : Buffer.from(bytes.subarray(at, at + length)).toString('utf8');
    at += Math.max(1, length);
  }
  return text;
}

/** A directory entry's name read as bytes: its text, and the bytes themselves when they are not UTF-8. */
export interface EntryName {
  text: string;
  /** Set only when the name is not UTF-8: then the entry's path must be bytes. */
  bytes?: Buffer;
}

export function entryName(bytes: Buffer): EntryName {
  return isUtf8(bytes) ? { text: bytes.toString('utf8') } : { text: bytesText(bytes), bytes };
}

/** `parent`/`name`: text while every name on the way is UTF-8, bytes from the first that is not. */
export function childPath(parent: FsPath, name: EntryName): FsPath {
  if (typeof parent === 'string' && !name.bytes) return parent.endsWith('/') ? `${parent}${name.text}` : `${parent}/${name.text}`;
  const head = typeof parent === 'string' ? Buffer.from(parent, 'utf8') : parent;
  const tail = name.bytes ?? Buffer.from(name.text, 'utf8');
  const separator = head[head.length - 1] === SLASH ? [] : [Buffer.from('/')];
  return Buffer.concat([head, ...separator, tail]);
}

/** A path's text, for comparing paths and for messages. */
export function pathText(path: FsPath): string {
  return typeof path === 'string' ? path : bytesText(path);
}

/** Bytes kept as they are in a `file:` URI's path. */
function isUriSafe(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x2d || byte === 0x2e || byte === 0x5f || byte === 0x7e || byte === SLASH
  );
}

/** The `file:` URI of an absolute path; one held as bytes has them percent-encoded, each as it is. */
export function fileUriOf(path: FsPath): string {
  if (typeof path === 'string') return pathToFileURL(path).href;
  let encoded = '';
  for (const byte of path) encoded += isUriSafe(byte) ? String.fromCharCode(byte) : hexByte(byte);
  return `file://${encoded}`;
}

/** The path a `file:` URI names: text, or bytes when its percent-encoded bytes are not UTF-8. */
export function fsPathOfFileUri(uri: string): FsPath {
  try {
    return fileURLToPath(uri);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    return Buffer.from(percentDecoded(new URL(uri).pathname));
  }
}

/** A URL's path (ASCII: the URL parser percent-encodes the rest) as the bytes it encodes. */
function percentDecoded(path: string): Uint8Array {
  const out: number[] = [];
  for (let at = 0; at < path.length; at++) {
    const hex = path[at] === '%' ? path.slice(at + 1, at + 3) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(Number.parseInt(hex, 16));
      at += 2;
    } else {
      out.push(path.charCodeAt(at));
    }
  }
  return Uint8Array.from(out);
}
