/**
 * Tables nested in tables past any depth a reader can follow. mammoth reads and writes a document's elements
 * recursively, so a file nesting a few hundred tables (made by a program, or crafted) overflows the stack and the
 * whole document fails. Below `MAX_TABLE_DEPTH` tables, a table's rows and cells are unwrapped: their paragraphs
 * stay, in order, as text of the cell that holds them. Word documents written by people nest a few levels at most.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { wordPrefix } from './word-prefix.js';

/** Tables within tables beyond this many are read as their paragraphs. */
export const MAX_TABLE_DEPTH = 32;

export const DEEP_TABLES_WARNING = `tables nested more than ${MAX_TABLE_DEPTH} deep were read as the paragraphs of their enclosing cell`;

/** The document XML with tables below `MAX_TABLE_DEPTH` unwrapped, and how many tables were. */
export function unwrapDeepTables(documentXml: string): { xml: string; count: number } {
  const word = wordPrefix(documentXml);
  if (word === null) return { xml: documentXml, count: 0 };
  const w = escapeRegExp(word);
  // The table, row and cell tags, and the properties of each, which mean nothing once their table is gone.
  const tags = new RegExp(`<(/?)${w}:(tbl|tr|tc)(?=[\\s/>])[^>]*?(/?)>|<${w}:(tblPr|tblGrid|trPr|tcPr|tblPrEx)(?=[\\s/>])[^>]*?(?:/>|>[\\s\\S]*?</${w}:\\4>)`, 'g');
  let depth = 0;
  let count = 0;
  const xml = documentXml.replace(tags, (tag, closing: string, name: string | undefined, selfClosing: string) => {
    if (name === undefined) return depth > MAX_TABLE_DEPTH ? '' : tag;
    if (name === 'tbl' && !selfClosing) {
      if (closing) depth -= 1;
      else {
        depth += 1;
        if (depth > MAX_TABLE_DEPTH) count += 1;
      }
      const inside = closing ? depth + 1 : depth;
      return inside > MAX_TABLE_DEPTH ? '' : tag;
    }
    return depth > MAX_TABLE_DEPTH ? '' : tag;
  });
  return count > 0 ? { xml, count } : { xml: documentXml, count: 0 };
}
