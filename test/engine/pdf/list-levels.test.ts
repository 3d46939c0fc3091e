/**
 * List levels that step in by less than an em of their type, as a slide template sets them: an item back at an
 * outer level's bullet returns to that level, in the lines of a list and in a printed deck.
 */
import { describe, expect, it } from 'vitest';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { buildBlocks } from '../../../src/engine/pdf/paragraphs.js';
import { convertBytes, mainMarkdown } from './helpers.js';
import { slideDeck } from './slide-pdfs.js';
import { item } from './synthetic.js';

describe('a list whose levels step in by less than an em', () => {
  it('returns an item to the level whose bullet it starts at', () => {
    // 16.2 pt a level under 22.8, 19.9 and 17.1 pt type: LibreOffice's outline levels as a template prints them.
    const rows: [number, number, string][] = [
      [0, 22.8, 'Product lines'],
      [1, 19.9, 'Dairy'],
      [2, 17.1, 'Cheese'],
      [0, 22.8, 'Outlook'],
    ];
    const items = rows.flatMap(([level, size, text], i) => [
      item('•', 56.7 + 16.2 * level, 100 + 30 * i, { size: 0.45 * size }),
      item(text, 72.9 + 16.2 * level, 100 + 30 * i, { size }),
    ]);
    const blocks = buildBlocks(buildLines(items), { x0: 40, x1: 760 });
    expect(blocks.map((block) => block.markdown)).toEqual(['- Product lines\n  - Dairy\n    - Cheese\n- Outlook']);
  });

  it('keeps an item a little left of its level on that level', () => {
    const items = [item('• Parent', 50, 100), item('• child one', 70, 112), item('• child two', 68, 124)];
    expect(buildBlocks(buildLines(items), { x0: 40, x1: 350 })[0]!.markdown).toBe('- Parent\n  - child one\n  - child two');
  });
});

describe('a printed slide deck', () => {
  it('reads the levels of a template that steps them in by less than an em', async () => {
    const bullets = [
      { level: 0, text: 'Results for the quarter' },
      { level: 0, text: 'Product lines' },
      { level: 1, text: 'Dairy' },
      { level: 2, text: 'Cheese' },
      { level: 2, text: 'Milk' },
      { level: 0, text: 'Outlook and next steps' },
    ];
    const doc = await convertBytes(await slideDeck([{ title: 'Agenda', bullets }], { step: 18, firstSize: 24 }), { mode: 'fast' });
    expect(mainMarkdown(doc)).toBe(
      '# Agenda\n\n- Results for the quarter\n- Product lines\n  - Dairy\n    - Cheese\n    - Milk\n- Outlook and next steps',
    );
  });
});

describe('a Korean list set at one indent, its levels told by its bullets', () => {
  it('nests ○ under □ and - under ○', () => {
    const lines = ['□ 수도권 인구 집중이 심화', '○ 수도권 인구 비중은 50.7%', '- 20대 순유입 인구는 증가', '○ 지방 중소도시의 인구 감소', '□ 지역 산업 기반의 약화'];
    const blocks = buildBlocks(buildLines(lines.map((text, i) => item(text, 57, 100 + 16 * i, { size: 11 }))), { x0: 40, x1: 560 });
    expect(blocks.map((block) => block.markdown)).toEqual([
      '- 수도권 인구 집중이 심화\n  - 수도권 인구 비중은 50.7%\n    - 20대 순유입 인구는 증가\n  - 지방 중소도시의 인구 감소\n- 지역 산업 기반의 약화',
    ]);
  });

  it('leaves a list of one bullet, or one that starts below its top level, flat', () => {
    const flat = (texts: string[]) => buildBlocks(buildLines(texts.map((text, i) => item(text, 57, 100 + 16 * i, { size: 11 }))), { x0: 40, x1: 560 }).map((block) => block.markdown);
    expect(flat(['○ 첫째 항목', '○ 둘째 항목', '○ 셋째 항목'])).toEqual(['- 첫째 항목\n- 둘째 항목\n- 셋째 항목']);
    expect(flat(['○ 첫째 항목', '□ 둘째 항목', '○ 셋째 항목'])).toEqual(['- 첫째 항목\n- 둘째 항목\n- 셋째 항목']);
  });
});
