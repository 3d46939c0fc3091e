/**
 * Hidden text (a run formatted `w:vanish`) is not shown or printed by Word, so it is no part of what the reader
 * sees: templates hide instructions to the author in it, and forms hide their field codes. mammoth ignores the
 * property and would write the text among the visible words, so hidden runs are removed before mammoth reads the
 * document. Only a run's own formatting counts (a hidden paragraph mark merely joins its paragraph to the next, and
 * hides no text). A hidden run that holds part of a field's structure (`w:fldChar`) stays: removing it would
 * unbalance the field, and it shows no text of its own.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { wordPrefix } from './word-prefix.js';

interface OpenElement {
  name: string;
  start: number;
  hidden: boolean;
  holdsFieldChar: boolean;
}

/** The document XML without its hidden runs, and how many were removed. */
export function removeHiddenRuns(documentXml: string): { xml: string; count: number } {
  const word = wordPrefix(documentXml);
  if (word === null || !new RegExp(`<${escapeRegExp(word)}:vanish\\b`).test(documentXml)) return { xml: documentXml, count: 0 };
  const run = `${word}:r`;
  const runProperties = `${word}:rPr`;
  const vanish = `${word}:vanish`;
  const fieldChar = `${word}:fldChar`;
  const removals: { start: number; end: number }[] = [];
  const stack: OpenElement[] = [];
  const tags = /<(\/?)([\w.-]+(?::[\w.-]+)?)\b([^>]*?)(\/?)>/g;
  for (let match = tags.exec(documentXml); match; match = tags.exec(documentXml)) {
    const [tag, closing, name, attributes, selfClosing] = match as unknown as [string, string, string, string, string];
    if (selfClosing) {
      const parent = stack.at(-1);
      const owner = stack.at(-2);
      if (name === vanish && parent?.name === runProperties && owner?.name === run && isOn(attributes, word)) owner.hidden = true;
      if (name === fieldChar) for (const open of stack) if (open.name === run) open.holdsFieldChar = true;
      continue;
    }
    if (!closing) {
      stack.push({ name, start: match.index, hidden: false, holdsFieldChar: false });
      continue;
    }
    const at = stack.findLastIndex((open) => open.name === name);
    if (at < 0) continue;
    const open = stack[at]!;
    stack.length = at;
    if (name !== run || !open.hidden || open.holdsFieldChar) continue;
    // A hidden run inside another hidden run goes with it.
    if (stack.some((outer) => outer.name === run && outer.hidden && !outer.holdsFieldChar)) continue;
    removals.push({ start: open.start, end: match.index + tag.length });
  }
  if (removals.length === 0) return { xml: documentXml, count: 0 };
  let xml = '';
  let from = 0;
  for (const removal of removals.sort((a, b) => a.start - b.start)) {
    if (removal.start < from) continue;
    xml += documentXml.slice(from, removal.start);
    from = removal.end;
  }
  return { xml: xml + documentXml.slice(from), count: removals.length };
}

/** A toggle property is on unless its `w:val` says false, 0 or off. */
function isOn(attributes: string, word: string): boolean {
  const value = new RegExp(`\\b${escapeRegExp(word)}:val=["']([^"']*)["']`).exec(attributes)?.[1];
  return value === undefined || !/^(?:false|0|off)$/i.test(value);
}
