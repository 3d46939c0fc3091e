/**
 * The string primitives of opendataloader-bench's evaluator (Python 3), reproduced in JavaScript so that its scores
 * come out the same here: Python's idea of whitespace (`re` `\s` on str, `str.strip`), of line breaks
 * (`str.splitlines`), and of a string's length (code points, where JavaScript counts UTF-16 units).
 */

/**
 * Python's Unicode whitespace (`str.isspace()`, which `\s` matches in a str pattern): JavaScript's `\s` lacks
 * U+001C–U+001F and U+0085, and adds U+FEFF, which Python does not count.
 */
const WS = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
export const PY_WHITESPACE_CLASS = `[${WS}]`;
const RUNS = new RegExp(`[${WS}]+`, 'g');
const EDGES = new RegExp(`^[${WS}]+|[${WS}]+$`, 'g');

/** `str.strip()`. */
export function pyStrip(text: string): string {
  return text.replace(EDGES, '');
}

/** `re.sub(r"\s+", " ", text).strip()`: the evaluator's normalisation everywhere. */
export function collapseWhitespace(text: string): string {
  return pyStrip(text.replace(RUNS, ' '));
}

/** `str.splitlines(keepends)`: \n, \r\n, \r, \v, \f, \x1c, \x1d, \x1e, \x85, U+2028 and U+2029 end a line. */
export function pySplitLines(text: string, keepEnds = false): string[] {
  const lines: string[] = [];
  // eslint-disable-next-line no-control-regex -- Python ends lines at the file, group and record separators too
  const breaks = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;
  let start = 0;
  for (let match = breaks.exec(text); match; match = breaks.exec(text)) {
    const end = match.index + match[0].length;
    lines.push(text.slice(start, keepEnds ? end : match.index));
    start = end;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** The code points of a string: Python's `len()` and its edit distances count these. */
export function codePoints(text: string): Uint32Array {
  const out = new Uint32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        out[n++] = (unit - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    out[n++] = unit;
  }
  return out.subarray(0, n);
}

/** `html.escape(text)` (quote=True), as the Markdown table converter escapes cell text. */
export function pyHtmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

/** Named references beyond these are left as written (the pages' tables use none of them). */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™', deg: '°',
  plusmn: '±', times: '×', divide: '÷', middot: '·', bull: '•', hellip: '…', ndash: '–', mdash: '—', lsquo: '‘',
  rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', euro: '€', pound: '£', yen: '¥', cent: '¢', sect: '§',
  para: '¶', shy: '\u00ad', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', zwnj: '\u200c', zwj: '\u200d',
  micro: 'µ', le: '≤', ge: '≥', ne: '≠', larr: '←', rarr: '→', uarr: '↑', darr: '↓', alpha: 'α', beta: 'β',
  gamma: 'γ', delta: 'δ', mu: 'μ', pi: 'π', sigma: 'σ', Delta: 'Δ', Sigma: 'Σ', Omega: 'Ω',
};
/** Numeric references Python maps through Windows-1252 (html.unescape's `_invalid_charrefs`). */
const CP1252: Record<number, string> = {
  0x80: '€', 0x82: '‚', 0x83: 'ƒ', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡', 0x88: 'ˆ', 0x89: '‰', 0x8a: 'Š',
  0x8b: '‹', 0x8c: 'Œ', 0x8e: 'Ž', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—',
  0x98: '˜', 0x99: '™', 0x9a: 'š', 0x9b: '›', 0x9c: 'œ', 0x9e: 'ž', 0x9f: 'Ÿ', 0x00: '\ufffd', 0x0d: '\r',
};

/** `html.unescape(text)` for numeric references and the common named ones (with their semicolon). */
export function pyHtmlUnescape(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[A-Za-z][A-Za-z0-9]*;)/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const hex = ref[1] === 'x' || ref[1] === 'X';
      const code = parseInt(ref.slice(hex ? 2 : 1).replace(';', ''), hex ? 16 : 10);
      if (code in CP1252) return CP1252[code] ?? '\ufffd';
      if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return '\ufffd';
      return String.fromCodePoint(code);
    }
    return NAMED[ref.slice(0, -1)] ?? whole;
  });
}
