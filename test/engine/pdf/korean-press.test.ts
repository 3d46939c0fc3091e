/**
 * A Korean government press release printed by LibreOffice (HTML to Word to PDF): a header box of fields beside the
 * word 보도자료, the title and its dash-set subtitle, a boxed lead of □ items and the body's □ items with ○ items
 * set in under them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

const press = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-press.pdf', import.meta.url)));

describe('a Korean press release printed by LibreOffice', () => {
  it('reads its header box as a table, 보도자료 down both rows beside its fields', async () => {
    const blocks = allBlocks(await convertBytes(press(), { mode: 'fast' }));
    expect(blocks[0]).toMatchObject({ type: 'table' });
    expect(blocks[0]!.markdown.split('\n').slice(1, 3)).toEqual([
      '<tr><th rowspan="2">보도자료</th><th>배포일시</th><th>2025. 3. 14.(금) 10:00</th></tr>',
      '<tr><td>담당부서</td><td>환경부 자원순환정책과 (044-201-7350)</td></tr>',
    ]);
  });

  it('reads its title as the heading, then the subtitle, the boxed lead and the body in order', async () => {
    const markdown = mainMarkdown(await convertBytes(press(), { mode: 'fast' }));
    expect(markdown.split('\n').filter((line) => line.startsWith('#'))).toEqual(['# 일회용 컵 보증금제, 내년부터 전국으로 확대']);
    const order = [
      '재활용 가능한 컵 회수율 78%로 시범 지역보다 20%p 높아',
      '환경부는 일회용 컵 보증금제를 2026년 1월부터 전국의 가맹점 100곳 이상 프랜차이즈 매장으로 확대한다고 밝혔다.',
      '시범 지역인 세종과 제주의 회수율은 2024년 말 기준 78%로, 제도 시행 전보다 크게 높아졌다.',
      '보증금은 컵 하나에 300원이며, 소비자는 음료를 산 매장이 아닌 다른 매장에서도 컵을 반납하고 보증금을 돌려받을 수 있다.',
      '반납된 컵은 전문 업체가 수거하여 고품질 재활용 원료로 쓴다.',
      '매장에는 컵 처리 지원금으로 개당 10원을 지급한다.',
      '"소비자 불편을 줄이기 위해 무인 회수기를 2천 대 이상 설치할 계획"이라고 말했다.',
    ];
    const at = order.map((text) => markdown.indexOf(text));
    expect(at.every((index) => index >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('nests the ○ items set in under a □ item as its list, the □ items set a paragraph apart one list', async () => {
    const markdown = mainMarkdown(await convertBytes(press(), { mode: 'fast' }));
    expect(markdown).toContain(
      [
        '- 보증금은 컵 하나에 300원이며, 소비자는 음료를 산 매장이 아닌 다른 매장에서도 컵을 반납하고 보증금을 돌려받을 수 있다.',
        '  - 반납된 컵은 전문 업체가 수거하여 고품질 재활용 원료로 쓴다.',
        '  - 매장에는 컵 처리 지원금으로 개당 10원을 지급한다.',
        '- 환경부 관계자는 "소비자 불편을 줄이기 위해 무인 회수기를 2천 대 이상 설치할 계획"이라고 말했다.',
      ].join('\n'),
    );
  });

  it('keeps the subtitle framed by dashes as text, no list item', async () => {
    const blocks = allBlocks(await convertBytes(press(), { mode: 'fast' }));
    const subtitle = blocks.find((block) => block.markdown.includes('재활용 가능한 컵 회수율'))!;
    expect(subtitle.label).not.toBe('list');
    expect(subtitle.markdown).toBe('\\- 재활용 가능한 컵 회수율 78%로 시범 지역보다 20%p 높아 -');
  });
});
