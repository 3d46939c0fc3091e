/**
 * Footnotes marked by their look rather than by `epub:type`: EPUB 2 books, and the EPUB 3 books converters write
 * without semantics (Project Gutenberg's `a.fnanchor` to a `div.footnote`, InDesign's `_idFootnoteLink`, a word
 * processor's `<sup><a href="#fn3">3</a></sup>` to a paragraph in a notes file). A link is read as a note
 * reference only when both ends say so:
 *
 * - the reference looks like a note mark: its text is a short mark (`3`, `[3]`, `*`, `†`, `iv`) and it is set
 *   superscript or carries a note-like class (`fnanchor`, `footnote-ref`, `noteref`);
 * - the place it points to looks like a note: it, or an element around it, is an `<aside>` or named as a note (a
 *   class or id such as `footnote`, `endnote`, `notes`, `fn3`), or it links back to the reference, or it stands in a
 *   chapter of notes (a file named for them).
 *
 * An ordinary cross-reference (`see <a href="#sec3">section 3</a>`, a list of illustrations' page numbers, a
 * superscript link to a figure or a heading) fails one end or the other and stays a link.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { descendants, TEXT_NODE, type DomDocument, type DomElement } from '../html/dom.js';

/** A note mark: digits, a symbol or two, a letter or a small roman numeral, perhaps in brackets. */
const NOTE_MARK = /^[[(]?(?:\d{1,4}|[*†‡§¶#]{1,3}|[a-z]|[ivxlc]{1,6})[\])]?\.?$/i;
/** A class or id naming a note or its reference. */
const NOTE_NAME = /foot-?notes?|end-?notes?|(?:^|[\s_-])notes?(?:$|[\s_\d-])|(?:^|[\s_-])fn(?:$|[\s_\d-])|fnanchor|fnref|noteref|_idfootnote|_idendnote/i;
/** A chapter file given over to notes. */
const NOTES_FILE = /(?:^|[/_-])(?:foot|end)?notes?(?:$|[._-])/i;
const INLINE = new Set(['A', 'SPAN', 'SUP', 'SUB', 'EM', 'I', 'B', 'STRONG', 'SMALL', 'CITE', 'FONT']);
const NOT_NOTES = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'FIGURE', 'TABLE', 'TR', 'TD', 'TH', 'IMG', 'NAV', 'BODY', 'HTML', 'HEADER', 'FOOTER']);
/** A note longer than this is a passage someone linked to, not a note. */
const MAX_NOTE_CHARACTERS = 4000;

/** Whether a link without `epub:type` is set as a note mark is: short, and raised or named as a note reference. */
export function looksLikeNoteReference(link: DomElement): boolean {
  if (!NOTE_MARK.test((link.textContent ?? '').trim())) return false;
  if (link.closest('sup') !== null || link.querySelector('sup') !== null) return true;
  return NOTE_NAME.test(`${link.getAttribute('class') ?? ''} ${link.getAttribute('id') ?? ''}`);
}

/** The element an id names in a document (ids are compared as written, the first one winning as in a browser). */
export function elementById(document: DomDocument, id: string): DomElement | undefined {
  for (const element of document.querySelectorAll('[id]')) if (element.getAttribute('id') === id) return element;
  return undefined;
}

/**
 * The note an anchor stands in: the anchor itself when it is a block (a paragraph, a list item, an aside), else the
 * block around it (Gutenberg puts the id on the note's own back link); then the `<aside>` or note-named block
 * around that, when it holds this note alone (`div.footnote` holding its paragraphs).
 */
export function noteElementOf(target: DomElement, isOtherNote: (element: DomElement) => boolean): DomElement {
  let note = target;
  while (INLINE.has(note.tagName) && note.parentElement !== null && !NOT_NOTES.has(note.parentElement.tagName)) note = note.parentElement;
  for (let parent = note.parentElement; parent !== null && !NOT_NOTES.has(parent.tagName); parent = parent.parentElement) {
    const named = parent.tagName === 'ASIDE' || /(?:^|\s)(?:foot|end)?note(?:$|\s)|_idfootnote(?:$|\s)|_idendnote(?:$|\s)/i.test(parent.getAttribute('class') ?? '');
    if (!named || [...parent.querySelectorAll('[id]')].some((element) => element !== target && isOtherNote(element))) break;
    note = parent;
  }
  return note;
}

/**
 * Whether the place a note-like link points to is a note: named as one (itself or an element around it), linking
 * back to the reference (`referenceKey`, `path#id`, through `keyOf`), or in a chapter of notes.
 */
export function looksLikeNote(target: DomElement, note: DomElement, evidence: { referenceKey: string | null; keyOf: (href: string) => string | null; notesFile: boolean }): boolean {
  if (NOT_NOTES.has(note.tagName) || note.closest('nav') !== null) return false;
  const text = (note.textContent ?? '').trim();
  if (text === '' || text.length > MAX_NOTE_CHARACTERS) return false;
  for (let element: DomElement | null = target; element !== null && element.tagName !== 'BODY'; element = element.parentElement) {
    if (element.tagName === 'ASIDE') return true;
    if (NOTE_NAME.test(`${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`)) return true;
  }
  const { referenceKey, keyOf, notesFile } = evidence;
  if (referenceKey !== null && [...note.querySelectorAll('a[href]')].some((link) => keyOf(link.getAttribute('href') ?? '') === referenceKey)) return true;
  return notesFile;
}

/** Whether a chapter's path names it as a chapter of notes (`notes.xhtml`, `footnotes.html`, `ch01-notes.xhtml`). */
export function isNotesFile(path: string): boolean {
  return NOTES_FILE.test(path.slice(path.lastIndexOf('/') + 1));
}

/**
 * The note's text opens with the mark its reference showed (`3.`, `[3]`, a raised `3`), which the footnote's own
 * label replaces: that opening mark is removed.
 */
export function removeOpeningMark(note: DomElement, mark: string): void {
  const wanted = mark.trim().replace(/^[[(]/, '').replace(/[\])]?\.?$/, '');
  if (wanted === '') return;
  const opening = new RegExp(`^\\s*[[(]?${escapeRegExp(wanted)}[\\])]?[.:]?(?:\\s+|$)`);
  for (const node of descendants(note)) {
    if (node.nodeType !== TEXT_NODE || (node.textContent ?? '').trim() === '') continue;
    if (opening.test(node.textContent ?? '')) node.textContent = (node.textContent ?? '').replace(opening, '');
    return;
  }
}
