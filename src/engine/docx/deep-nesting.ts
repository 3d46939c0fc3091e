/**
 * Elements nested past any depth a reader can follow. mammoth reads and writes a document's elements recursively, so
 * a file nesting a few thousand tables in tables, links in links, content controls or tracked insertions (made by
 * a program, or crafted) overflows the stack and the whole document fails. Documents written by people nest a few
 * levels at most, so below a generous depth these are unwrapped: a table's rows and cells, or a wrapper's tags,
 * go, and what they hold stays in order as text of the element above them.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { wordPrefix } from './word-prefix.js';

/** Tables within tables beyond this many are read as their paragraphs. */
export const MAX_TABLE_DEPTH = 32;

/** Wrappers (links, content controls, revisions, fields...) within wrappers beyond this many are read as their content. */
export const MAX_WRAPPER_DEPTH = 64;

export const DEEP_NESTING_WARNING = `elements nested deeper than docmill reads (tables in tables past ${MAX_TABLE_DEPTH}, links, content controls or revisions past ${MAX_WRAPPER_DEPTH}) were read as the text they hold`;

/** Elements that only wrap runs or paragraphs, each counting one level (a content control with its content). */
const WRAPPERS = ['hyperlink', 'sdt', 'smartTag', 'customXml', 'ins', 'del', 'moveTo', 'moveFrom', 'fldSimple', 'dir', 'bdo'];

/** Parts of a wrapper that go with it: its content's tags, its properties. */
const WRAPPER_PARTS = new Set(['sdtContent']);
const WRAPPER_PROPERTIES = ['sdtPr', 'sdtEndPr', 'smartTagPr', 'customXmlPr'];

const TABLE_PARTS = new Set(['tr', 'tc']);
const TABLE_PROPERTIES = ['tblPr', 'tblGrid', 'trPr', 'tcPr', 'tblPrEx'];

/** The document XML with what lies below those depths unwrapped, and how many elements were. */
export function unwrapDeepNesting(documentXml: string): { xml: string; count: number } {
  const word = wordPrefix(documentXml);
  if (word === null) return { xml: documentXml, count: 0 };
  const w = escapeRegExp(word);
  const structure = ['tbl', ...TABLE_PARTS, ...WRAPPERS, ...WRAPPER_PARTS].join('|');
  const properties = [...TABLE_PROPERTIES, ...WRAPPER_PROPERTIES].join('|');
  // An element's start or end tag, or a properties element whole (none of them nests).
  const tags = new RegExp(`<(/?)${w}:(${structure})(?=[\\s/>])[^>]*?(/?)>|<${w}:(${properties})(?=[\\s/>])[^>]*?(?:/>|>[\\s\\S]*?</${w}:\\4>)`, 'g');
  let tableDepth = 0;
  // Whether each open wrapper was unwrapped, innermost last.
  const wrappers: boolean[] = [];
  let count = 0;
  const xml = documentXml.replace(tags, (tag, closing: string, name: string | undefined, selfClosing: string, property: string | undefined) => {
    if (property !== undefined) {
      const dropped = TABLE_PROPERTIES.includes(property) ? tableDepth > MAX_TABLE_DEPTH : wrappers.at(-1) === true;
      return dropped ? '' : tag;
    }
    if (name === 'tbl') {
      if (selfClosing) return tag;
      if (!closing) {
        tableDepth += 1;
        if (tableDepth > MAX_TABLE_DEPTH) count += 1;
      }
      const dropped = tableDepth > MAX_TABLE_DEPTH;
      if (closing) tableDepth -= 1;
      return dropped ? '' : tag;
    }
    if (name !== undefined && TABLE_PARTS.has(name)) return tableDepth > MAX_TABLE_DEPTH ? '' : tag;
    if (name !== undefined && WRAPPER_PARTS.has(name)) return wrappers.at(-1) === true ? '' : tag;
    if (selfClosing) return wrappers.length + 1 > MAX_WRAPPER_DEPTH ? '' : tag;
    if (closing) return wrappers.pop() === true ? '' : tag;
    const dropped = wrappers.length + 1 > MAX_WRAPPER_DEPTH;
    wrappers.push(dropped);
    if (dropped) count += 1;
    return dropped ? '' : tag;
  });
  return count > 0 ? { xml, count } : { xml: documentXml, count: 0 };
}
