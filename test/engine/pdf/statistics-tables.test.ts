/**
 * Statistics tables as Korean public reports set them, printed by LibreOffice: ruled across only (over and under
 * the header, under the table), a two-row header whose stub and last label span both rows and whose years span
 * their halves, a units note set flush right over the table (`(단위: 억원, %)`) and the source under it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withRowGroups, type LaidOutRow } from '../../../src/engine/pdf/table-row-groups.js';
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
    expect(tables[1]!.markdown.split('\n')[1]).toBe('<tr><th>구분</th><th>분야</th><th>2022년</th><th>2023년</th><th>증감</th></tr>');
  });

  it('spans each row group\'s name, centred down its rows in the first column, over those rows', async () => {
    const tables = allBlocks(await convertBytes(statistics(), { mode: 'fast' })).filter((block) => block.type === 'table');
    const rows = tables[1]!.markdown.split('\n').filter((line) => line.startsWith('<tr>'));
    expect(rows.slice(1, 5)).toEqual([
      '<tr><td rowspan="3">광역</td><td>사회복지</td><td>412,530</td><td>438,214</td><td>25,684</td></tr>',
      '<tr><td>교육</td><td>98,417</td><td>101,305</td><td>2,888</td></tr>',
      '<tr><td>일반공공행정</td><td>75,026</td><td>71,880</td><td>△3,146</td></tr>',
      '<tr><td rowspan="3">기초</td><td>사회복지</td><td>521,904</td><td>553,617</td><td>31,713</td></tr>',
    ]);
    expect(rows.at(-1)).toBe('<tr><td>합계</td><td></td><td>1,208,428</td><td>1,263,015</td><td>54,587</td></tr>');
  });
});

describe('a Korean statistics table set in Noto Sans CJK, its rows as tall as their padding and the font\'s line make them', () => {
  const noto = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-statistics-noto.pdf', import.meta.url)));

  it('reads each table whole, its rows further apart than lines of text but at one gap from row to row', async () => {
    const tables = allBlocks(await convertBytes(noto(), { mode: 'fast' })).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(2);
    expect(tables[0]!.markdown).toContain('<tr><td>합계</td><td>1,509,710</td><td>1,563,072</td><td>1,546,180</td><td>1,535,816</td><td>0.5</td></tr>');
    const rows = tables[1]!.markdown.split('\n').filter((line) => line.startsWith('<tr>'));
    expect(rows[0]).toBe('<tr><th>구분</th><th>분야</th><th>2022년</th><th>2023년</th><th>증감</th></tr>');
    expect(rows[1]).toBe('<tr><td rowspan="3">광역</td><td>사회복지</td><td>412,530</td><td>438,214</td><td>25,684</td></tr>');
    expect(rows).toHaveLength(8);
  });
});

describe('Korean statistics tables printed through Word, ruled over, under the header and under the table only', () => {
  const booktabs = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-booktabs.pdf', import.meta.url)));
  const rowsOf = (markdown: string) => markdown.split('\n').filter((line) => line.startsWith('<tr>'));

  it('reads a table of tall rows between three rules whole, its two-row header with its spans', async () => {
    const blocks = allBlocks(await convertBytes(booktabs(), { mode: 'fast' }));
    const tables = blocks.filter((block) => block.type === 'table');
    expect(tables).toHaveLength(3);
    const rows = rowsOf(tables[0]!.markdown);
    expect(rows.slice(0, 3)).toEqual([
      '<tr><th rowspan="2">시도</th><th colspan="2">2024년</th><th colspan="2">2025년</th><th rowspan="2">증감률</th></tr>',
      '<tr><th>상반기</th><th>하반기</th><th>상반기</th><th>하반기</th></tr>',
      '<tr><td>서울</td><td>5,121,137</td><td>5,138,274</td><td>5,164,411</td><td>5,170,548</td><td>0.6</td></tr>',
    ]);
    expect(rows).toHaveLength(7);
    expect(blocks[blocks.indexOf(tables[0]!) + 1]?.markdown).toBe('자료: 통계청, 지역별고용조사');
  });

  it('keeps two such tables on one page apart, the source, heading and paragraph between them as text, a group\'s name centred down its rows after a group of one row spanning them', async () => {
    const blocks = allBlocks(await convertBytes(booktabs(), { mode: 'fast' }));
    const [first, second] = blocks.filter((block) => block.type === 'table');
    expect(blocks.slice(blocks.indexOf(first!) + 1, blocks.indexOf(second!)).map((block) => block.markdown)).toEqual([
      '자료: 통계청, 지역별고용조사',
      '## 2. 산업별 고용률',
      '고용률은 보건복지 서비스업에서 가장 크게 올랐으며, 건설업과 도소매업은 내렸다.',
      '(단위: %, %p)',
    ]);
    expect(rowsOf(second!.markdown)).toEqual([
      '<tr><th>구분</th><th>산업</th><th>2024년</th><th>2025년</th><th>증감</th></tr>',
      '<tr><td>광업·제조업</td><td>제조업</td><td>61.2</td><td>60.8</td><td>△0.4</td></tr>',
      '<tr><td rowspan="3">서비스업</td><td>보건복지</td><td>63.5</td><td>65.1</td><td>1.6</td></tr>',
      '<tr><td>도소매</td><td>59.7</td><td>59.2</td><td>△0.5</td></tr>',
      '<tr><td>숙박음식</td><td>55.1</td><td>55.6</td><td>0.5</td></tr>',
      '<tr><td>건설업</td><td>건설</td><td>57.9</td><td>56.8</td><td>△1.1</td></tr>',
    ]);
  });
  it('keeps the note and the source under a table, one a line, as paragraphs of their own', async () => {
    const blocks = allBlocks(await convertBytes(booktabs(), { mode: 'fast' }));
    const last = blocks.filter((block) => block.type === 'table').at(-1)!;
    expect(blocks.slice(blocks.indexOf(last) + 1).map((block) => block.markdown)).toEqual([expect.stringMatching(/^주: 15 ?세 이상 인구 기준$/u), '자료: 통계청, 경제활동인구조사']);
  });
});

describe('a header of several bold lines centred in its cells, over a body set flush left', () => {
  it('sets each label over its own columns by its centre, the stub between the lines spanning them', async () => {
    const noto = new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-statistics-noto.pdf', import.meta.url)));
    const table = allBlocks(await convertBytes(noto, { mode: 'fast' })).find((block) => block.type === 'table')!;
    expect(table.markdown.split('\n').slice(1, 3)).toEqual([
      '<tr><th rowspan="2">구분</th><th colspan="2">2022년</th><th colspan="2">2023년</th><th rowspan="2">증감률</th></tr>',
      '<tr><th>상반기</th><th>하반기</th><th>상반기</th><th>하반기</th></tr>',
    ]);
  });
});

describe('row groups named in a first column', () => {
  // Rows a line's pitch and a half apart, as a padded table's rows stand.
  const rowsOf = (texts: string[][]): LaidOutRow[] => texts.map((cells, at) => ({ cells, boxes: cells.map(() => undefined), baseline: 30 * at, size: 9 }));
  const spans = (texts: string[][]) => withRowGroups(rowsOf(texts)).map((row) => [row.cells[0], row.spanDown ?? 1]);

  it('span names set at their groups\' tops down the rows under them that leave the first column empty', () => {
    const rows = [['Region', 'Item', '2023'], ['North', 'Rice', '4'], ['', 'Wheat', '5'], ['', 'Corn', '6'], ['South', 'Rice', '7'], ['', 'Wheat', '8'], ['Total', '', '30']];
    expect(spans(rows)).toEqual([['Region', 1], ['North', 3], ['', 1], ['', 1], ['South', 2], ['', 1], ['Total', 1]]);
  });

  it('span names centred down their rows, each over as many rows above it as below', () => {
    const rows = [['Region', 'Item', '2023'], ['', 'Rice', '4'], ['North', 'Wheat', '5'], ['', 'Corn', '6'], ['', 'Rice', '7'], ['South', 'Wheat', '8'], ['', 'Corn', '9']];
    expect(spans(rows).map(([name, span]) => `${name}:${span}`)).toEqual(['Region:1', 'North:3', ':1', ':1', 'South:3', ':1', ':1']);
  });

  it('leave the column as it stands where an empty first cell falls to no name', () => {
    const rows = [['Region', 'Item', '2023'], ['', 'Rice', '4'], ['North', 'Wheat', '5'], ['', 'Corn', '6'], ['', 'Barley', '7'], ['Total', '', '22']];
    expect(spans(rows).every(([, span]) => span === 1)).toBe(true);
  });

  it('leave a name at its group\'s top alone where a line under it is a wrapped cell, not a whole row', () => {
    const rows = [['Region', 'Item', '2023', '2024'], ['North', 'Rice and', '4', '5'], ['', 'wheat', '', ''], ['South', 'Corn', '7', '8'], ['East', 'Oats', '1', '2']];
    expect(spans(rows).every(([, span]) => span === 1)).toBe(true);
  });
});
