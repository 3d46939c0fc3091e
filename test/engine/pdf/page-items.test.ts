/**
 * One LiteParse page as the layout reads it (liteparse/page-items.ts), fed by hand: the words of an item and
 * where PDFium's text puts spaces between them.
 */
import { describe, expect, it } from 'vitest';
import { nativePageItems, type NativeTextItem } from '../../../src/engine/pdf/liteparse/page-items.js';

const SIZE = 11;

/** An item of words laid out left to right, each `gap` em after the last (its own width: 0.6 em a letter). */
function item(words: readonly string[], gaps: readonly number[], extra: Partial<NativeTextItem> = {}): NativeTextItem {
  let x = 56;
  const boxes = words.map((text, i) => {
    if (i > 0) x += gaps[i - 1]! * SIZE;
    const box = { text, x, y: 100, width: 0.6 * SIZE * text.length, height: SIZE };
    x += box.width;
    return box;
  });
  return { text: words.join(' '), x: 56, y: 100, width: x - 56, height: SIZE, fontHeight: SIZE, words: boxes, ...extra };
}

function read(textItem: NativeTextItem): string {
  return nativePageItems({ width: 612, height: 792, textItems: [textItem] })
    .items.map((word) => (word.spaceBefore ? ` ${word.str}` : word.str))
    .join('');
}

const codes = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

describe('spaces between a LiteParse item\'s words', () => {
  it('letter spacing PDFium read as spaces is not a word break where the font draws its spaces as glyphs', () => {
    // "BURNING BRIDGES GAME" in tracked capitals: PDFium writes a space where letters stand 0.07 em apart.
    const tracked = item(['BURN', 'ING', 'BR', 'IDGES', 'GAME'], [0.07, 0.47, 0.07, 0.47], { charCodes: codes('BURNING BRIDGES GAME ') });
    expect(read(tracked)).toBe('BURNING BRIDGES GAME');
  });

  it('a word set wide with no space glyph at all is one word; a wider break without a glyph stays a break', () => {
    // The trailing code 0 is PDFium's own space after the last glyph.
    const heading = item(['C', 'HA', 'PT', 'E', 'R', '1.'], [0.068, 0.068, 0.068, 0.068, 0.3], { charCodes: [...codes('CHAPTER1.'), 0] });
    expect(read(heading)).toBe('CHAPTER 1.');
  });

  it('the space glyph may have another code than 32 (a subset font): matched where the first space is drawn', () => {
    // O N E, the space (code 3), S E C T I O N S.
    const subset = item(['ONE', 'SECT', 'IONS'], [0.3, 0.068], { charCodes: [5, 6, 7, 3, 8, 9, 10, 11, 12, 5, 6, 8] });
    expect(read(subset)).toBe('ONE SECTIONS');
  });

  it('narrow spaces stay where the codes do not match the text, or where no codes come with it', () => {
    // Codes cut short (PDFium gives some items only their first run's): the text's spaces are kept as they are.
    expect(read(item(['of', 'the', 'rest'], [0.06, 0.06], { charCodes: [1, 2, 0] }))).toBe('of the rest');
    expect(read(item(['of', 'the', 'rest'], [0.06, 0.06]))).toBe('of the rest');
  });

  it('a space drawn as a glyph is a break however narrow', () => {
    expect(read(item(['of', 'the'], [0.06], { charCodes: codes('of the') }))).toBe('of the');
  });
});

describe('rules from LiteParse\'s vector graphics', () => {
  /** A filled box as LiteParse gives it: the shape, and its outline as four unstroked lines. */
  function filledBox(x: number, y: number, width: number, height: number) {
    const [x1, y1] = [x + width, y + height];
    return {
      shape: { bbox: { x, y, width, height }, stroke: false, fill: true, hasCurve: false },
      lines: [
        { x1: x, y1: y, x2: x1, y2: y, stroke: false },
        { x1: x, y1, x2: x1, y2: y1, stroke: false },
        { x1: x, y1: y, x2: x, y2: y1, stroke: false },
        { x1, y1: y, x2: x1, y2: y1, stroke: false },
      ],
    };
  }
  const stroked = { x1: 50, y1: 100, x2: 300, y2: 100, stroke: true };

  function rulingsOf(tables: { x0: number; y0: number; x1: number; y1: number }[]) {
    const panel = filledBox(50, 120, 250, 80);
    const page = { width: 612, height: 792, textItems: [], vectorGraphics: { lines: [stroked, ...panel.lines], shapes: [panel.shape] } };
    return nativePageItems(page, tables).rulings;
  }

  it('a filled panel\'s outline is no rule outside a table: a panel of notes under a table does not extend its grid', () => {
    expect(rulingsOf([{ x0: 40, y0: 40, x1: 310, y1: 110 }])).toEqual([{ x0: 50, y0: 100, x1: 300, y1: 100 }]);
  });

  it('inside a table LiteParse found, a filled box\'s outline is rules (shaded rows and bands drawn as cells)', () => {
    expect(rulingsOf([{ x0: 40, y0: 40, x1: 310, y1: 300 }])).toHaveLength(5);
  });
});
