/**
 * A paper's authors set side by side, each a stack of short lines centred over the others (LaTeX's `\and`, a
 * conference template's author block): name, affiliation, address. Aligned like a table's cells, read row by row
 * they mix one author's lines with the next's (`Hedy Lamarr Claude Shannon` / `Radio Research Group Bell
 * Laboratories`). Read author by author instead, a line each, its stack's lines parted by commas. Pure.
 */
import type { Rect, TextLine } from './types.js';

/** The most lines an author's stack has here (name, department, institution, address, e-mail). */
const MAX_LINES = 5;
/** Words in a cell of such a stack, at most. */
const MAX_WORDS = 8;
/** A word of a name: opening in a capital (an initial too), or a particle. */
const NAME_WORD = String.raw`(?:\p{Lu}[\p{L}'’.-]*\.?|(?:van|von|de|da|del|der|di|du|le|la|bin|al)\b)`;
/** The marks an author's name carries to point at an affiliation or a note. */
const MARKS = '*†‡∗¹²³⁴⁵⁶⁷⁸⁹\\d';
/** A person's name: two to four such words, its marks after it. */
const NAME = new RegExp(`^${NAME_WORD}(?:\\s+${NAME_WORD}){1,3}[${MARKS},]*$`, 'u');

/** An e-mail address or an institution's word. */
const AFFILIATION = /@|\b(?:universit|institut|college|school|laborator|labs?\b|research|department|dept\b|faculty|academy|hospital|centre|center|inc\b|ltd\b|gmbh|corporation|company)/iu;
/** A name's affiliation mark: a digit, an asterisk or a dagger after it. */
const AFFILIATION_MARK = new RegExp(`[${MARKS}]$`, 'u');

function isName(cell: string): boolean {
  return NAME.test(cell.trim()) && /\p{Ll}/u.test(cell);
}

/**
 * The authors, a line each (`Hedy Lamarr, Radio Research Group, hedy@example.org`), when the grid is an author
 * block: two columns or more, its first row names (with affiliation marks, or over a row of addresses or
 * institutions), every cell short and no sentence (nor a number alone); undefined otherwise.
 */
export function authorStackLines(rows: readonly (readonly string[])[]): string[] | undefined {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  if (width < 2 || rows.length < 2 || rows.length > MAX_LINES) return undefined;
  const [names] = rows;
  if (!names || names.length !== width || !names.every(isName)) return undefined;
  for (const row of rows.slice(1)) {
    for (const cell of row) {
      const text = cell.trim();
      if (text === '') continue;
      if (text.split(/\s+/).length > MAX_WORDS || /[.!?:]$/.test(text) || !/\p{L}/u.test(text)) return undefined;
    }
  }
  // Names alone do not make authors (two-word labels look the same): an address line, an institution or the names'
  // affiliation marks do.
  const marked = names.every((cell) => AFFILIATION_MARK.test(cell.trim()));
  if (!marked && !rows.slice(1).some((row) => row.every((cell) => cell.trim() === '' || AFFILIATION.test(cell)))) return undefined;
  const lines: string[] = [];
  for (let col = 0; col < width; col++) lines.push(rows.map((row) => row[col]?.trim() ?? '').filter(Boolean).join(', '));
  return lines;
}

/** A stack's lines stand at most this many line heights apart. */
const STACK_GAP = 1.2;
/** A cell belongs to the column whose name it is centred under, within this many ems. */
const CENTRED_EM = 1.5;

/** Where an author block stands among a region's lines, and its rows with each cell in its author's column. */
export interface AuthorBlock {
  start: number;
  end: number;
  rows: string[][];
  rect: Rect;
}

/**
 * The author blocks among a region's lines (top to bottom): a line of two names or more set apart as cells, and
 * the lines right under it whose cells are each centred under one of the names. What authorStackLines then reads.
 */
export function findAuthorBlocks(lines: readonly TextLine[]): AuthorBlock[] {
  const found: AuthorBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i]!;
    if (head.cells.length < 2 || !head.cells.every((cell) => isName(cell.text))) continue;
    const centres = head.cells.map((cell) => (cell.x0 + cell.x1) / 2);
    const rows: string[][] = [head.cells.map((cell) => cell.text)];
    let end = i + 1;
    while (end < lines.length && rows.length < MAX_LINES) {
      const line = lines[end]!;
      if (line.top - lines[end - 1]!.bottom > STACK_GAP * line.size) break;
      const row = centres.map(() => '');
      const placed = line.cells.every((cell) => {
        const centre = (cell.x0 + cell.x1) / 2;
        const col = centres.findIndex((x) => Math.abs(x - centre) <= CENTRED_EM * line.size);
        if (col < 0 || row[col] !== '') return false;
        row[col] = cell.text;
        return true;
      });
      if (!placed) break;
      rows.push(row);
      end++;
    }
    if (rows.length < 2 || authorStackLines(rows) === undefined) continue;
    const block = lines.slice(i, end);
    const rect = {
      x0: Math.min(...block.map((line) => line.x0)),
      y0: head.top,
      x1: Math.max(...block.map((line) => line.x1)),
      y1: block[block.length - 1]!.bottom,
    };
    found.push({ start: i, end, rows, rect });
    i = end - 1;
  }
  return found;
}
