/**
 * Comments and notes on spreadsheet cells, as SheetJS reads them into `cell.c` for every format it knows: legacy
 * notes (xl/comments*.xml, .xlsb, the NOTE records of .xls), threaded comments (xl/threadedComments/*.xml, their
 * authors resolved through xl/persons/person.xml) and ODS annotations (office:annotation with dc:creator).
 *
 * What SheetJS leaves raw is cleaned here:
 * - threaded comment text and author names come straight out of the XML: their entities are decoded, and their
 *   UTF-8 bytes, which SheetJS hands over one character per byte ("ChloÃ©"), are decoded as UTF-8;
 * - Excel starts a legacy note with its author's name ("Ann Example:" and a line break): that prefix is dropped,
 *   since the author is shown anyway;
 * - a legacy note that is only Excel's stand-in for a threaded comment ("[Threaded comment] Your version of
 *   Excel..." then "Comment:" and "Reply:" parts) gives its comment and replies without the boilerplate.
 *
 * In a thread the first comment is the comment and the others are its replies (one thread per cell).
 */
import * as XLSX from '@e965/xlsx';
import { decodeXmlEntities } from '../../common/xml-entities.js';
import { inlineMarkdown } from './markdown-text.js';

export interface CellComment {
  /** A1 address of the cell. */
  address: string;
  /** Empty when the file names no author. */
  author: string;
  text: string;
  /** A reply in a thread of comments on the same cell. */
  reply: boolean;
}

export function cellComments(cell: XLSX.CellObject, row: number, column: number): CellComment[] {
  const raw = cell.c;
  if (!Array.isArray(raw) || raw.length === 0) return [];
  const address = XLSX.utils.encode_cell({ r: row, c: column });
  const comments: CellComment[] = [];
  const threaded = raw.some((comment) => comment.T === true);
  raw.forEach((comment, index) => {
    const author = utf8FromBytes(decodeXmlEntities(typeof comment.a === 'string' ? comment.a : '')).trim();
    let text = typeof comment.t === 'string' ? comment.t : '';
    if (comment.T === true) text = utf8FromBytes(decodeXmlEntities(text));
    else if (!threaded) {
      const projected = threadedStandIn(text);
      if (projected !== null) {
        projected.forEach((part, partIndex) => {
          comments.push({ address, author: partIndex === 0 && !author.startsWith('tc=') ? author : '', text: part, reply: partIndex > 0 });
        });
        return;
      }
      text = withoutAuthorPrefix(text, author);
    }
    text = text.trim();
    if (text === '') return;
    comments.push({ address, author: author.startsWith('tc=') ? '' : author, text, reply: threaded && index > 0 });
  });
  return comments;
}

/** `**Comments:**` and one list item per comment (`- B3 (Ann): text`), replies nested under their comment. */
export function commentsMarkdown(comments: readonly CellComment[]): string {
  const lines = ['**Comments:**'];
  for (const comment of comments) {
    const author = comment.author === '' ? '' : ` (${inlineMarkdown(comment.author)})`;
    if (comment.reply) lines.push(`  - reply${author}: ${inlineMarkdown(comment.text)}`);
    else lines.push(`- ${comment.address}${author}: ${inlineMarkdown(comment.text)}`);
  }
  return lines.join('\n');
}

function withoutAuthorPrefix(text: string, author: string): string {
  if (author === '') return text;
  const prefix = `${author}:`;
  const start = text.trimStart();
  if (start.startsWith(prefix) && /^\s/.test(start.slice(prefix.length))) return start.slice(prefix.length);
  return text;
}

const STAND_IN = /^\s*\[Threaded comment\]/;

/** The comment and replies of Excel's legacy stand-in for a threaded comment, or null for an ordinary note. */
function threadedStandIn(text: string): string[] | null {
  if (!STAND_IN.test(text)) return null;
  const body = /\n\s*Comment:\s*\n([\s\S]*)$/.exec(text)?.[1];
  if (body === undefined) return null;
  return body
    .split(/\n\s*Reply:\s*\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/**
 * A string of byte values (every character below U+0100) that is well-formed UTF-8 with at least one multi-byte
 * sequence, decoded as UTF-8; any other string as it is (real Latin-1 text is almost never valid UTF-8).
 */
function utf8FromBytes(text: string): string {
  if (!/[\u0080-\u00ff]/.test(text) || /[\u0100-\uffff]/.test(text)) return text;
  const decoded = Buffer.from(text, 'latin1').toString('utf8');
  return decoded.includes('\ufffd') ? text : decoded;
}

