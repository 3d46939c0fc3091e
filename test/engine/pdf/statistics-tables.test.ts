/**
 * Statistics tables as Korean public reports set them, printed by LibreOffice: ruled across only (over and under
 * the header, under the table), a two-row header whose stub and last label span both rows and whose years span
 * their halves, a units note set flush right over the table (`(단위: 억원, %)`) and the source under it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';

const statistics = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-statistics.pdf', import.meta.url)));

describe('a Korean statistics table ruled across only', () => {
  it('keeps its units note over it as text, and its two-row header with the spans the page shows', async () => {
    const blocks = allBlocks(await convertBytes(statistics(), { mode: 'fast' }));
    const table = blocks.find((block) => block.type === 'table')!;
    expect(blocks[blocks.indexOf(table) - 1]?.markdown).toBe('(단위: 억원, %)');
    expect(blocks[blocks.indexOf(table) + 1]?.markdown).toBe('자료: 행정안전부, 지방재정연감(2024)');
    const rows = table.markdown.split('\n').filter((line) => line.startsWith('<tr>'));
    expect(rows.slice(0, 3)).toEqual([
      '<tr><th rowspan="2">구분</th><th colspan="2">2022년</th><th colspan="2">2023년</th><th rowspan="2">증감률</th></tr>',
      '<tr><th>상반기</th><th>하반기</th><th>상반기</th><th>하반기</th></tr>',
      '<tr><td>지방세</td><td>582,314</td><td>601,227</td><td>590,845</td><td>578,106</td><td>△1.4</td></tr>',
    ]);
    expect(rows.at(-1)).toBe('<tr><td>합계</td><td>1,509,710</td><td>1,563,072</td><td>1,546,180</td><td>1,535,816</td><td>0.5</td></tr>');
  });

  it('sets the labels of a one-line header, centred in cells wider than the body\'s text, each over its own column', async () => {
    const tables = allBlocks(await convertBytes(statistics(), { mode: 'fast' })).filter((block) => block.type === 'table');
    expect(tables[1]!.markdown.split('\n')[0]).toBe('| 구분 | 분야 | 2022년 | 2023년 | 증감 |');
  });
});
