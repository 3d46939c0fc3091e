/**
 * A heading's line with a short note set flush right at the measure, far from it: a CV's job title with its dates
 * (`Senior Data Analyst, Northwind Logistics` … `Mar 2022 – present`), a degree with its years, a section with a
 * place. The title is set bold and the note in regular type; read as one line, the note's characters thinned the
 * line's bold below a heading's, so one job read as a heading and the next, with a longer note, as a paragraph,
 * each with its dates run into the title. The title is a line of its own, the note the next line. A table's row
 * has cells over or under its last cell; such a note stands alone at its side. Pure.
 */
import { buildLine } from './lines.js';
import type { Cell, TextLine } from './types.js';
import { countWords } from './white-space.js';

/** Most words in the title and in the note. */
const MAX_TITLE_WORDS = 12;
const MAX_NOTE_WORDS = 6;
/** The least gap, in ems of the line's type, between the title and the note. */
const MIN_GAP_EM = 3;
/** The note ends this close to the measure's right edge, in ems: it is set flush right. */
const FLUSH_EM = 1;
/** Share of a cell's characters in bold for it to be set bold. */
const BOLD_SHARE = 0.7;

function boldShare(cell: Cell): number {
  let bold = 0;
  let all = 0;
  for (const item of cell.items) {
    const chars = item.str.replace(/\s/g, '').length;
    all += chars;
    if (item.bold) bold += chars;
  }
  return all > 0 ? bold / all : 0;
}

function sizeOf(cell: Cell): number {
  return Math.max(0, ...cell.items.map((item) => item.size));
}

/** Whether a line other than `line` has a cell under or over `cell` (a table's column). */
function standsInColumn(cell: Cell, neighbour: TextLine | undefined): boolean {
  return neighbour !== undefined && neighbour.cells.some((other) => other.x0 < cell.x1 && other.x1 > cell.x0);
}

function hasFlushRightNote(line: TextLine, measureX1: number, above: TextLine | undefined, below: TextLine | undefined): boolean {
  if (line.rtl || line.cells.length !== 2) return false;
  const [title, note] = line.cells as [Cell, Cell];
  if (countWords(title.text) > MAX_TITLE_WORDS || countWords(note.text) > MAX_NOTE_WORDS) return false;
  // The title set off as a heading is: bold against a regular note, or larger.
  const setOff = (boldShare(title) >= BOLD_SHARE && boldShare(note) < 1 - BOLD_SHARE) || sizeOf(title) > 1.15 * sizeOf(note);
  if (!setOff) return false;
  const size = line.size;
  if (note.x0 - title.x1 < MIN_GAP_EM * size || measureX1 - note.x1 > FLUSH_EM * size) return false;
  return !standsInColumn(note, above) && !standsInColumn(note, below);
}

/** The lines (top to bottom) with each flush-right note parted from its title's line, as the next line. */
export function flushRightNotesApart(lines: readonly TextLine[], measureX1: number): TextLine[] {
  let out: TextLine[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!hasFlushRightNote(line, measureX1, lines[i - 1], lines[i + 1])) {
      out?.push(line);
      continue;
    }
    out ??= lines.slice(0, i);
    out.push(buildLine(line.cells[0]!.items), buildLine(line.cells[1]!.items));
  }
  return out ?? [...lines];
}
