/**
 * Lines the writer ended by hand, set flush one under another: the lines of a letter's addresses (`14 Mill Lane`
 * over `Leeds LS2 7QT`), a signature's name over its title, a poem's short lines. Each is a few words that stop far
 * short of the measure, and the next line's first word would have fit after them: the width did not end the line,
 * the writer did. A paragraph's wrapped lines never leave such room, a ragged one's included (its next word was
 * too long), so the test is the room, kept to short lines of running type. Pure.
 */
import { fitsOnLine } from './line-wrap.js';
import type { TextLine } from './types.js';
import { countWords } from './white-space.js';

/** Most words in a line of an address or a signature; a wrapped line of prose holds more. */
const MAX_WORDS = 5;
/** A line in type this much larger than the body's is a heading's, whose lines stay together however broken. */
const BODY_TYPE = 1.08;

/** Groups of digits one after another (`0117 496 0321`, `GB 123 4567 89`'s number): one number, written in groups. */
const DIGIT_GROUPS = /\d+(?:[ \u00a0]\d+)+/gu;

/** A digit, a space and a digit: where DIGIT_GROUPS can match. */
const SPACED_DIGITS = /\d[ \u00a0]\d/u;

/**
 * Whether a line holds more words than an address's line, a number written in groups of digits (a telephone or VAT
 * number) one word. Asked of every pair of lines in a paragraph: a line of no more words as written, or one with no
 * digits set in groups, is answered without the rewritten copy.
 */
function hasMoreAddressWords(text: string): boolean {
  const words = countWords(text);
  if (words <= MAX_WORDS) return false;
  return SPACED_DIGITS.test(text) ? countWords(text.replace(DIGIT_GROUPS, '0')) > MAX_WORDS : true;
}

/**
 * Whether `line` starts a line of its own under `prev`, which the writer ended by hand: both short lines in
 * regular body type, `line` opening with a capital or a digit (not a sentence going on in lower case), its first
 * word fitting after `prev` within the measure, and `prev` not cut at a hyphen.
 */
export function isBrokenByHand(prev: TextLine, line: TextLine, measure: number, bodySize: number | undefined): boolean {
  if (prev.bold || line.bold) return false;
  if (bodySize !== undefined && Math.max(prev.size, line.size) > BODY_TYPE * bodySize) return false;
  if (!/^[\p{Lu}\p{N}]/u.test(line.text) || /[-‐]$/u.test(prev.text)) return false;
  if (hasMoreAddressWords(prev.text) || hasMoreAddressWords(line.text)) return false;
  return fitsOnLine(prev, line, measure);
}
