/**
 * Numbers as Word shows them on numbered paragraphs, which mammoth leaves to the reader to count:
 *
 * - A numbered heading (a "heading 1" to "heading 6" paragraph in a numbered list, as reports, specifications and
 *   contracts number theirs: `1`, `1.1`, `2.3.1`) would lose its number, mammoth writing only the heading's text.
 *   The number Word computes is written before the text.
 * - A numbered list that goes on after a paragraph between its items (`3.` after a note), or starts at another
 *   number (`5.`), would be numbered from 1 again: mammoth starts a new `<ol>` at every interruption and knows no
 *   start value. Each numbered item is marked with its number (a bookmark mammoth passes through as `<a id>`), and
 *   each `<ol>` gets the `start` its first item says (`applyListStarts`), the markers then removed.
 *
 * - A paragraph numbered only through its paragraph style (the style's `w:numPr`) would be no list item at all when
 *   the list's level does not name the style back (`w:pStyle` in the `w:lvl`, which Word writes but other producers
 *   leave out): mammoth looks for the link from the list side only. The style's numbering is written into the
 *   paragraph's own properties, as Word applies it.
 *
 * Numbers are counted in document order through each abstract numbering definition (lists sharing one continue
 * each other), a level restarting below every higher level (or only below those its `w:lvlRestart` names, never
 * when it says 0), a list's `w:startOverride` restarting its level at its
 * first paragraph. Paragraphs inside `mc:Choice` are not counted: mammoth reads the Fallback copy of that content.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import type { DomDocument } from '../html/dom.js';
import type { NumberingDefinitions, NumberingLevel, NumberingList } from './numbering-definitions.js';
import { choiceRanges } from './alternate-content.js';
import { wordPrefix } from './word-prefix.js';

const MARKER_PREFIX = 'docmill-list-number-';
const HEADING_STYLE = /^heading [1-6]$/i;

interface Edit {
  at: number;
  text: string;
}

/** The document XML with numbered headings' numbers written and numbered items marked, and how many were. */
export function writeListNumbers(
  documentXml: string,
  definitions: NumberingDefinitions,
  /** A template's own heading styles, by name (outline-styles.ts), numbered as headings are. */
  headingStyleNames: ReadonlySet<string> = new Set(),
): { xml: string; count: number } {
  const isHeading = (styleName: string | undefined) => HEADING_STYLE.test(styleName ?? '') || headingStyleNames.has(styleName ?? '');
  const word = wordPrefix(documentXml);
  if (word === null || definitions.lists.size === 0) return { xml: documentXml, count: 0 };
  const w = escapeRegExp(word);
  const skipped = choiceRanges(documentXml);
  const counters = new Map<string, Map<number, number>>();
  const started = new Set<string>();
  const edits: Edit[] = [];
  const paragraphs = new RegExp(`<${w}:p(?=[\\s/>])[^>]*?(/?)>`, 'g');
  for (let match = paragraphs.exec(documentXml); match; match = paragraphs.exec(documentXml)) {
    if (match[1] === '/' || skipped.some(([start, end]) => match.index > start && match.index < end)) continue;
    const afterTag = match.index + match[0].length;
    const properties = paragraphProperties(documentXml, afterTag, word);
    const numbered = numberingOf(properties.xml, w, definitions);
    if (numbered === undefined) continue;
    const { numId, level, list, definition, styleName, fromStyle } = numbered;
    if (fromStyle && !isHeading(styleName)) {
      const numbering = `<${word}:numPr><${word}:ilvl ${word}:val="${level}"/><${word}:numId ${word}:val="${escapeXml(numId)}"/></${word}:numPr>`;
      edits.push({ at: properties.end - `</${word}:pPr>`.length, text: numbering });
    }

    const count = counters.get(list.abstractId) ?? new Map<number, number>();
    counters.set(list.abstractId, count);
    if (!started.has(numId)) {
      started.add(numId);
      for (const [overridden, start] of list.startOverrides) {
        for (const deeper of [...count.keys()]) if (deeper >= overridden) count.delete(deeper);
        count.set(overridden, start - 1);
      }
    }
    const previous = count.get(level);
    const value = previous === undefined ? definition.start : previous + 1;
    count.set(level, value);
    for (const deeper of [...count.keys()]) if (deeper > level && restartsAfter(list.levels.get(deeper), level)) count.delete(deeper);
    // A bullet counts (it restarts the levels below it) but shows no number.
    if (definition.format === 'bullet' || definition.format === 'none') continue;

    if (isHeading(styleName)) {
      const label = levelText(definition, list, count);
      if (label === '') continue;
      const separator = definition.suffix === 'nothing' ? '' : ' ';
      edits.push({ at: properties.end, text: `<${word}:r><${word}:t xml:space="preserve">${escapeXml(label + separator)}</${word}:t></${word}:r>` });
    } else {
      edits.push({ at: properties.end, text: `<${word}:bookmarkStart ${word}:id="${900000 + edits.length}" ${word}:name="${MARKER_PREFIX}${value}"/>` });
    }
  }
  if (edits.length === 0) return { xml: documentXml, count: 0 };
  let xml = '';
  let from = 0;
  for (const edit of edits) {
    xml += documentXml.slice(from, edit.at) + edit.text;
    from = edit.at;
  }
  return { xml: xml + documentXml.slice(from), count: edits.length };
}

/**
 * Every `<ol>` starts at the number its first item carries (when that is not 1); every marker is removed.
 * Called on mammoth's HTML before the HTML path reads it.
 */
export function applyListStarts(document: DomDocument): void {
  for (const list of document.querySelectorAll('ol')) {
    const first = [...list.children].find((item) => item.tagName === 'LI');
    const marker = first ? [...first.querySelectorAll(`a[id^="${MARKER_PREFIX}"]`)].find((anchor) => anchor.closest('li') === first) : undefined;
    const value = Number.parseInt(marker?.getAttribute('id')?.slice(MARKER_PREFIX.length) ?? '', 10);
    if (Number.isFinite(value) && value !== 1) list.setAttribute('start', String(value));
  }
  for (const marker of [...document.querySelectorAll(`a[id^="${MARKER_PREFIX}"]`)]) marker.remove();
}

/** A paragraph's `w:pPr` (its tracked earlier version, `w:pPrChange`, left out) and where it ends. */
function paragraphProperties(xml: string, from: number, word: string): { xml: string; end: number } {
  const w = escapeRegExp(word);
  const open = new RegExp(`^\\s*<${w}:pPr\\b[^>]*?(/?)>`).exec(xml.slice(from, from + 200));
  if (!open) return { xml: '', end: from };
  if (open[1] === '/') return { xml: '', end: from + open[0].length };
  const close = `</${word}:pPr>`;
  let end = xml.indexOf(close, from);
  // The earlier version holds a w:pPr of its own: the paragraph's ends after it.
  const change = xml.indexOf(`<${word}:pPrChange`, from);
  if (change >= 0 && change < end) {
    const changeEnd = xml.indexOf(`</${word}:pPrChange>`, change);
    end = changeEnd < 0 ? end : xml.indexOf(close, changeEnd);
  }
  if (end < 0) return { xml: '', end: from };
  const inner = xml.slice(from, end).replace(new RegExp(`<${w}:pPrChange\\b[\\s\\S]*?</${w}:pPrChange>`, 'g'), '');
  return { xml: inner, end: end + close.length };
}

interface Numbered {
  numId: string;
  level: number;
  list: NumberingList;
  definition: NumberingLevel;
  styleName: string | undefined;
  /** Numbered through its paragraph style, with no `w:numPr` of its own. */
  fromStyle: boolean;
}

/** The list and level a paragraph is numbered with: its own `w:numPr`, else its style's (through `w:basedOn`). */
function numberingOf(properties: string, w: string, definitions: NumberingDefinitions): Numbered | undefined {
  const styleId = new RegExp(`<${w}:pStyle\\b[^>]*?${w}:val="([^"]*)"`).exec(properties)?.[1];
  const ownNumId = new RegExp(`<${w}:numId\\b[^>]*?${w}:val="([^"]*)"`).exec(properties)?.[1];
  const ownLevel = new RegExp(`<${w}:ilvl\\b[^>]*?${w}:val="(\\d+)"`).exec(properties)?.[1];
  let styled: { numId: string; level: number | undefined } | undefined;
  for (let id = styleId, hops = 0; id !== undefined && hops < 10 && styled === undefined; hops += 1) {
    const style = definitions.styles.get(id);
    styled = style?.numbering;
    id = style?.basedOn;
  }
  const numId = ownNumId ?? styled?.numId;
  if (numId === undefined || numId === '0') return undefined;
  const level = ownLevel !== undefined ? Number.parseInt(ownLevel, 10) : (styled?.level ?? 0);
  const list = definitions.lists.get(numId);
  const definition = list?.levels.get(level);
  if (list === undefined || definition === undefined) return undefined;
  return {
    numId,
    level,
    list,
    definition,
    styleName: styleId === undefined ? undefined : definitions.styles.get(styleId)?.name,
    fromStyle: ownNumId === undefined && !new RegExp(`<${w}:numPr\\b`).test(properties),
  };
}

/** Whether a deeper level starts again after an item at `level` (0-based), as its `w:lvlRestart` says. */
function restartsAfter(deeper: NumberingLevel | undefined, level: number): boolean {
  const restartAfterLevel = deeper?.restartAfterLevel;
  return restartAfterLevel === undefined || level < restartAfterLevel;
}

/** The level's text with each `%N` replaced by level N's current number in that level's format. */
function levelText(definition: NumberingLevel, list: NumberingList, count: Map<number, number>): string {
  return definition.text.replace(/%([1-9])/g, (_, digit: string) => {
    const index = Number.parseInt(digit, 10) - 1;
    const level = list.levels.get(index);
    const value = count.get(index) ?? level?.start ?? 1;
    return formatNumber(value, definition.legal ? 'decimal' : (level?.format ?? 'decimal'));
  });
}

function formatNumber(value: number, format: string): string {
  switch (format) {
    case 'upperRoman':
      return roman(value);
    case 'lowerRoman':
      return roman(value).toLowerCase();
    case 'upperLetter':
      return letters(value);
    case 'lowerLetter':
      return letters(value).toLowerCase();
    case 'decimalZero':
      return String(value).padStart(2, '0');
    default:
      return String(value);
  }
}

function roman(value: number): string {
  if (value <= 0 || value >= 4000) return String(value);
  const numerals: [number, string][] = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
  let rest = value;
  let text = '';
  for (const [amount, numeral] of numerals) {
    while (rest >= amount) {
      text += numeral;
      rest -= amount;
    }
  }
  return text;
}

/** Word's letter numbering: A…Z, then AA…ZZ, AAA… (the letter repeated, not a base-26 count). */
function letters(value: number): string {
  if (value <= 0) return String(value);
  const letter = String.fromCharCode(65 + ((value - 1) % 26));
  return letter.repeat(Math.floor((value - 1) / 26) + 1);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
