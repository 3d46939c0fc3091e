/**
 * Korean lines wrap between words of several full-em syllables, so a wrapped line can stop some ems short of the
 * column's edge: measured against the next line's first word it is full (line-wrap.ts), and the sentence runs on.
 */
import { describe, expect, it } from 'vitest';
import { buildBlocks } from '../../../src/engine/pdf/paragraphs.js';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';
import { item } from './synthetic.js';

const SIZE = 10;
const REGION = { x0: 50, x1: 350 };

/** A line of words, one item each: a Hangul syllable a full em wide, other characters half an em, 0.3 em apart. */
function line(text: string, baseline: number, bold = false, x0 = REGION.x0): PdfTextItem[] {
  let x = x0;
  return text.split(' ').map((word, i) => {
    if (i > 0) x += 0.3 * SIZE;
    const width = [...word].reduce((sum, ch) => sum + (/[\uac00-\ud7af□○]/u.test(ch) ? SIZE : SIZE / 2), 0);
    const out = item(word, x, baseline, { size: SIZE, bold, width, spaceBefore: i > 0 });
    x += width;
    return out;
  });
}

function markdownOf(items: PdfTextItem[]): string[] {
  return buildBlocks(buildLines(items), REGION).map((block) => block.markdown);
}

describe('a Korean line wrapped before a word that would not fit', () => {
  it('carries a typed bullet\'s item on where its next line starts back under the bullet', () => {
    // The first line stops 3.4 em short of the edge: `수도권과` (4 em) would not fit after it.
    const items = [
      ...line('□ 디지털 기술의 확산으로 구조가 빠르게 변화하고 있으나,', 100),
      ...line('수도권과 비수도권 간 디지털 역량 격차는 여전히 크다.', 114),
      ...line('□ 정부는 종합 대책을 마련할 필요가 있다.', 135),
    ];
    expect(markdownOf(items)).toEqual([
      '- 디지털 기술의 확산으로 구조가 빠르게 변화하고 있으나, 수도권과 비수도권 간 디지털 역량 격차는 여전히 크다.\n' +
        '- 정부는 종합 대책을 마련할 필요가 있다.',
    ]);
  });

  it('leaves a paragraph under a short item apart: its first word would have fit after the item', () => {
    const items = [...line('□ 지역 연계 기반이 부족함', 100), ...line('정부는 지역 주도의 디지털 혁신을 지원한다.', 114)];
    expect(markdownOf(items)).toEqual(['- 지역 연계 기반이 부족함', '정부는 지역 주도의 디지털 혁신을 지원한다.']);
  });

  it('runs a line LiteParse read as bold (an article\'s bold number leads it) on into its regular rest', () => {
    // `이의신청을` (5 em) would not fit in the 2.1 em the first line leaves.
    const items = [
      ...line('제2조(정의) 청구인은 공개 결정에 대하여 통지 후 30일 이내에', 100, true),
      ...line('이의신청을 할 수 있다.', 114),
    ];
    expect(markdownOf(items)).toEqual(['제2조(정의) 청구인은 공개 결정에 대하여 통지 후 30일 이내에 이의신청을 할 수 있다.']);
  });
});
