/**
 * A Korean statistics report printed by LibreOffice: two tables ruled across only (over and under the header,
 * under the table), their headers in the body's regular weight with each label centred in its cell over figures
 * set flush right, the first naming its row groups once at their tops (`광역` over the blank first cells of its
 * rows), and between the two only the first's source, the next section's heading and the second's units note.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';

const report = async () => allBlocks(await convertBytes(new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-groups.pdf', import.meta.url))), { mode: 'fast' }));
const rowsOf = (markdown: string) => markdown.split('\n').filter((line) => line.startsWith('<tr>'));

describe('a Korean statistics table whose header is set in regular weight and whose groups are named at their tops', () => {
  it('sets each header label over its own column', async () => {
    const table = (await report()).find((block) => block.type === 'table')!;
    expect(rowsOf(table.markdown)[0]).toBe('<tr><th>구분</th><th>분야</th><th>2023년</th><th>2024년</th><th>증감</th></tr>');
  });

  it('spans each group\'s name down the rows under it that leave the first column blank', async () => {
    const table = (await report()).find((block) => block.type === 'table')!;
    expect(rowsOf(table.markdown).slice(1)).toEqual([
      '<tr><td rowspan="3">광역</td><td>사회복지</td><td>412,530</td><td>438,214</td><td>25,684</td></tr>',
      '<tr><td>교육</td><td>98,417</td><td>101,305</td><td>2,888</td></tr>',
      '<tr><td>문화관광</td><td>35,026</td><td>36,880</td><td>1,854</td></tr>',
      '<tr><td rowspan="3">기초</td><td>사회복지</td><td>521,904</td><td>553,617</td><td>31,713</td></tr>',
      '<tr><td>교육</td><td>12,336</td><td>11,902</td><td>△434</td></tr>',
      '<tr><td>문화관광</td><td>48,215</td><td>49,097</td><td>882</td></tr>',
      '<tr><td>합계</td><td></td><td>1,128,428</td><td>1,191,015</td><td>62,587</td></tr>',
    ]);
  });
});

describe('two Korean tables ruled alike with only a source, a heading and a units note between them', () => {
  it('keeps the text between them out of either table, and each row of the second its own', async () => {
    const blocks = await report();
    const [first, second] = blocks.filter((block) => block.type === 'table');
    expect(blocks.slice(blocks.indexOf(first!) + 1, blocks.indexOf(second!)).map((block) => block.markdown)).toEqual(['자료: 행정안전부', '## 2. 연도별 수급자 수', '(단위: 명, %)']);
    expect(second!.markdown.split('\n')).toEqual([
      '| 급여 종류 | 2022년 | 2023년 | 2024년 | 비중 |',
      '| --- | --- | --- | --- | --- |',
      '| 생계급여 | 1,593,245 | 1,617,031 | 1,675,112 | 62.4 |',
      '| 의료급여 | 1,412,109 | 1,437,559 | 1,468,930 | 54.7 |',
      '| 주거급여 | 2,236,713 | 2,353,808 | 2,421,504 | 90.2 |',
      '| 교육급여 | 341,277 | 328,490 | 315,066 | 11.7 |',
    ]);
  });
});
