/**
 * The text a spreadsheet cell shows, as plain text (gfm-table.ts escapes it for Markdown).
 *
 * - The formatted text SheetJS computed from the cell's number format (`cell.w`): numbers, percentages,
 *   currencies, formula results and dates appear as the spreadsheet application shows them ("7,904", "(553)",
 *   "150.00%"). Accounting formats pad with spaces; those are trimmed.
 * - Dates with no format of their own are written as ISO 8601: `yyyy-mm-dd`, or `yyyy-mm-dd HH:MM:SS` when the time
 *   is not midnight. "No format of their own" means no format, General, or Excel's built-in short date (id 14,
 *   `m/d/yy`) and date-time (id 22, `m/d/yy h:mm`): those two follow the reader's locale in Excel, so the file does not
 *   say how the author saw them, and ISO is unambiguous. SheetJS 0.20 hands dates over as UTC, so the ISO text does
 *   not depend on the server's time zone.
 * - A whole number in the General format is written in full up to 15 digits, where Excel's General shows 11
 *   characters at most and SheetJS with it: an account number or an order ID stored as a number, 123456789012,
 *   would read `1.23457E+11`, its last digits lost. A cell with no format at all (an OpenDocument cell: SheetJS
 *   gives it none) is one only when it has no text of its own either; the text LibreOffice wrote in it is what it
 *   shows (`$1,200.00`, `100%`, `25,000`), where the number alone would read `1200`, `1`, `25000`.
 * - A hyperlink on a cell (`cell.l`) with an absolute http(s) or mailto target becomes a Markdown link.
 * - Errors show as Excel spells them (#DIV/0!, #N/A); booleans as TRUE / FALSE.
 */
import * as XLSX from '@e965/xlsx';

const LOCALE_DEFAULT_DATE_FORMATS = new Set<string | number>([14, 22, 'm/d/yy', 'm/d/yy h:mm', 'General']);

export function cellText(cell: XLSX.CellObject | undefined | null): string {
  if (!cell || cell.t === 'z') return '';
  let text: string;
  if (cell.t === 'd' && cell.v instanceof Date && (cell.w === undefined || hasNoOwnDateFormat(cell.z))) {
    text = isoDate(cell.v);
  } else if (isWholeNumberInGeneral(cell)) {
    text = String(cell.v);
  } else if (cell.w !== undefined) {
    text = cell.w;
  } else {
    text = fallbackText(cell);
  }
  text = text.trim();
  const target = cell.l?.Target;
  if (text !== '' && typeof target === 'string') return linked(text, target);
  return text;
}

/** Whole numbers up to this size are exact in a double and in Excel (15 significant digits). */
const WHOLE_DIGITS_LIMIT = 1e15;

function isWholeNumberInGeneral(cell: XLSX.CellObject): cell is XLSX.CellObject & { v: number } {
  return (
    cell.t === 'n' &&
    typeof cell.v === 'number' &&
    Number.isInteger(cell.v) &&
    Math.abs(cell.v) < WHOLE_DIGITS_LIMIT &&
    (cell.z === 'General' || cell.z === 0 || (cell.z === undefined && cell.w === undefined))
  );
}

function hasNoOwnDateFormat(format: XLSX.NumberFormat | undefined): boolean {
  return format === undefined || LOCALE_DEFAULT_DATE_FORMATS.has(format);
}

/** yyyy-mm-dd, or yyyy-mm-dd HH:MM:SS when there is a time of day (rounded to the second). */
export function isoDate(date: Date): string {
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  const rounded = new Date(Math.round(time / 1000) * 1000);
  const day = `${String(rounded.getUTCFullYear()).padStart(4, '0')}-${pad(rounded.getUTCMonth() + 1)}-${pad(rounded.getUTCDate())}`;
  const hours = rounded.getUTCHours();
  const minutes = rounded.getUTCMinutes();
  const seconds = rounded.getUTCSeconds();
  if (hours === 0 && minutes === 0 && seconds === 0) return day;
  return `${day} ${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function fallbackText(cell: XLSX.CellObject): string {
  try {
    return XLSX.utils.format_cell(cell);
  } catch {
    if (cell.v instanceof Date) return isoDate(cell.v);
    return cell.v === undefined ? '' : String(cell.v);
  }
}

const LINK_TARGET = /^(https?:\/\/|mailto:)\S+$/i;

/** `[text](target)` for an absolute web or mail link; the bare URL when the text is the URL itself. */
function hex(character: string): string {
  return (character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(2, '0');
}

function linked(text: string, rawTarget: string): string {
  // Characters that would end or break a Markdown link destination are percent-encoded.
  const target = rawTarget.trim().replace(/[\s()<>]/g, (character) =>
    character === '(' || character === ')' ? `%${hex(character)}` : encodeURIComponent(character),
  );
  if (!LINK_TARGET.test(target)) return text;
  if (text === rawTarget.trim() || text === target) return text;
  const label = text.replace(/[[\]\\]/g, (character) => `\\${character}`);
  return `[${label}](${target})`;
}
