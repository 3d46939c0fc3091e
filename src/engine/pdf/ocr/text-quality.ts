/**
 * Whether a page's text layer can be trusted or must be read again by OCR (mode auto). A text layer is garbage
 * when its glyphs map to nothing readable: private-use code points (a subset font without a usable ToUnicode
 * map), U+FFFD, or control characters. Pure.
 */

/** A page whose non-space characters are at least this share unreadable is OCR'd. */
const GARBAGE_SHARE = 0.3;

function unreadable(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code < 0xa0) ||
    (code >= 0xe000 && code <= 0xf8ff) ||
    code >= 0xf0000 ||
    code === 0xfffd
  );
}

/** Counts over the page's strings: non-space characters and, among them, unreadable ones. */
export function textLayerCounts(strings: Iterable<string>): { chars: number; unreadable: number } {
  let chars = 0;
  let bad = 0;
  for (const text of strings) {
    for (const char of text) {
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\u00a0') continue;
      chars++;
      if (unreadable(char.codePointAt(0) ?? 0)) bad++;
    }
  }
  return { chars, unreadable: bad };
}

export function isGarbageTextLayer(strings: Iterable<string>): boolean {
  const { chars, unreadable: bad } = textLayerCounts(strings);
  return chars > 0 && bad >= GARBAGE_SHARE * chars;
}
