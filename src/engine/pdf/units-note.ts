/**
 * A table's units note set over it, flush right (`(단위: 억원, %)`, `(Unit: %)`, `(in millions)`): a line of one
 * cell wholly in parentheses, starting right of the middle of the text it stands over. Pure.
 */
import type { TextLine } from './types.js';

const PARENTHESISED = /^\([^()]+\)$/u;

/** Whether `line` is a units note over text that spans x0…x1. */
export function isUnitsNote(line: TextLine, x0: number, x1: number): boolean {
  return line.cells.length === 1 && PARENTHESISED.test(line.text.trim()) && line.x0 > (x0 + x1) / 2;
}
