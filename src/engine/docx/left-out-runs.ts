/**
 * Runs whose text is no part of what the document says, removed before mammoth reads the document (mammoth would
 * write them among the other words):
 *
 * - Hidden text (a run formatted `w:vanish`, or set in a character or paragraph style that is, hidden-styles.ts),
 *   which Word neither shows nor prints: templates hide instructions to the author in it, and forms hide their
 *   field codes. A run's own `w:vanish` (on or off) wins over its styles; a hidden paragraph mark merely joins its
 *   paragraph to the next, and hides no text. Where both a run's character style and its paragraph's style hide
 *   it, Word toggles the property back off (a toggle property's styles combine by exclusive or), and the run shows.
 * - The prompt of a content control nobody filled in (`w:showingPlcHdr`: "Click or tap here to enter text.",
 *   "Choose an item."), which Word shows in grey in place of an answer: a blank form would read as its prompts. The
 *   control's structure stays (a table cell it wraps is still a cell, left empty).
 *
 * A run that holds part of a field's structure (`w:fldChar`) stays: removing it would unbalance the field, and it
 * shows no text of its own.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { NO_HIDDEN_STYLES, type HiddenStyles } from './hidden-styles.js';
import { wordPrefix } from './word-prefix.js';

interface OpenElement {
  name: string;
  start: number;
  /** A run: its own `w:vanish` (undefined when it sets none). A content control: showing its prompt. */
  hidden: boolean | undefined;
  /** A run: set in a hidden character style. A paragraph: set in a hidden paragraph style. */
  styleHidden: boolean;
  holdsFieldChar: boolean;
}

/** The document XML without hidden runs and unfilled controls' prompts, and how many runs were removed. */
export function removeLeftOutRuns(documentXml: string, hiddenStyles: HiddenStyles = NO_HIDDEN_STYLES): { xml: string; count: number } {
  const word = wordPrefix(documentXml);
  const stylesHide = hiddenStyles.character.size > 0 || hiddenStyles.paragraph.size > 0;
  if (word === null || (!stylesHide && !new RegExp(`<${escapeRegExp(word)}:(?:vanish|showingPlcHdr)\\b`).test(documentXml))) {
    return { xml: documentXml, count: 0 };
  }
  const run = `${word}:r`;
  const runProperties = `${word}:rPr`;
  const runStyle = `${word}:rStyle`;
  const paragraphElement = `${word}:p`;
  const paragraphProperties = `${word}:pPr`;
  const paragraphStyle = `${word}:pStyle`;
  const vanish = `${word}:vanish`;
  const fieldChar = `${word}:fldChar`;
  const control = `${word}:sdt`;
  const controlProperties = `${word}:sdtPr`;
  const prompt = `${word}:showingPlcHdr`;
  /** A run's own `w:vanish` wins; else its character style and its paragraph's style, combined as Word toggles them. */
  const runHidden = (element: OpenElement, above: readonly OpenElement[]) =>
    element.hidden ?? element.styleHidden !== (above.findLast((outer) => outer.name === paragraphElement)?.styleHidden ?? false);
  /** Whether a run, below the elements `above` it, is removed: hidden itself, or in a control showing its prompt. */
  const goes = (element: OpenElement, above: readonly OpenElement[]) =>
    !element.holdsFieldChar && (runHidden(element, above) || above.some((outer) => outer.name === control && outer.hidden === true));
  const removals: { start: number; end: number }[] = [];
  const stack: OpenElement[] = [];
  const tags = /<(\/?)([\w.-]+(?::[\w.-]+)?)\b([^>]*?)(\/?)>/g;
  for (let match = tags.exec(documentXml); match; match = tags.exec(documentXml)) {
    const [tag, closing, name, attributes, selfClosing] = match as unknown as [string, string, string, string, string];
    if (selfClosing) {
      const parent = stack.at(-1);
      const owner = stack.at(-2);
      if (name === vanish && parent?.name === runProperties && owner?.name === run) owner.hidden = isOn(attributes, word);
      if (name === runStyle && parent?.name === runProperties && owner?.name === run) {
        owner.styleHidden = hiddenStyles.character.has(valueOf(attributes, word) ?? '');
      }
      if (name === paragraphStyle && parent?.name === paragraphProperties && owner?.name === paragraphElement) {
        owner.styleHidden = hiddenStyles.paragraph.has(valueOf(attributes, word) ?? '');
      }
      if (name === prompt && parent?.name === controlProperties && owner?.name === control && isOn(attributes, word)) owner.hidden = true;
      if (name === fieldChar) for (const open of stack) if (open.name === run) open.holdsFieldChar = true;
      continue;
    }
    if (!closing) {
      stack.push({ name, start: match.index, hidden: undefined, styleHidden: false, holdsFieldChar: false });
      continue;
    }
    const at = stack.findLastIndex((open) => open.name === name);
    if (at < 0) continue;
    const open = stack[at]!;
    stack.length = at;
    if (name !== run || !goes(open, stack)) continue;
    // A run inside a run removed whole (a text box's, in its drawing) is removed with it.
    if (stack.some((outer, index) => outer.name === run && goes(outer, stack.slice(0, index)))) continue;
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
  const value = valueOf(attributes, word);
  return value === undefined || !/^(?:false|0|off)$/i.test(value);
}

function valueOf(attributes: string, word: string): string | undefined {
  return new RegExp(`\\b${escapeRegExp(word)}:val=["']([^"']*)["']`).exec(attributes)?.[1];
}
