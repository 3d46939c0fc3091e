/**
 * A Korean paper set in two columns, printed by LibreOffice: a table ruled across only (over and under its header,
 * under it) breaks at the foot of the first column and goes on at the top of the second, its header repeated there,
 * the next section's heading (`Ⅲ. 결론`) under it; the first column's paragraphs run beside the table's rows.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';

const paper = async () => allBlocks(await convertBytes(new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-columns.pdf', import.meta.url))), { mode: 'fast' }));

describe('a table ruled across only, broken over a Korean paper\'s two columns', () => {
  it('reads the part in the second column row by row, the heading under it a heading', async () => {
    const blocks = await paper();
    const tables = blocks.filter((block) => block.type === 'table');
    expect(tables).toHaveLength(2);
    const rows = tables[1]!.markdown.split('\n');
    expect(rows.slice(0, 3)).toEqual(['| 시도 | 2023년 | 2024년 | 증감률 |', '| --- | --- | --- | --- |', '| 세종 | 386 | 392 | 1.6 |']);
    expect(rows.at(-1)).toBe('| 제주 | 675 | 676 | 0.1 |');
    expect(rows).toHaveLength(12);
    expect(blocks[blocks.indexOf(tables[1]!) + 1]).toMatchObject({ type: 'section_header', markdown: '## Ⅲ. 결론' });
  });
});
