/**
 * Where a bold run-in lead ends in an item LiteParse names after the lead's font, told by the glyphs' codes: the
 * words after it are drawn with the codes the page's regular runs give the same syllables.
 */
import { describe, expect, it } from 'vitest';
import { regularCodes, wordsBeforeRegularCodes } from '../../../src/engine/pdf/liteparse/glyph-code-leads.js';
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

  it('says nothing where the codes cannot be matched to the text, or the followers show one match only', () => {
    expect(wordsBeforeRegularCodes(run('요 약 본 논문', [17, 18, 32]), ['요', '약', '본', '논문'], 4, regular)).toBe(4);
    const short = run('요 약 본', [17, 4, 18, 6, 32]);
    expect(wordsBeforeRegularCodes(short, words(short), 3, regular)).toBe(3);
  });
});
