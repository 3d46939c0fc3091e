/**
 * A table of contents is read as lines, not as a grid: entries whose last column is a page number, the page
 * numbers rising down the list (roman numbers of the front matter first). Aligned text makes it look like a
 * two-column table, but what a reader sees is "Entry 12", one entry a line.
 */
import { escapeMarkdownText } from './markdown.js';
import { isNumberingLabel } from './heading-numbering.js';

const ARABIC = /^\d{1,4}$/;
const ROMAN = /^[ivxlc]{1,7}$/i;
/** A section number before an entry's title: `2.1`, `IV.`, `A`, `3)`. */
const SECTION_NUMBER = /^(?:\d+|[ivxlcdm]+|\p{L})(?:[.-]\d+)*[.)]?$/iu;
const ROMAN_VALUES: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

function romanValue(text: string): number {
  let total = 0;
  const digits = [...text.toLowerCase()].map((ch) => ROMAN_VALUES[ch] ?? 0);
  digits.forEach((value, i) => {
    total += value < (digits[i + 1] ?? 0) ? -value : value;
  });
  return total;
}

/** Fewest entries with a page number. */
const MIN_ENTRIES = 3;
/** Share of the rows that must be entries; the others may be section labels without a number. */
const ENTRY_SHARE = 0.8;

/** Leader dots at a cell's start or end (four or more, spaced or not), and a cell of them alone. */
const LEADING_DOTS = /^(?:\.\s?){4,}\s*/u;
const TRAILING_DOTS = /\s*(?:\.\s?){4,}$/u;
/** A title led out with dots to its page number, all in one cell (`Introduction ........ 1`). */
const LED_OUT = /^(.*\S)\s*(?:\.\s?){4,}\s*(\d{1,4}|[ivxlc]{1,7})$/iu;

/**
 * A contents entry's cells as judged, without its leader dots: a title led out to its number in one cell
 * (`Introduction .... 1`) is two cells, and cells of dots alone go. The entry's line keeps the dots as printed.
 */
export function entryCells(row: readonly string[]): string[] {
  const cells: string[] = [];
  for (const cell of row) {
    const ledOut = LED_OUT.exec(cell.trim());
    const parts = ledOut && /\p{L}/u.test(ledOut[1]!) ? [ledOut[1]!, ledOut[2]!] : [cell];
    for (const part of parts) {
      const bare = part.trim().replace(LEADING_DOTS, '').replace(TRAILING_DOTS, '');
      if (bare) cells.push(bare);
    }
  }
  return cells;
}

/** The table's rows as contents lines when it is a table of contents; undefined otherwise. */
export function contentsLines(rows: readonly (readonly string[])[]): string[] | undefined {
  const lines: string[] = [];
  let entries = 0;
  let lastArabic = -Infinity;
  let lastRoman = -Infinity;
  let arabicSeen = false;
  for (const row of rows) {
    const cells = entryCells(row);
    if (cells.length === 0) continue;
    const last = cells[cells.length - 1]!;
    const isArabic = ARABIC.test(last);
    const isRoman = !isArabic && ROMAN.test(last);
    // An entry's words are its title, in one cell (a section number or a label such as `Appendix A` may stand
    // before it): two cells of words before the number are a table's label and description (`Berries |
    // Blueberry, Cranberry | 150`).
    const titled = cells.slice(0, -1).filter((cell) => /\p{L}/u.test(cell) && !SECTION_NUMBER.test(cell) && !isNumberingLabel(cell)).length === 1;
    if (cells.length >= 2 && (isArabic || isRoman) && titled) {
      if (isArabic) {
        const value = Number(last);
        if (value < lastArabic) return undefined;
        lastArabic = value;
        arabicSeen = true;
      } else {
        const value = romanValue(last);
        if (arabicSeen || value < lastRoman) return undefined;
        lastRoman = value;
      }
      entries++;
    } else if (cells.length !== 1 || !/\p{L}/u.test(last)) {
      return undefined;
    }
    lines.push(row.map((cell) => cell.trim()).filter(Boolean).join(' '));
  }
  if (entries < MIN_ENTRIES || entries < ENTRY_SHARE * lines.length) return undefined;
  return lines;
}

/** Lines of text as Markdown: one a line (hard line breaks), all one paragraph for what may pair into emphasis. */
export function linesMarkdown(lines: readonly string[]): string {
  const paragraph = lines.join(' ');
  return lines.map((line) => escapeMarkdownText(line, paragraph)).join('  \n');
}
