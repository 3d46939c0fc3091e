/**
 * Pages nested thousands of elements deep (unclosed tags, one per line) convert, every word in its place, where
 * they overflowed the converter's stack or ran past the request's timeout.
 */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { MAX_DEPTH } from '../../../src/engine/html/depth-cap.js';
import { parseDocument } from '../../../src/engine/html/dom.js';
import { markdownOf } from './helpers.js';

/** The deepest element below the document's root, counting the root as 1. */
function depthOf(markup: string): number {
  const document = parseDocument(markup);
  let deepest = 0;
  const stack: { element: NonNullable<typeof document.documentElement>; depth: number }[] = [{ element: document.documentElement!, depth: 1 }];
  while (stack.length > 0) {
    const { element, depth } = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of element.children) stack.push({ element: child, depth: depth + 1 });
  }
  return deepest;
}

/** `count` unclosed `<tag>`s, each followed by its text. */
function unclosed(tag: string, count: number, text: (index: number) => string): string {
  let html = '<!DOCTYPE html><html><head><title>Log</title></head><body>';
  for (let i = 0; i < count; i++) html += `<${tag}>${text(i)}\n`;
  return `${html}</body></html>`;
}

describe('pages nested past any depth written to be read', () => {
  it('reads 30,000 unclosed <div>s, each its own line, in order', () => {
    const model = htmlToModel(unclosed('div', 30_000, (i) => (i % 1000 === 0 ? `Entry ${i} of the log.` : '')), { onlyMainContent: false });
    expect(model.warnings).toContain(`elements nested deeper than ${MAX_DEPTH} levels were read as text of their enclosing element`);
    const markdown = markdownOf(model);
    const entries = [...markdown.matchAll(/Entry (\d+) of the log\./g)].map((match) => Number(match[1]));
    expect(entries).toEqual(Array.from({ length: 30 }, (_, i) => i * 1000));
    // Each block's text stays on a line of its own.
    expect(markdown).not.toMatch(/log\. Entry/);
  });

  it("keeps a legacy page's words in order under 5,000 unclosed <font> tags", () => {
    const markdown = markdownOf(htmlToModel(unclosed('font size="2"', 5_000, (i) => `w${i}`)));
    const words = markdown.match(/w\d+/g) ?? [];
    expect(words).toHaveLength(5_000);
    expect(words.every((word, i) => word === `w${i}`)).toBe(true);
  });

  it('flattens only below the cap, and leaves pages of ordinary depth as written', () => {
    expect(depthOf(unclosed('div', 2_000, (i) => `line ${i}`))).toBeLessThanOrEqual(MAX_DEPTH + 1);
    const ordinary = `<html><body>${'<div>'.repeat(60)}<p>A <b>bold</b> word and <a href="https://example.org/">a link</a>.</p>${'</div>'.repeat(60)}</body></html>`;
    expect(depthOf(ordinary)).toBe(64);
    const model = htmlToModel(ordinary, { onlyMainContent: false });
    expect(markdownOf(model)).toBe('A **bold** word and [a link](https://example.org/).');
    expect(model.warnings ?? []).toEqual([]);
  });

  it("past the cap, keeps a table's cells and a list's items apart, in order", () => {
    const deep = '<div>'.repeat(MAX_DEPTH + 10);
    const html = `<html><body>${deep}<table><tr><td>North</td><td>12</td></tr><tr><td>South</td><td>7</td></tr></table><ul><li>first item</li><li>second item</li></ul></body></html>`;
    const lines = markdownOf(htmlToModel(html, { onlyMainContent: false })).split('\n').map((line) => line.trim()).filter(Boolean);
    expect(lines).toEqual(expect.arrayContaining(['North', '12', 'South', '7', 'first item', 'second item']));
    expect(lines.indexOf('North')).toBeLessThan(lines.indexOf('South'));
    expect(lines.indexOf('first item')).toBeLessThan(lines.indexOf('second item'));
  });
});
