/**
 * The subtypes a PDF's dictionaries name in the clear (`/Subtype /Form`, `/Image`, `/Link`...), read from the bytes
 * without opening the document. A stream's dictionary is never inside an object stream, so every image and form
 * XObject of the file is found here. A name written with a #-escape (`/Im#61ge`) is given as written.
 */

const KEY = Buffer.from('/Subtype', 'latin1');
const SLASH = 0x2f;
/** PDF white-space characters: NUL, tab, line feed, form feed, carriage return, space. */
const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
/** What ends a name besides white space: the delimiters ( ) < > [ ] { } / %. */
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

/** Each document's answer, while its bytes live: mode auto's reading and the picture reader both ask. */
const answers = new WeakMap<Uint8Array, ReadonlySet<string>>();

/** The names given after every `/Subtype` key of the file (one pass over its bytes, no copy of them as a string). */
export function subtypesNamed(bytes: Uint8Array): ReadonlySet<string> {
  let found = answers.get(bytes);
  if (!found) {
    found = readSubtypes(bytes);
    answers.set(bytes, found);
  }
  return found;
}

function readSubtypes(bytes: Uint8Array): Set<string> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = new Set<string>();
  for (let at = buffer.indexOf(KEY); at >= 0; at = buffer.indexOf(KEY, at + KEY.length)) {
    let start = at + KEY.length;
    while (start < buffer.length && WHITESPACE.has(buffer[start]!)) start++;
    if (buffer[start] !== SLASH) continue;
    let end = start + 1;
    while (end < buffer.length && !WHITESPACE.has(buffer[end]!) && !DELIMITERS.has(buffer[end]!)) end++;
    found.add(buffer.toString('latin1', start + 1, end));
  }
  return found;
}
