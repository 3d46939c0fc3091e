/**
 * linkedom's selector methods with each selector compiled once (src/engine/html/compiled-selectors.ts): the same
 * elements as linkedom's own, in the same order, however often a selector is asked and on whatever node.
 */
import { DOMParser, parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import '../../../src/engine/html/compiled-selectors.js';

const PAGE = `<!doctype html><html><body>
  <nav id="menu"><a href="/">Home</a><a>No link</a></nav>
  <main><article class="post Lead"><h2>First</h2><p class="x">one</p><p hidden>two</p>
    <template><p class="x">in a template</p></template>
    <section><p class="x y">three</p></section></article></main>
</body></html>`;

type Found = { localName: string; textContent: string | null; id?: string };
type Queryable = { querySelectorAll(selector: string): Iterable<Found>; querySelector(selector: string): Found | null };

const texts = (root: Queryable, selector: string) => [...root.querySelectorAll(selector)].map((element) => element.textContent);

describe('selectors compiled once', () => {
  it('finds what linkedom finds, in document order, a template’s content left out', () => {
    const { document } = parseHTML(PAGE) as unknown as { document: Queryable };
    for (let round = 0; round < 2; round++) {
      expect(texts(document, 'p.x')).toEqual(['one', 'three']);
      expect(texts(document, 'a:not([href])')).toEqual(['No link']);
      expect(texts(document, 'p[hidden], h2')).toEqual(['First', 'two']);
      expect(texts(document, 'ARTICLE.post > P')).toEqual(['one', 'two']);
      expect(document.querySelector('section p')?.textContent).toBe('three');
      expect(document.querySelector('aside')).toBeNull();
    }
  });

  it('answers each node for itself: below it, `:scope`, and the closest ancestor', () => {
    const { document } = parseHTML(PAGE) as unknown as { document: Queryable };
    const article = document.querySelector('article') as unknown as Queryable & Found;
    expect(texts(article, ':scope > p')).toEqual(['one', 'two']);
    expect(texts(document.querySelector('section') as unknown as Queryable, 'p')).toEqual(['three']);
    const three = document.querySelector('p.y') as unknown as { closest(selector: string): Found | null };
    expect(three.closest('article')?.localName).toBe('article');
    expect(three.closest('p')?.textContent).toBe('three');
    expect(three.closest('nav')).toBeNull();
  });

  it('keeps XML’s case apart from HTML’s for the same selector', () => {
    const { document: html } = parseHTML('<html><body><Item>a</Item></body></html>') as unknown as { document: Queryable };
    const xml = new DOMParser().parseFromString('<root><Item>a</Item><item>b</item></root>', 'text/xml') as unknown as Queryable;
    expect(texts(html, 'item')).toEqual(['a']);
    expect(texts(xml, 'item')).toEqual(['b']);
    expect(texts(html, 'item')).toEqual(['a']);
  });
});
