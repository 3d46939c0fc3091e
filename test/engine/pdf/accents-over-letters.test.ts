/**
 * Accents drawn as glyphs of their own over a letter, after it, as TeX draws `\"u` or `\'e` in author names
 * (`Müller`, `José`, `Oğuz`): the letter read with its accent, which LiteParse gives as a word after the word, and
 * only where Unicode has such a letter.
 */
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { withAccentsOverLetters } from '../../../src/engine/pdf/liteparse/accents-over-letters.js';
import { convertBytes, mainMarkdown } from './helpers.js';

/** `word` at `x`, then `accent` centred over its letter at `index`. */
function accented(page: PDFPage, font: PDFFont, word: string, index: number, accent: string, x: number, y: number): number {
  const size = 11;
  const letterX = x + font.widthOfTextAtSize(word.slice(0, index), size);
  const letterWidth = font.widthOfTextAtSize(word[index]!, size);
  const accentX = letterX + (letterWidth - font.widthOfTextAtSize(accent, size)) / 2;
  page.drawText(word, { x, y, size, font });
  page.drawText(accent, { x: accentX, y: y + 1, size, font });
  return x + font.widthOfTextAtSize(word, size);
}

async function authorsPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const page = pdf.addPage([612, 792]);
  page.drawText('A Study of Retrieval', { x: 72, y: 700, size: 18, font });
  page.drawText('Anna ', { x: 72, y: 660, size: 11, font });
  let x = accented(page, font, 'Muller', 1, '¨', 72 + font.widthOfTextAtSize('Anna ', 11), 660);
  page.drawText(', Carlos ', { x, y: 660, size: 11, font });
  x += font.widthOfTextAtSize(', Carlos ', 11);
  x = accented(page, font, 'Jose', 3, '´', x, 660);
  page.drawText(' and Lea Smith', { x, y: 660, size: 11, font });
  page.drawText('Retrieval finds the passages that answer a question among many documents.', { x: 72, y: 620, size: 11, font });
  return pdf.save();
}

describe('accents drawn over their letters', () => {
  it('reads each letter with its accent', async () => {
    const markdown = mainMarkdown(await convertBytes(await authorsPdf(), { mode: 'fast' }));
    expect(markdown).toContain('Anna Müller, Carlos José and Lea Smith');
    expect(markdown).not.toMatch(/[¨´]/u);
  });

  it('leaves an accent alone where no letter under it takes it, and one that stands over no word', () => {
    const base = { x: 0, y: 0, width: 40, height: 10 };
    const over = (text: string, x: number) => ({ text, x, y: 0, width: 4, height: 10 });
    // `l` with a diaeresis is no letter of Unicode, nor are its neighbours here.
    const none = { ...base, text: 'll ¨', words: [{ ...base, text: 'llll' }, over('¨', 18)] };
    expect(withAccentsOverLetters(none)).toBe(none);
    const apart = { ...base, text: 'Muller ¨', words: [{ ...base, text: 'Muller' }, over('¨', 60)] };
    expect(withAccentsOverLetters(apart)).toBe(apart);
    const placed = withAccentsOverLetters({ ...base, text: 'Barlas Oguz ˘', charCodes: [1, 2], words: [{ ...base, text: 'Barlas', width: 33 }, { ...base, x: 36, width: 27, text: 'Oguz' }, over('˘', 46)] });
    expect(placed.text).toBe('Barlas Oğuz');
    expect(placed.words?.map((word) => word.text)).toEqual(['Barlas', 'Oğuz']);
    expect(placed.charCodes).toBeUndefined();
    // An acute kept at a word's end goes on a vowel, never on a consonant, where it is an apostrophe set so.
    const glued = (text: string) => withAccentsOverLetters({ ...base, text, words: [{ ...base, text }] }).text;
    expect(glued('Jose´')).toBe('José');
    expect(glued('students´')).toBe('students´');
  });
});
