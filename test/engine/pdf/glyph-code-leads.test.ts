/**
 * Where a bold run-in lead ends in an item LiteParse names after the lead's font, told by the glyphs' codes: the
 * words after it are drawn with the codes the page's regular runs give the same syllables.
 */
import { describe, expect, it } from 'vitest';
import { codeUses, followsMarkInBold, regularCodes, wordsBeforeRegularCodes } from '../../../src/engine/pdf/liteparse/glyph-code-leads.js';
import type { NativeTextItem } from '../../../src/engine/pdf/liteparse/page-items.js';

function run(text: string, charCodes: number[]): NativeTextItem {
  return { text, x: 0, y: 0, width: 100, height: 10, charCodes };
}

const words = (item: NativeTextItem) => item.text.split(' ');
// The regular type draws 본 32, 논 33, 문 34, 의 35, 요 90, 소 31 (its spaces 6).
const regular = regularCodes([run('본 논문의 요소', [32, 6, 33, 34, 35, 6, 90, 31])]);

describe('a bold lead told by its glyph codes', () => {
  it("ends where the syllables take the regular type's codes", () => {
    // `요 약` in the bold font (요 17, 약 18, its space 4), then regular text (its space 6).
    const lead = run('요 약 본 논문', [17, 4, 18, 6, 32, 6, 33, 34]);
    expect(wordsBeforeRegularCodes(lead, words(lead), 4, regular)).toBe(2);
  });

  it('leaves a heading whose syllables the regular type draws with other codes whole', () => {
    const heading = run('요 본 논문', [17, 4, 40, 4, 41, 42]);
    expect(wordsBeforeRegularCodes(heading, words(heading), 3, regular)).toBe(3);
  });

  it('tells the lead where the codes are given for the first words only, as they stop at a word\'s end', () => {
    // `요 약` in the bold font, then `본 논문` in the regular type; no codes for `의 요소` past them.
    const lead = run('요 약 본 논문 의 요소', [17, 4, 18, 6, 32, 6, 33, 34, 6]);
    expect(wordsBeforeRegularCodes(lead, words(lead), 6, regular)).toBe(2);
  });

  it('says nothing where the codes cannot be matched to the text, or the followers show one match only', () => {
    expect(wordsBeforeRegularCodes(run('요 약 본 논문', [17, 18, 32]), ['요', '약', '본', '논문'], 4, regular)).toBe(4);
    const short = run('요 약 본', [17, 4, 18, 6, 32]);
    expect(wordsBeforeRegularCodes(short, words(short), 3, regular)).toBe(3);
  });
});

describe("a heading's mark set in the body's regular type before the heading's bold text", () => {
  // The regular type's runs draw their spaces 2 (최 79, 근 80); the bold type's 4 (지 3, 역 5).
  const regularUses = codeUses([run('최근 지역 산업의 디지털', [79, 80, 2, 4, 5, 2, 30, 9, 10, 2, 11, 4, 12])]);
  const boldUses = codeUses([run('지역 디지털', [3, 5, 4, 6, 7, 8])]);

  it('tells the words after the mark bold by their spaces, drawn with the bold type\'s code', () => {
    expect(followsMarkInBold(run('Ⅰ. 추진 배경', [78, 23, 4, 17, 18, 4, 19, 20]), 'Ⅰ.', regularUses, boldUses)).toBe(true);
    // The space after the mark drawn in the mark's own type.
    expect(followsMarkInBold(run('□ 추진 배경', [1, 2, 17, 18, 4, 19, 20]), '□', regularUses, boldUses)).toBe(true);
  });

  it('leaves an item whose words after the mark the regular type draws, and one opened by no mark', () => {
    expect(followsMarkInBold(run('○ 지역 대학과', [3, 2, 4, 5, 2, 20, 36, 37]), '○', regularUses, boldUses)).toBe(false);
    expect(followsMarkInBold(run('추진 배경 계획', [17, 18, 4, 19, 20, 4, 21, 22]), '추진', regularUses, boldUses)).toBe(false);
    // A page of too few regular spaces says nothing.
    expect(followsMarkInBold(run('Ⅰ. 추진 배경', [78, 23, 4, 17, 18, 4, 19, 20]), 'Ⅰ.', codeUses([run('최근', [79, 80])]), boldUses)).toBe(false);
  });
});
