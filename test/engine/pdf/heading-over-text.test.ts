/**
 * A heading set tight above its text, where the text's first line reads as bold: a Korean article's bold number
 * (`제1조(목적)`) in one LiteParse item with its regular words makes the whole line bold (paragraphs.ts).
 */
import { describe, expect, it } from 'vitest';
import { buildBlocks } from '../../../src/engine/pdf/paragraphs.js';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { item } from './synthetic.js';

const REGION = { x0: 50, x1: 350 };

describe('a bold heading in larger type over a line read as bold', () => {
  it('stands apart from the line under it', () => {
    const items = [
      item('제1절 목적 및 정의', 50, 100, { size: 12.5, bold: true, em: 0.9 }),
      item('제1조(목적) 기관의 장은 청구가 있는 경우 10일 이내에 공개 여부를', 50, 118, { size: 11, bold: true, em: 0.7 }),
      item('결정하여야 한다.', 50, 132, { size: 11 }),
    ];
    const blocks = buildBlocks(buildLines(items), REGION);
    expect(blocks.map((block) => block.text)).toEqual([
      '제1절 목적 및 정의',
      '제1조(목적) 기관의 장은 청구가 있는 경우 10일 이내에 공개 여부를 결정하여야 한다.',
    ]);
  });

  it('leaves a short first line in the type of the line under it in its paragraph', () => {
    const first = [
      item('제1절 목적 및 정의', 50, 100, { size: 11, bold: true, em: 0.9 }),
      item('제1조(목적) 기관의 장은 청구가 있는 경우 10일 이내에 공개 여부를', 50, 114, { size: 11, bold: true, em: 0.7 }),
    ];
    expect(buildBlocks(buildLines(first), REGION)).toHaveLength(1);
  });
});
