/**
 * A paper in two columns whose borderless table is cut at the column break: its caption, header and first row at
 * the foot of the left column, its other rows at the top of the right column, beside the left column's prose.
 * The rows are one table, the right column's part carrying on the left's, and the prose beside them reads as its
 * paragraphs, not as a table's cells.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

async function paper() {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/column-break-table.pdf', import.meta.url)));
  return convertBytes(bytes, { mode: 'fast' });
}

describe('a table cut at a column break', () => {
  it('reads as one table: the right column part carries on the left part, its header written once', async () => {
    const tables = allBlocks(await paper()).filter((block) => block.type === 'table');
    expect(tables.map((table) => table.markdown.split('\n'))).toEqual([
      ['| Width | Words | Speed | Recall |', '| --- | --- | --- | --- |', '| 20 mm | 3 | 182 | 0.61 |'],
      [
        '| 30 mm | 4 | 201 | 0.64 |',
        '| 40 mm | 6 | 219 | 0.66 |',
        '| 50 mm | 7 | 228 | 0.69 |',
        '| 60 mm | 9 | 236 | 0.70 |',
        '| 70 mm | 10 | 241 | 0.71 |',
        '| 80 mm | 12 | 244 | 0.71 |',
        '| 90 mm | 13 | 246 | 0.72 |',
        '| 100 mm | 15 | 247 | 0.72 |',
        '| 110 mm | 16 | 247 | 0.73 |',
      ],
    ]);
    expect(tables[1]?.carriesOn).toBe('row');
  });

  it('reads the left column prose beside the rows as its paragraphs, before the table', async () => {
    const markdown = mainMarkdown(await paper());
    const at = (text: string) => markdown.indexOf(text);
    expect(markdown).toContain(
      'We recruited readers of all ages and asked each of them to read short texts set at several widths, then to answer questions about what they had read.',
    );
    expect(at('## 2 Method')).toBeLessThan(at('Table 2: Reading speed and recall by line width\n\n| Width |'));
    expect(at('| 20 mm |')).toBeLessThan(at('| 30 mm |'));
    expect(at('| 110 mm |')).toBeLessThan(at('## 3 Results'));
  });
});
