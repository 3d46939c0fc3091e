/**
 * The markup of a page nested tens of thousands of tags deep, made shallow enough to parse. linkedom's parser
 * (htmlparser2) keeps its open elements in an array it shifts at the front for every tag, so its time grows with
 * the square of the depth: 100,000 unclosed `<div>`s took 17 s to parse, before depth-cap.ts read the tree flatter
 * anyway. Chromium stops nesting at 512; here a start tag past `MAX_PARSE_DEPTH` open elements is left out with
 * its end tag (a block's leaves a line break), so its content joins the element above it, in order.
 *
 * The depth is counted on the markup, not parsed: elements a later tag closes by itself (`p`, `li`, `td`, ...) and
 * void or self-closed ones do not count, so the count may fall short of the parser's depth but never exceeds it,
 * and a page that does not nest that deep is returned as it came.
 */
import { BLOCK_TAGS } from './depth-cap.js';

/** As deep as Chromium's tree builder nests, four times the cap the converter then reads to (depth-cap.ts). */
export const MAX_PARSE_DEPTH = 512;

/** Elements whose start or end is implied by a neighbour's, and void elements: never counted as open. */
const UNCOUNTED = new Set([
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'rt', 'rp', 'head', 'body', 'html',
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link',
  'meta', 'param', 'source', 'track', 'wbr',
]);

/**
 * A comment, an element whose content is not markup (taken whole), or a tag. Attribute values holding `>` end a
 * tag early here, which only makes the count fall short.
 */
const TOKENS = /<!--[\s\S]*?(?:-->|$)|<(script|style|textarea|title|xmp|iframe|noembed|noframes|noscript)\b[^>]*>[\s\S]*?<\/\1\s*>|<(\/?)([a-zA-Z][^\s/>]*)[^>]*?(\/?)>/gi;

/** `markup` with the start tags nested past `MAX_PARSE_DEPTH`, and their end tags, left out. */
export function withinParseDepth(markup: string): string {
  if (!mayLeaveOpen(markup, MAX_PARSE_DEPTH)) return markup;
  const open: string[] = [];
  // Start tags left out, by name, whose end tags are to go too.
  const leftOut = new Map<string, number>();
  const pieces: string[] = [];
  let copiedTo = 0;
  const replace = (start: number, end: number, by: string): void => {
    pieces.push(markup.slice(copiedTo, start), by);
    copiedTo = end;
  };
  TOKENS.lastIndex = 0;
  for (let match = TOKENS.exec(markup); match !== null; match = TOKENS.exec(markup)) {
    const [tag, rawText, closing, rawName, selfClosing] = match;
    if (rawText !== undefined || rawName === undefined) continue;
    const name = rawName.toLowerCase();
    if (UNCOUNTED.has(name)) continue;
    if (closing) {
      const pending = leftOut.get(name) ?? 0;
      if (pending > 0) {
        leftOut.set(name, pending - 1);
        replace(match.index, match.index + tag.length, '');
        continue;
      }
      const at = open.lastIndexOf(name);
      if (at !== -1) open.length = at;
      continue;
    }
    if (selfClosing) continue;
    if (open.length < MAX_PARSE_DEPTH) {
      open.push(name);
      continue;
    }
    leftOut.set(name, (leftOut.get(name) ?? 0) + 1);
    replace(match.index, match.index + tag.length, BLOCK_TAGS.has(name) ? '<br>' : '');
  }
  if (pieces.length === 0) return markup;
  pieces.push(markup.slice(copiedTo));
  return pieces.join('');
}

/**
 * Whether more than `count` start tags go without an end tag: only then can elements nest that deep. A count of
 * `<` and `</`, so that most pages, their tags closed, are never scanned.
 */
function mayLeaveOpen(markup: string, count: number): boolean {
  let unclosed = 0;
  for (let at = markup.indexOf('<'); at !== -1; at = markup.indexOf('<', at + 1)) {
    const next = markup.charCodeAt(at + 1);
    if (next === 0x2f) unclosed = Math.max(0, unclosed - 1);
    else if ((next | 0x20) >= 0x61 && (next | 0x20) <= 0x7a && ++unclosed > count) return true;
  }
  return false;
}
