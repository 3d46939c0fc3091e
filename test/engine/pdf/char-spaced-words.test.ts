/**
 * LiteParse's words mended at the runs the content stream gives (src/engine/pdf/liteparse/char-spaced-words.ts):
 * parted where a gap was set as character spacing, joined where a space was drawn narrow, in the item's text, its
 * word boxes and its codes, and in the table cell LiteParse made of them. Items shaped as LiteParse gives them.
 */
import { describe, expect, it } from 'vitest';
import type { CharSpacedRun } from '../../../src/engine/pdf/char-spaced-runs.js';
import { mendCellWords, mendCharSpacedWords, pagesWithRunTogetherWords } from '../../../src/engine/pdf/liteparse/char-spaced-words.js';
import type { NativeTextItem } from '../../../src/engine/pdf/liteparse/page-items.js';

const word = (text: string, x: number, width: number, y = 261.42, height = 9.98) => ({ text, x, y, width, height });

function manLine(): NativeTextItem {
  return {
    text: 'with -l,print the author',
    x: 144,
    y: 261.42,
    width: 95.4,
    height: 9.98,
    fontName: 'Times-Roman',
    fontSize: 10,
    charCodes: [119, 105, 116, 104, 0, 173, 108, 44, 112, 114, 105, 110, 116],
    words: [word('with', 144, 17.78), word('-l,print', 164.28, 32.38), word('the', 199.15, 12.22), word('author', 213.87, 25.57)],
  };
}

const commaRun: CharSpacedRun = { x: 172.76, y: 268.91, text: ',p', partsAfter: [0], joinsAt: [], gap: 2.5, size: 10 };

describe("mending LiteParse's words", () => {
  it('parts a word where its gap was set as character spacing: text, boxes and codes', () => {
    const item = manLine();
    const mended = mendCharSpacedWords([{ pageNum: 1, textItems: [item] }], new Map([[1, [commaRun]]]));
    expect(item.text).toBe('with -l, print the author');
    expect(item.words!.map((w) => w.text)).toEqual(['with', '-l,', 'print', 'the', 'author']);
    const [, first, second] = item.words!;
    expect(first!.x).toBe(164.28);
    expect(second!.x).toBeCloseTo(first!.x + first!.width + 2.5, 5);
    expect(second!.x + second!.width).toBeCloseTo(164.28 + 32.38, 5);
    // A code 0 where the space is added, as PDFium writes for a space it adds.
    expect(item.charCodes!.slice(5, 10)).toEqual([173, 108, 44, 0, 112]);
    expect(mended.get(1)).toEqual([expect.objectContaining({ from: '-l,print', to: '-l, print' })]);
  });

  it('joins two words where the space between them was drawn with its width taken back', () => {
    const item: NativeTextItem = {
      text: '--rev erse',
      x: 120,
      y: 690,
      width: 48,
      height: 8.98,
      words: [word('--rev', 120, 23.5, 690, 8.98), word('erse', 144.1, 20, 690, 8.98)],
    };
    const run: CharSpacedRun = { x: 135.66, y: 697, text: 'ev e', partsAfter: [], joinsAt: [2], gap: -0.15, size: 10 };
    mendCharSpacedWords([{ pageNum: 3, textItems: [item] }], new Map([[3, [run]]]));
    expect(item.text).toBe('--reverse');
    expect(item.words).toEqual([{ text: '--reverse', x: 120, y: 690, width: expect.closeTo(44.1, 5), height: expect.closeTo(8.98, 5) }]);
  });

  it('changes nothing where the run is not where LiteParse wrote those glyphs, or is all of a word', () => {
    const elsewhere = manLine();
    mendCharSpacedWords([{ pageNum: 1, textItems: [elsewhere] }], new Map([[1, [{ ...commaRun, y: 400 }]]]));
    expect(elsewhere.text).toBe('with -l,print the author');
    const whole: NativeTextItem = { text: 'OF', x: 100, y: 90, width: 16, height: 12, words: [word('OF', 100, 16, 90, 12)] };
    mendCharSpacedWords([{ pageNum: 1, textItems: [whole] }], new Map([[1, [{ x: 100, y: 99, text: 'OF', partsAfter: [0], joinsAt: [], gap: 3.6, size: 12 }]]]));
    expect(whole.text).toBe('OF');
  });

  it("parts the word in LiteParse's table cell that holds it too", () => {
    const item = manLine();
    const mended = mendCharSpacedWords([{ pageNum: 1, textItems: [item] }], new Map([[1, [commaRun]]]));
    const table = { rect: { x0: 100, y0: 250, x1: 500, y1: 300 }, rows: [['--author', 'with -l,print the author'], ['-b', 'print escapes']] };
    const other = { rect: { x0: 100, y0: 400, x1: 500, y1: 450 }, rows: [['-x', 'with -l,print'], ['-y', 'y']] };
    const [inside, outside] = mendCellWords([table, other], mended.get(1));
    expect(inside!.rows[0]).toEqual(['--author', 'with -l, print the author']);
    expect(outside!.rows[0]).toEqual(['-x', 'with -l,print']);
  });

  it('reads only pages with a word that looks run together', () => {
    const pages = [
      { pageNum: 1, textItems: [manLine()] },
      { pageNum: 2, textItems: [{ ...manLine(), text: 'e.g. 3,000 items (s)', words: [word('e.g.', 1, 1), word('3,000', 1, 1), word('(s)', 1, 1)] }] },
      { pageNum: 3, textItems: [{ ...manLine(), text: 'its directory.However', words: [word('directory.However', 1, 1)] }] },
    ];
    expect([...pagesWithRunTogetherWords(pages)]).toEqual([1, 3]);
  });
});
