import { describe, expect, it } from 'vitest';
import { rtlGlyphText } from '../../../src/engine/pdf/right-to-left-glyphs.js';

describe('rtlGlyphText: a glyph of several right-to-left characters, ready for the line reversal', () => {
  it('reverses the letters of an Arabic ligature given in logical order', () => {
    expect(rtlGlyphText('لا')).toBe('ال');
    expect(rtlGlyphText('لأ')).toBe('أل');
    expect(rtlGlyphText('الله')).toBe('هللا');
  });

  it('spells out a ligature presentation form, reversed: lam-alef and the word ligature', () => {
    expect(rtlGlyphText('\ufefb')).toBe('ال');
    expect(rtlGlyphText('\ufef7')).toBe('أل');
    expect(rtlGlyphText('\ufdf2')).toBe('هللا');
  });

  it('reverses a letter and its mark, which the line reversal puts back', () => {
    expect(rtlGlyphText('بَ')).toBe('َب');
  });

  it('leaves one letter, a one-letter presentation form, and every left-to-right glyph as they are', () => {
    expect(rtlGlyphText('ب')).toBe('ب');
    expect(rtlGlyphText('\ufe8f')).toBe('\ufe8f');
    expect(rtlGlyphText('fi')).toBe('fi');
    expect(rtlGlyphText('\ufb01')).toBe('\ufb01');
    expect(rtlGlyphText('\uff21')).toBe('\uff21');
    expect(rtlGlyphText('')).toBe('');
  });
});
