/**
 * A function's parameters, a glossary's terms: each entry a paragraph opening with its term and a colon (`file:
 * specify the path …`, `error desc: return …`), the next entry set under the last line of the one above, at the
 * same start and the same leading, and the text after the list too. Terms in lower case are no form's labels
 * (`Phone: …`), so only the room left on the line above tells an entry's end. Pure.
 */
import { fitsOnLine } from './line-wrap.js';
import type { TextLine } from './types.js';

/** A term of at most three words (an identifier with its underscores), a colon, then its description. */
const TERM_OPENING = /^[\p{L}_][\p{L}\p{N}_.'’-]*(?: [\p{L}\p{N}_.'’-]+){0,2}:\s+\S/u;
/** The entry above ended its sentence. */
const ENDS_SENTENCE = /[.!?]["'”’)]?$/u;
/** How far (em) the next entry's start may stand from the first entry's. */
const SAME_START_EM = 0.5;

/**
 * `line` opens what follows an entry opened by a term (`first`): the next entry, or the text after the list, at the
 * same start, under a line (`prev`) that ended its sentence with room left on it for `line`'s first word.
 */
export function opensNextTermEntry(first: TextLine, prev: TextLine, line: TextLine, measure: number): boolean {
  if (!TERM_OPENING.test(first.text) || !ENDS_SENTENCE.test(prev.text)) return false;
  if (Math.abs(line.x0 - first.x0) > SAME_START_EM * line.size) return false;
  return fitsOnLine(prev, line, measure);
}
