/**
 * Footnotes and endnotes numbered as Word shows them: 1, 2, 3 in the order their references come. mammoth names a
 * note by its id in the package (`#footnote-2`), which the Markdown's `[^2]` label takes; Word numbers ids from 1
 * after its two separator notes, but LibreOffice and other writers give the separators 0 and 1, so a document's
 * first footnote read `[^2]` where the page shows 1. Each kind is renumbered by the order of its first reference;
 * a note no reference reaches keeps its place after the referenced ones.
 */
import type { DomDocument } from '../html/dom.js';

export function numberNotesInOrder(document: DomDocument): void {
  for (const kind of ['footnote', 'endnote'] as const) renumber(document, kind);
}

function renumber(document: DomDocument, kind: 'footnote' | 'endnote'): void {
  const references = [...document.querySelectorAll(`a[id^="${kind}-ref-"]`)];
  const numbers = new Map<string, number>();
  for (const reference of references) {
    const id = reference.getAttribute('id')?.slice(`${kind}-ref-`.length) ?? '';
    if (id !== '' && !numbers.has(id)) numbers.set(id, numbers.size + 1);
  }
  const notes = [...document.querySelectorAll(`li[id^="${kind}-"]`)];
  for (const note of notes) {
    const id = note.getAttribute('id')?.slice(`${kind}-`.length) ?? '';
    if (id !== '' && !numbers.has(id)) numbers.set(id, numbers.size + 1);
  }
  if ([...numbers].every(([id, number]) => id === String(number))) return;

  const renamed = (id: string) => String(numbers.get(id) ?? id);
  for (const reference of references) {
    const id = reference.getAttribute('id')?.slice(`${kind}-ref-`.length) ?? '';
    reference.setAttribute('id', `${kind}-ref-${renamed(id)}`);
    reference.setAttribute('href', `#${kind}-${renamed(id)}`);
  }
  for (const note of notes) {
    const id = note.getAttribute('id')?.slice(`${kind}-`.length) ?? '';
    note.setAttribute('id', `${kind}-${renamed(id)}`);
    for (const back of note.querySelectorAll(`a[href^="#${kind}-ref-"]`)) {
      back.setAttribute('href', `#${kind}-ref-${renamed((back.getAttribute('href') ?? '').slice(`#${kind}-ref-`.length))}`);
    }
  }
  // The notes listed in their new order (the list mammoth writes holds footnotes, then endnotes).
  const lists = new Set(notes.map((note) => note.parentNode).filter((parent) => parent !== null));
  for (const list of lists) {
    const ofKind = notes.filter((note) => note.parentNode === list);
    const anchor = ofKind[ofKind.length - 1]?.nextSibling ?? null;
    const sorted = [...ofKind].sort((a, b) => noteNumber(a, kind) - noteNumber(b, kind));
    for (const note of sorted) list.insertBefore(note, anchor);
  }
}

function noteNumber(note: { getAttribute(name: string): string | null }, kind: string): number {
  return Number.parseInt((note.getAttribute('id') ?? '').slice(`${kind}-`.length), 10);
}
