/**
 * normalisedLength (src/engine/html/dom.ts): the length of an element's text with whitespace collapsed and trimmed,
 * counted without making that text; main-content extraction weighs elements by it, so it must be the length of
 * normalisedText exactly, on every element of real pages and on every kind of whitespace JavaScript's `\s` knows.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { descendants, normalisedLength, normalisedText, parseDocument, type DomNode } from '../../../src/engine/html/dom.js';

const fixture = (path: string) => readFileSync(new URL(`../../fixtures/corpus/${path}`, import.meta.url), 'latin1');

describe('normalisedLength', () => {
  it('is the length of normalisedText on every node of real pages', () => {
    for (const page of ['html/wiki_duck.html', 'html/example-10k-1p.html', 'html/html_rich_table_cells.html', 'htm/column_width.htm']) {
      const document = parseDocument(fixture(page));
      const nodes: DomNode[] = [document.body as unknown as DomNode, ...descendants(document.body as unknown as DomNode)];
      expect(nodes.length).toBeGreaterThan(20);
      for (const node of nodes) expect(normalisedLength(node), `${page}: ${node.nodeName}`).toBe(normalisedText(node).length);
    }
  });

  it('collapses every whitespace JavaScript knows, across text nodes, and trims both ends', () => {
    const spaces = ' \t\n\v\f\r\u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
    const document = parseDocument(`<p id="p"> ${spaces}a<b>${spaces}b</b>c\u200b<i>\u{1F642}</i>${spaces}<!-- note -->d ${spaces}</p>`);
    const paragraph = document.body!.querySelector('#p')!;
    expect(normalisedText(paragraph)).toBe('a bc\u200b\u{1F642} d');
    expect(normalisedLength(paragraph)).toBe(normalisedText(paragraph).length);
    expect(normalisedLength(document.createTextNode(`  ${spaces}`))).toBe(0);
  });
});
