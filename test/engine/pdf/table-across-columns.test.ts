/**
 * A paper set in two columns with a borderless table across both, between the columns above it and those under it
 * (a word processor's section break round the table). The table's middle channel lies where the page's gutter
 * does, but its rows, under their `Table 1:` caption, are read across the page as one table, after the columns
 * above it and before those under it, not cut in two halves read with each column.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

async function paper() {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/wide-table-paper.pdf', import.meta.url)));
  return convertBytes(bytes, { mode: 'fast' });
}

describe('a table across a two-column paper', () => {
  it('is one table, its caption right before it', async () => {
    const doc = await paper();
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables.map((table) => table.markdown.split('\n'))).toEqual([
      [
        '| Set size | Task A | Task B | Task C |',
        '| --- | --- | --- | --- |',
        '| 10 | 61.2 | 44.0 | 30.5 |',
        '| 100 | 70.8 | 52.3 | 38.9 |',
        '| 1,000 | 74.1 | 60.7 | 47.2 |',
        '| 10,000 | 75.0 | 66.4 | 55.8 |',
      ],
    ]);
    expect(mainMarkdown(doc)).toContain('Table 1: Accuracy by set size on the three tasks\n\n| Set size |');
  });

  it('reads the columns above the table before it and the columns under it after it', async () => {
    const markdown = mainMarkdown(await paper());
    const at = (text: string) => markdown.indexOf(text);
    expect(at('## 1 Introduction')).toBeGreaterThanOrEqual(0);
    expect(at('## 1 Introduction')).toBeLessThan(at('## 2 Method'));
    expect(at('## 2 Method')).toBeLessThan(at('Table 1:'));
    expect(at('| 10,000 |')).toBeLessThan(at('## 3 Results'));
  });
});
