/**
 * Just enough of PDF's object syntax to read an image's dictionary, and the objects it names, from the file's bytes
 * where they stand in the clear: a dictionary's entries as the text of their values, and the text of an indirect
 * object. Pure; anything it does not recognise is undefined, and the caller then asks PDFium, as before.
 */

/** A dictionary's entries: each key without its slash, to the text of its value (`8`, `/DeviceRGB`, `12 0 R`, `[...]`, `<<...>>`). */
export type PdfDictionary = ReadonlyMap<string, string>;

const WHITE = /[\0\t\n\f\r ]/;
const DELIMITER = /[\0\t\n\f\r ()<>[\]{}/%]/;

/** Where the value starting at `at` ends (one past its last character); -1 when it is not a value this reads. */
function valueEnd(text: string, at: number): number {
  const first = text[at];
  if (first === undefined) return -1;
  if (first === '<' && text[at + 1] === '<') return closing(text, at, '<<', '>>');
  if (first === '[') return closing(text, at, '[', ']');
  if (first === '(') return stringEnd(text, at);
  if (first === '<') {
    const end = text.indexOf('>', at);
    return end < 0 ? -1 : end + 1;
  }
  let end = at + 1;
  while (end < text.length && !DELIMITER.test(text[end]!)) end++;
  // A number followed by `<generation> R` is a reference: one value.
  const reference = /^\s+\d+\s+R(?![^\0\t\n\f\r ()<>[\]{}/%])/.exec(text.slice(end, end + 24));
  if (/^\d+$/.test(text.slice(at, end)) && reference) return end + reference[0].length;
  return end;
}

/** The end of the bracketed value opening at `at` (nested ones and strings inside skipped). */
function closing(text: string, at: number, open: string, close: string): number {
  let depth = 0;
  for (let i = at; i < text.length; ) {
    if (text.startsWith(open, i)) {
      depth++;
      i += open.length;
    } else if (text.startsWith(close, i)) {
      depth--;
      i += close.length;
      if (depth === 0) return i;
    } else if (text[i] === '(') {
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      i = end;
    } else if (open === '[' && text.startsWith('<<', i)) {
      const end = closing(text, i, '<<', '>>');
      if (end < 0) return -1;
      i = end;
    } else if (open === '<<' && text[i] === '[') {
      const end = closing(text, i, '[', ']');
      if (end < 0) return -1;
      i = end;
    } else i++;
  }
  return -1;
}

function stringEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

/** The entries of the dictionary that `text` starts with (white space first allowed); undefined when it is not one. */
export function parseDictionary(text: string): PdfDictionary | undefined {
  let at = 0;
  while (at < text.length && WHITE.test(text[at]!)) at++;
  if (!text.startsWith('<<', at)) return undefined;
  const end = closing(text, at, '<<', '>>');
  if (end < 0) return undefined;
  const entries = new Map<string, string>();
  for (let i = at + 2; i < end - 2; ) {
    const c = text[i]!;
    if (WHITE.test(c)) {
      i++;
      continue;
    }
    if (c !== '/') return undefined;
    let keyEnd = i + 1;
    while (keyEnd < end && !DELIMITER.test(text[keyEnd]!)) keyEnd++;
    let valueAt = keyEnd;
    while (valueAt < end && WHITE.test(text[valueAt]!)) valueAt++;
    const valueStop = valueEnd(text, valueAt);
    if (valueStop < 0 || valueStop > end - 2) return undefined;
    entries.set(text.slice(i + 1, keyEnd), text.slice(valueAt, valueStop));
    i = valueStop;
  }
  return entries;
}

/** A direct non-negative integer (`8`, not `8 0 R`); undefined for anything else. */
export function integerValue(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** `[n g]` of a reference value (`12 0 R`); undefined for anything else. */
export function referenceValue(value: string | undefined): [number, number] | undefined {
  const match = value === undefined ? null : /^(\d+)\s+(\d+)\s+R$/.exec(value);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** The items of an array value (`[/ICCBased 12 0 R]` → `/ICCBased`, `12 0 R`); undefined when it is not one. */
export function arrayItems(value: string): string[] | undefined {
  if (!value.startsWith('[') || !value.endsWith(']')) return undefined;
  const items: string[] = [];
  for (let i = 1; i < value.length - 1; ) {
    if (WHITE.test(value[i]!)) {
      i++;
      continue;
    }
    const end = valueEnd(value, i);
    if (end < 0 || end > value.length - 1) return undefined;
    items.push(value.slice(i, end));
    i = end;
  }
  return items;
}

/** How much of an object's text is read: an image's or colour space's dictionary is some hundred bytes. */
const MAX_OBJECT = 4096;

/**
 * The text of indirect object `number generation` (the last definition in the file, as a reader updating the file
 * would take it), between `obj` and `endobj` or `stream`; undefined when it is not in the clear.
 */
export function objectText(file: Uint8Array, number: number, generation: number): { text: string; streamAt?: number } | undefined {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const header = `${number} ${generation} obj`;
  const at = lastObject(bytes, header);
  if (at < 0) return undefined;
  const bodyAt = at + header.length;
  const body = bytes.toString('latin1', bodyAt, Math.min(bytes.length, bodyAt + MAX_OBJECT));
  const open = body.search(/\S/);
  if (open >= 0 && body.startsWith('<<', open)) {
    const end = closing(body, open, '<<', '>>');
    if (end < 0) return undefined;
    const keyword = /^\s*stream(?:\r\n|\n)/.exec(body.slice(end));
    if (keyword) return { text: body.slice(0, end), streamAt: bodyAt + end + keyword[0].length };
  }
  const end = body.indexOf('endobj');
  return end < 0 ? undefined : { text: body.slice(0, end) };
}

/** Where the last definition of `header` (`12 0 obj`) starts, not inside a longer number (`112 0 obj`); -1 if none. */
function lastObject(bytes: Buffer, header: string): number {
  for (let from = bytes.length; from > 0; ) {
    const at = bytes.lastIndexOf(header, from);
    if (at < 0) return -1;
    if (at === 0 || !/[0-9]/.test(String.fromCharCode(bytes[at - 1]!))) return at;
    from = at - 1;
  }
  return -1;
}
