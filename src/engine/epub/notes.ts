/**
 * Footnotes and endnotes of an EPUB book as GFM footnotes. EPUB 3 marks a note reference `epub:type="noteref"`
 * (DPUB-ARIA: `role="doc-noteref"`) and a note `epub:type="footnote"`, `"endnote"`, `"rearnote"` or `"note"`
 * (`role="doc-footnote"`, `"doc-endnote"`), in the chapter or in a notes chapter of their own. Read as plain
 * HTML, a reference is a link to an anchor (`[1](#fn1)`) and the note a paragraph in the middle of the text or at
 * the book's end. Each reference becomes `[^N]` and each referenced note `[^N]: text`, through the markup the HTML
 * path already reads as footnotes (mammoth's: `a#footnote-ref-N` to `li#footnote-N`), the note's link back to
 * its reference left out.
 *
 * Notes marked by their look alone (EPUB 2 books, and EPUB 3 books written without semantics) are read the same
 * way when both the link and the place it points to look like a note's (untyped-notes.ts); a note in a chapter
 * not yet converted is looked at in that chapter's own parse, and its opening mark (`3.`) gives way to the
 * footnote's label.
 *
 * Chapters are converted one after the other, in reading order; numbers run through the whole book (GFM labels
 * must be unique in a document) in the order the references come. A note referenced nowhere before it stays where
 * it is, as written.
 */
import type { DomDocument, DomElement } from '../html/dom.js';
import { resolvePath } from './package-document.js';
import { elementById, isNotesFile, looksLikeNote, looksLikeNoteReference, noteElementOf, removeOpeningMark } from './untyped-notes.js';

const NOTE_TYPES = new Set(['footnote', 'endnote', 'rearnote', 'note', 'doc-footnote', 'doc-endnote']);

/** What the chapters read so far said of notes; one per book, shared by its chapters' transforms. */
export interface BookNotes {
  /** The number given to each referenced note, by `path#id`. */
  numbers: Map<string, number>;
  /** Where references stood (`path#id` of their anchors), for the notes' links back to them. */
  references: Set<string>;
  /** Notes found by their look (no `epub:type`), by `path#id`, with the mark their first reference showed. */
  untyped: Map<string, string>;
  /** Another chapter's document, by its path in the zip, to look at a note before its chapter is converted. */
  chapter: (path: string) => DomDocument | undefined;
}

export function bookNotes(chapter: (path: string) => DomDocument | undefined = () => undefined): BookNotes {
  return { numbers: new Map(), references: new Set(), untyped: new Map(), chapter };
}

/** Rewrites one chapter's note references and referenced notes; `chapterPath` is the chapter's path in the zip. */
export function markNotes(document: DomDocument, chapterPath: string, book: BookNotes): void {
  const { numbers, references, untyped } = book;
  const keyOf = (href: string): string | null => resolveFrom(chapterPath, href);

  /** Whether a link without `epub:type` points to what looks like a note (untyped-notes.ts). */
  const pointsToNote = (reference: DomElement, key: string): boolean => {
    if (!looksLikeNoteReference(reference)) return false;
    if (untyped.has(key) || numbers.has(key)) return true;
    const hash = key.indexOf('#');
    const path = key.slice(0, hash);
    const targetDocument = path === chapterPath ? document : book.chapter(path);
    const target = targetDocument === undefined ? undefined : elementById(targetDocument, key.slice(hash + 1));
    if (target === undefined) return false;
    const id = reference.getAttribute('id');
    const note = noteElementOf(target, () => false);
    return looksLikeNote(target, note, {
      referenceKey: id ? `${chapterPath}#${id}` : null,
      keyOf: (href) => resolveFrom(path, href),
      notesFile: path !== chapterPath && isNotesFile(path),
    });
  };

  for (const reference of [...document.querySelectorAll('a[href]')]) {
    const typed = hasType(reference, 'noteref', 'doc-noteref');
    const key = keyOf(reference.getAttribute('href') ?? '');
    if (key === null || (!typed && !pointsToNote(reference, key))) continue;
    if (!typed && !untyped.has(key)) untyped.set(key, (reference.textContent ?? '').trim());
    const number = numbers.get(key) ?? numbers.size + 1;
    numbers.set(key, number);
    // A note links back to its reference, or to a wrapper holding the reference alone (LibreOffice's
    // `<sup id="calledF1"><a epub:type="noteref">1</a></sup>`).
    for (let holder: DomElement | null = reference; holder !== null && holder.textContent === reference.textContent; holder = holder.parentElement) {
      const id = holder.getAttribute('id');
      if (id) references.add(`${chapterPath}#${id}`);
    }
    const marker = document.createElement('a');
    marker.setAttribute('href', `#footnote-${number}`);
    marker.setAttribute('id', `footnote-ref-${number}`);
    marker.textContent = `[${number}]`;
    reference.replaceWith(marker);
  }

  const items: DomElement[] = [];
  const numberedHere = (element: DomElement) => numbers.has(`${chapterPath}#${element.getAttribute('id') ?? ''}`);
  const notes: { note: DomElement; number: number; mark: string | undefined }[] = [];
  for (const element of [...document.querySelectorAll('[id]')]) {
    const key = `${chapterPath}#${element.getAttribute('id') ?? ''}`;
    const number = numbers.get(key);
    if (number === undefined) continue;
    const mark = untyped.get(key);
    if (mark !== undefined && !isNote(element)) notes.push({ note: noteElementOf(element, (other) => other !== element && numberedHere(other)), number, mark });
    else if (isNote(element)) notes.push({ note: element, number, mark: undefined });
  }
  for (const { note, number, mark } of notes) {
    if (note.parentNode === null) continue;
    // The note's own link back to its reference (often its number, `1.`) is no part of its text.
    for (const back of [...note.querySelectorAll('a[href]')]) {
      const target = keyOf(back.getAttribute('href') ?? '');
      if (hasType(back, 'backlink', 'doc-backlink') || (target !== null && references.has(target))) back.remove();
    }
    if (mark !== undefined) removeOpeningMark(note, mark);
    const item = document.createElement('li');
    item.setAttribute('id', `footnote-${number}`);
    for (const child of [...note.childNodes]) item.appendChild(child);
    items.push(item);
    note.remove();
  }
  if (items.length === 0) return;
  const list = document.createElement('ol');
  for (const item of items.sort((a, b) => numberOf(a) - numberOf(b))) list.appendChild(item);
  (document.body ?? document.documentElement)?.appendChild(list);
}

/** A link's target as `path#id`, the link standing in the chapter at `chapterPath`; null without a fragment. */
function resolveFrom(chapterPath: string, href: string): string | null {
  const hash = href.indexOf('#');
  if (hash < 0 || hash === href.length - 1) return null;
  const folder = chapterPath.slice(0, chapterPath.lastIndexOf('/') + 1);
  const path = hash === 0 ? chapterPath : resolvePath(folder, href.slice(0, hash));
  return `${path}#${decodeFragment(href.slice(hash + 1))}`;
}

/** An element's `epub:type` tokens and `role`, either naming one of `types`. */
function hasType(element: DomElement, ...types: string[]): boolean {
  const tokens = `${element.getAttribute('epub:type') ?? ''} ${element.getAttribute('role') ?? ''}`.split(/\s+/);
  return tokens.some((token) => types.includes(token));
}

function isNote(element: DomElement): boolean {
  const tokens = `${element.getAttribute('epub:type') ?? ''} ${element.getAttribute('role') ?? ''}`.split(/\s+/);
  return tokens.some((token) => NOTE_TYPES.has(token));
}

function numberOf(item: DomElement): number {
  return Number.parseInt((item.getAttribute('id') ?? '').slice('footnote-'.length), 10);
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
