/**
 * A Korean paper set in two columns, printed by LibreOffice: a table ruled across only (over and under its header,
 * under it) breaks at the foot of the first column and goes on at the top of the second, its header repeated there,
 * the next section's heading (`Ⅲ. 결론`) under it; the first column's paragraphs run beside the table's rows. The
 * second column's part carries on the first (column-break-tables.ts): its repeated header is left out, the first
 * part's heading the rows of both.
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
    expect(tables[0]!.markdown.split('\n').slice(0, 2)).toEqual(['| 시도 | 2023년 | 2024년 | 증감률 |', '| --- | --- | --- | --- |']);
    expect(tables[1]!.carriesOn).toBe('row');
    const rows = tables[1]!.markdown.split('\n');
    expect(rows.slice(0, 2)).toEqual(['| 세종 | 386 | 392 | 1.6 |', '| 경기 | 13,630 | 13,715 | 0.6 |']);
    expect(rows.at(-1)).toBe('| 제주 | 675 | 676 | 0.1 |');
    expect(rows).toHaveLength(10);
    expect(blocks[blocks.indexOf(tables[1]!) + 1]).toMatchObject({ type: 'section_header', markdown: '## Ⅲ. 결론' });
  });
});

describe('a table drawn without rules, broken over a Korean paper\'s two columns', () => {
  const unruled = async () => allBlocks(await convertBytes(new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-columns-unruled.pdf', import.meta.url))), { mode: 'fast' }));

  it('reads the page column by column: the first column\'s heading and paragraphs apart from the table beside them', async () => {
    const blocks = await unruled();
    expect(blocks.slice(2, 4).map((block) => block.markdown)).toEqual([
      '## Ⅰ. 서론',
      '지역 간 인구 이동은 주거 비용과 일자리의 분포에 따라 달라진다. 최근 수도권으로의 인구 집중이 다시 심화되고 있으며, 비수도권 광역시의 인구는 대부분 감소하였다. 본 연구는 시도별 주민등록 인구를 비교하여 그 추세를 살펴본다.',
    ]);
    const tables = blocks.filter((block) => block.type === 'table');
    expect(tables).toHaveLength(2);
    expect(tables[1]!.carriesOn).toBe('row');
    expect(tables[1]!.markdown.split('\n')[0]).toBe('| 세종 | 386 | 392 | 1.6 |');
    expect(blocks[blocks.indexOf(tables[1]!) + 1]).toMatchObject({ type: 'section_header', markdown: '## Ⅲ. 결론' });
  });
});
