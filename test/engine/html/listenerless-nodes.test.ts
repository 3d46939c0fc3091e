/**
 * Parsed pages' nodes start without a listener table (src/engine/html/listenerless-nodes.ts, a speed change to
 * linkedom); events on them still behave as the DOM says: a listener added later hears its event, the event bubbles
 * to the document and its window, a removed listener hears nothing more.
 */
import { Event } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { parseDocument, type DomDocument, type DomElement } from '../../../src/engine/html/dom.js';
import { nodesStartListenerless } from '../../../src/engine/html/listenerless-nodes.js';

interface Listening {
  addEventListener(type: string, listener: (event: { type: string; eventPhase: number }) => void, options?: { once?: boolean }): void;
  removeEventListener(type: string, listener: (event: { type: string }) => void): void;
  dispatchEvent(event: unknown): boolean;
}

const listening = (target: unknown) => target as Listening;
const bubbling = (type: string) => new Event(type, { bubbles: true });

function page(): { document: DomDocument; button: DomElement } {
  const document = parseDocument('<!DOCTYPE html><html><body><main><p>Text <button id="b">Go</button></p></main></body></html>');
  return { document, button: document.querySelector('#b') as DomElement };
}

describe('linkedom nodes without a listener table', () => {
  it('is in force with the pinned linkedom (a changed linkedom leaves it off and pages read slower)', () => {
    expect(nodesStartListenerless).toBe(true);
  });

  it('delivers an event to a listener added after parsing, and bubbles it to the document and the window', () => {
    const { document, button } = page();
    const heard: string[] = [];
    listening(button).addEventListener('ping', (event) => heard.push(`button ${event.type}`));
    listening(button.parentElement).addEventListener('ping', () => heard.push('paragraph'));
    listening(document).addEventListener('ping', () => heard.push('document'));
    listening((document as unknown as { defaultView: unknown }).defaultView).addEventListener('ping', () => heard.push('window'));

    expect(listening(button).dispatchEvent(bubbling('ping'))).toBe(true);
    expect(heard).toEqual(['button ping', 'paragraph', 'document', 'window']);
  });

  it('stops delivering to a removed listener, honours `once`, and ignores a removal where none was added', () => {
    const { document, button } = page();
    let kept = 0;
    let removed = 0;
    let once = 0;
    const removedListener = () => removed++;
    listening(button).addEventListener('ping', () => kept++);
    listening(button).addEventListener('ping', removedListener);
    listening(button).addEventListener('ping', () => once++, { once: true });
    listening(button).dispatchEvent(bubbling('ping'));
    listening(button).removeEventListener('ping', removedListener);
    listening(button).dispatchEvent(bubbling('ping'));

    expect([kept, removed, once]).toEqual([2, 1, 1]);
    const untouched = document.querySelector('main') as DomElement;
    expect(() => listening(untouched).removeEventListener('ping', removedListener)).not.toThrow();
    expect(listening(untouched).dispatchEvent(bubbling('ping'))).toBe(true);
  });

  it('leaves events on nodes of one page apart from another page', () => {
    const first = page();
    const second = page();
    let heard = 0;
    listening(first.document).addEventListener('ping', () => heard++);
    listening(second.button).dispatchEvent(bubbling('ping'));
    expect(heard).toBe(0);
    listening(first.button).dispatchEvent(bubbling('ping'));
    expect(heard).toBe(1);
  });
});
