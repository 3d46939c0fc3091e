/**
 * One LiteParse page as the layout reads it (liteparse/page-items.ts), fed by hand: the words of an item and
 * where PDFium's text puts spaces between them, and how its rotated items are split; and a sheet printed with
 * rotated column names.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nativePageItems, type NativeTextItem } from '../../../src/engine/pdf/liteparse/page-items.js';
import { groupRotated } from '../../../src/engine/pdf/rotated.js';
import { convertBytes, mainMarkdown } from './helpers.js';

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
    // An "f" or an italic letter reaching over the space: boxes a hair apart, or overlapping.
    expect(read(item(['of', 'the'], [0.01], { charCodes: codes('of the') }))).toBe('of the');
    expect(read(item(['of', 'the'], [-0.015], { charCodes: codes('of the') }))).toBe('of the');
  });

  it('a word set apart after a clause\'s punctuation is a word of its own though the text has no space there', () => {
    const sentence = item(['not', 'know.', 'This', 'question'], [0.18, 0.1, 0.18], { text: 'not know.This question' });
    expect(read(sentence)).toBe('not know. This question');
    // A number's parts set apart ("0" ".965") and letters after a digit stay one word.
    expect(read(item(['0', '.965'], [0.1], { text: '0.965' }))).toBe('0.965');
    expect(read(item(['know.', 'This'], [0.01], { text: 'know.This' }))).toBe('know.This');
  });

  it('between runs of capitals, a narrow space the codes cannot confirm is letter spacing', () => {
    // A running head in tracked capitals, the item's codes cut short after its first run: PDFium spaces the letters
    // 0.047 em apart where its runs meet; the words stand 0.36 em apart.
    const head = item(['BEHAV', 'IO', 'RAL', 'ECONOM', 'ICS', 'P', 'RACT', 'ICUM'], [0.047, 0.047, 0.36, 0.047, 0.36, 0.047, 0.047], {
      charCodes: [...codes('BEHAV'), 0],
    });
    expect(read(head)).toBe('BEHAVIORAL ECONOMICS PRACTICUM');
    // Tracked wider, every letter a word ("C H A P T E R": a printed web page's letter-spacing, 0.17 em): one word
    // item, which the line builder cannot part again at its 0.12 em word gap.
    const words = (textItem: NativeTextItem) => nativePageItems({ width: 612, height: 792, textItems: [textItem] }).items.map((word) => word.str);
    const label = item(['C', 'H', 'A', 'P', 'T', 'E', 'R', '3'], [0.17, 0.17, 0.17, 0.17, 0.17, 0.17, 0.65], { charCodes: [...codes('C'), 0] });
    expect(words(label)).toEqual(['CHAPTER', '3']);
    // A space glyph drawn between the letters, or letters a word space apart: words of their own.
    expect(words(item(['A', 'B', 'C'], [0.17, 0.17], { charCodes: codes('A B C') }))).toEqual(['A', 'B', 'C']);
    expect(words(item(['A', 'B', 'C'], [0.25, 0.25], { charCodes: [...codes('A'), 0] }))).toEqual(['A', 'B', 'C']);
    // Lower case on either side: the text's space stands (an italic's overhang, above).
    expect(read(item(['NOTE', 'for'], [0.047], { charCodes: [...codes('NOTE'), 0] }))).toBe('NOTE for');
  });

  it("the text's space stands between boxes a hair apart when no codes say otherwise (an italic's overhang)", () => {
    // "Estimated cumulative damage for impeller blades." set in an italic: "damage" and "for" 0.049 em apart,
    // the item's codes cut short after its first word.
    const caption = item(['damage', 'for', 'impeller'], [0.049, 0.3], { charCodes: [...codes('damage'), 0] });
    expect(read(caption)).toBe('damage for impeller');
    expect(read(item(['if', 'you'], [0.003]))).toBe('if you');
  });
});

describe('a ligature PDFium writes a space after', () => {
  it('is inside its word where its box meets the letters after it, the codes cut short', () => {
    // A Garamond's ﬁ and ﬃ: PDFium writes `fi rst`, `Offi cers` and, at a line's end, `Qualifi -`.
    expect(read(item(['the', 'fi', 'rst', 'Meeting'], [0.25, 0, 0.25], { charCodes: [...codes('the'), 0] }))).toBe('the first Meeting');
    expect(read(item(['Offi', 'cers'], [0.001], { charCodes: [...codes('O'), 0] }))).toBe('Officers');
    // The hyphen of the word broken there joins it (this one's box, as wide as a letter, reads as a dash).
    expect(read(item(['Qualifi', '-'], [0], { charCodes: [...codes('Q'), 0] }))).toMatch(/^Qualifi\S$/u);
  });

  it('leaves a word ending in those letters apart from the next where a space parts them, or an overhang', () => {
    expect(read(item(['sci-fi', 'films'], [0.25], { charCodes: [...codes('sci'), 0] }))).toBe('sci-fi films');
    expect(read(item(['staff', 'member'], [-0.015], { charCodes: [...codes('staff'), 0] }))).toBe('staff member');
    expect(read(item(['Fi', 'Rst'], [0], { charCodes: [...codes('F'), 0] }))).toBe('Fi Rst');
  });
});

describe('the autospace a word processor sets between Hangul and digits, Latin letters or a period', () => {
  it('is no word space where it is narrower than the line\'s spaces between Hangul words', () => {
    // LibreOffice: 0.2 em between `2024` and `년`, 0.3 em between words (0.17 em before a period set in a Latin font).
    expect(read(item(['설문', '조사는', '2024', '년', '3', '월부터', '전국'], [0.3, 0.3, 0.2, 0.3, 0.2, 0.3]))).toBe('설문 조사는 2024년 3월부터 전국');
    expect(read(item(['대체로', '일치한다', '.', '설문', '조사는'], [0.3, 0.17, 0.3, 0.3]))).toBe('대체로 일치한다. 설문 조사는');
    expect(read(item(['제', '1', '장', '총칙'], [0.2, 0.2, 0.3]))).toBe('제1장 총칙');
  });

  it('leaves a typed space beside a digit and a bullet\'s space', () => {
    expect(read(item(['전문', '인력', '2', '만', '명을', '양성한다.'], [0.3, 0.3, 0.2, 0.3, 0.3]))).toBe('전문 인력 2만 명을 양성한다.');
    expect(read(item(['□', '디지털', '기술의', '확산'], [0.2, 0.3, 0.3]))).toBe('□ 디지털 기술의 확산');
  });

  it('on a line with no space between Hangul words (a table\'s header cell, a date), measures the gap in ems', () => {
    expect(read(item(['2025', '년'], [0.2]))).toBe('2025년');
    expect(read(item(['2025', '년', '3', '월'], [0.2, 0.3, 0.2]))).toBe('2025년 3월');
    // A typed space is as wide as the font's: 0.28 em and more.
    expect(read(item(['2025', '년'], [0.3]))).toBe('2025 년');
    expect(read(item(['PDF', '변환'], [0.28]))).toBe('PDF 변환');
  });

  it('where the line draws its spaces as glyphs, keeps a space drawn and joins at a gap drawn without one', () => {
    // Noto Sans CJK draws its space 0.22 em wide, as narrow as the autospace: only the glyphs tell them apart.
    const words = ['나.', '생활', 'SOC', '확충'];
    expect(read(item(words, [0.22, 0.22, 0.22], { charCodes: codes('나. 생활 SOC 확충') }))).toBe('나. 생활 SOC 확충');
    expect(read(item(words, [0.22, 0.22, 0.22], { charCodes: codes('나. 생활SOC 확충') }))).toBe('나. 생활SOC 확충');
  });

  it('leaves the space after a comma or a period set on a Hangul word, however narrow the font draws it', () => {
    // A table's cell in Noto Sans CJK, whose space is 0.22 em: the line shows no space between Hangul words.
    expect(read(item(['메뚜기,', '개구리,', '매'], [0.22, 0.22]))).toBe('메뚜기, 개구리, 매');
    expect(read(item(['빛,', '온도,', '물'], [0.22, 0.22]))).toBe('빛, 온도, 물');
  });
});

describe('a run-in lead in a LiteParse item', () => {
  /** A bold item whose words' boxes are `heights` tall (a font's ascent to descent: other metrics, another font). */
  function boldItem(words: readonly string[], heights: readonly number[]): NativeTextItem {
    const base = item(words, words.slice(1).map(() => 0.3), { fontName: 'UniversLTStd-Bold', fontWeight: 700 });
    return { ...base, words: base.words!.map((word, i) => ({ ...word, height: heights[i]! })) };
  }
  const boldWords = (textItem: NativeTextItem) =>
    nativePageItems({ width: 612, height: 792, textItems: [textItem] }).items.filter((word) => word.bold).map((word) => word.str);

  it('the words after a bold lead, in boxes of another font\'s height, are not bold', () => {
    const line = boldItem(['Demographics', 'of', 'respondents.', 'The', 'overall', 'gender'], [11.29, 11.29, 11.29, 11.47, 11.47, 11.47]);
    expect(boldWords(line)).toEqual(['Demographics', 'of', 'respondents.']);
  });

  it('a bold line whose boxes agree stays bold; so does one with a word of another size (a superscript, a symbol)', () => {
    expect(boldWords(boldItem(['Key', 'findings'], [11.29, 11.29]))).toEqual(['Key', 'findings']);
    // The number's box, as high as the line's but shorter, stands above the line's foot: a raised mark, in superscript.
    expect(boldWords(boldItem(['Results', '2'], [11.29, 7.5]))).toEqual(['Results', '²']);
    // Boxes that come back to the first word's height are one font drawn unevenly, not a lead.
    expect(boldWords(boldItem(['One', 'two', 'three'], [11.29, 11.47, 11.29]))).toEqual(['One', 'two', 'three']);
    // Boxes cut to each word's glyphs (LibreOffice's TrueType fonts): as high as the word's letters reach, one font.
    const heading = ['Embarking', 'on', 'a', 'Musical', 'Journey', 'with', 'Music'];
    expect(boldWords(boldItem(heading, [17.658, 15.858, 15.858, 16.848, 17.1, 16.848, 16.848]))).toEqual(heading);
  });

  it('a heading whose first word reaches lower than the rest is no lead: a lead ends its phrase', () => {
    // LaTeX's chapter title in Type 1 bold: `Getting` (its g below the line) boxed taller than `started`.
    expect(boldWords(boldItem(['Getting', 'started', 'today'], [24.1, 23.6, 23.6]))).toEqual(['Getting', 'started', 'today']);
    expect(boldWords(boldItem(['Note:', 'the', 'rest', 'follows'], [11.29, 11.47, 11.47, 11.47]))).toEqual(['Note:']);
  });

  it('a Korean bold heading whose numbered first word is boxed taller than its other syllables stays bold', () => {
    // LibreOffice's NanumGothicBold at 11.5 pt, boxes cut to the glyphs: `가.` reaches lower than `지역 거점 육성`.
    const heading = ['가.', '지역', '거점', '육성'];
    expect(boldWords(boldItem(heading, [11.12, 10.9, 10.9, 10.91]))).toEqual(heading);
    expect(boldWords(boldItem(['(1)', '추진', '배경'], [10.47, 10.2, 10.2]))).toEqual(['(1)', '추진', '배경']);
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

  /** Shaded cells in a row from `top` to `bottom`, side by side between the `xs` (edges shared). */
  function shadedRow(xs: readonly number[], top: number, bottom: number) {
    const cells = xs.slice(1).map((x, i) => filledBox(xs[i]!, top, x - xs[i]!, bottom - top));
    return { shapes: cells.map((cell) => cell.shape), lines: cells.flatMap((cell) => cell.lines) };
  }

  function tableRulings(rows: ReturnType<typeof shadedRow>[], table: { x0: number; y0: number; x1: number; y1: number }) {
    const page = { width: 612, height: 792, textItems: [], vectorGraphics: { lines: rows.flatMap((row) => row.lines), shapes: rows.flatMap((row) => row.shapes) } };
    return nativePageItems(page, [table]).rulings;
  }

  /** The stretches of rule at `x`, top to bottom, each once (two cells side by side both give their shared edge). */
  const verticalAt = (x: number, rulings: { x0: number; y0: number; x1: number; y1: number }[]) =>
    [...new Set(rulings.filter((ruling) => ruling.x0 === x && ruling.x1 === x).map((ruling) => `${ruling.y0}-${ruling.y1}`))]
      .map((span) => span.split('-').map(Number))
      .sort((a, b) => a[0]! - b[0]!);

  it('a shaded band just above a table LiteParse found is its header row: the band\'s inner edges are column lines', () => {
    // LiteParse's table starts at its first body row (y 142); the header band ends 2 pt above it.
    const table = { x0: 52, y0: 142, x1: 298, y1: 220 };
    // Drawn a cell at a time, or as one path (LiteParse gives one shape for it, and the edges of each cell).
    expect(verticalAt(120, tableRulings([shadedRow([50, 120, 300], 100, 140)], table))).toEqual([[100, 140]]);
    const path = { shapes: [filledBox(50, 100, 250, 40).shape], lines: shadedRow([50, 120, 300], 100, 140).lines };
    expect(verticalAt(120, tableRulings([path], table))).toEqual([[100, 140]]);
    // Further above, or narrower than the table, a shaded box is a panel of its own.
    expect(verticalAt(120, tableRulings([shadedRow([50, 120, 300], 100, 130)], table))).toEqual([]);
    expect(verticalAt(120, tableRulings([shadedRow([50, 120, 150], 100, 140)], table))).toEqual([]);
  });

  it('column lines go on across an unshaded row between shaded ones (banded rows), never across a shaded cell spanning columns', () => {
    const table = { x0: 50, y0: 100, x1: 300, y1: 180 };
    const banded = tableRulings([shadedRow([50, 120, 300], 100, 120), shadedRow([50, 120, 300], 140, 160)], table);
    // The table's box reaches a row under the last band (to 180): that unshaded row is ruled as the one between.
    expect(verticalAt(120, banded)).toEqual([[100, 120], [120, 140], [140, 160], [160, 180]]);
    // The middle row is shaded but one cell across both columns: no edge at x 120 in it, and none is made.
    const spanning = tableRulings([shadedRow([50, 120, 300], 100, 120), shadedRow([50, 300], 120, 140), shadedRow([50, 120, 300], 140, 160)], table);
    expect(verticalAt(120, spanning)).toEqual([[100, 120], [140, 160]]);
  });

  it("never bridges a shaded panel as wide as the text to the narrower table under it (a textbook's boxed note)", () => {
    // LiteParse's table box takes in the panel above the table; the panel's left edge lines up with the table's.
    const table = { x0: 50, y0: 100, x1: 500, y1: 220 };
    const rulings = tableRulings([shadedRow([50, 500], 100, 150), shadedRow([50, 120, 300], 170, 190), shadedRow([50, 120, 300], 200, 220)], table);
    expect(verticalAt(50, rulings)).toEqual([[100, 150], [170, 190], [190, 200], [200, 220]]);
  });
});

describe("a ligature's letters written a byte off in an item", () => {
  it('reads as the letters in every item, with or without word boxes, so that a cell or label taken whole reads them', () => {
    // Ghostscript's copies map `ﬁ` to U+6600 U+6900 (`昀椀`): a table's header label takes its item's text as it is.
    const withWords = item(['Observed', 'returns', 'on', 'the', '\u6600\u6900rm\'s'], [0.25, 0.25, 0.25, 0.25]);
    expect(read(withWords)).toBe("Observed returns on the firm's");
    const { words: _, ...withoutWords } = withWords;
    expect(nativePageItems({ width: 612, height: 792, textItems: [withoutWords] }).items.map((entry) => entry.str)).toEqual(["Observed returns on the firm's"]);
  });

  it('leaves such characters alone where no Latin letter touches them (Chinese text)', () => {
    expect(read(item(['\u6700\u65b0', '\u6600\u6c14'], [0.25]))).toBe('\u6700\u65b0 \u6600\u6c14');
  });
});

describe('an item whose box is many times its font\'s size high', () => {
  it('is placed on the line its words stand on, not by its box', () => {
    // One glyph with a tall box (Cambria Math's μ in a copy of Cambria) gives the item a box 50 pt high, its top
    // 22 pt above the line's: the words' own boxes say where the line is.
    const tall = item(['10x', 'loading', 'dye'], [0.25, 0.25], { y: 332, height: 50, fontAscent: 6.3, fontDescent: -2 });
    const words = tall.words!.map((word) => ({ ...word, y: 353.7, height: 8.3 }));
    const plain = item(['Reagents:'], [], { y: 353.7, height: 8.3, fontAscent: 6.3, fontDescent: -2, x: 200 });
    const read = nativePageItems({ width: 612, height: 792, textItems: [{ ...tall, words }, plain] }).items;
    const baselines = new Set(read.map((entry) => entry.baseline.toFixed(2)));
    expect(baselines.size).toBe(1);
  });
});

describe('a rotated item whose words stand apart along it', () => {
  it("is read as the runs of its words: two tables' column names turned on their side, one above the other", () => {
    // PDFium's one item of the note marks over both tables and the first table's name: `(a)` `(a)` `Sales`, read
    // upwards (rotation 270), the second `(a)` 227 pt below the first, beside the second table's own `Sales`.
    const word = (text: string, y: number, height: number) => ({ text, x: 213, y, width: 6, height });
    const marks: NativeTextItem = {
      text: '(a)(a)Sales',
      x: 213,
      y: 166.8,
      width: 6.2,
      height: 232,
      rotation: 270,
      fontHeight: 3.8,
      words: [word('(a)', 166.8, 5.3), word('(a)', 393.7, 5.3), word('Sales', 174.2, 17.6)],
    };
    const sales: NativeTextItem = { text: 'Sales', x: 213, y: 401.2, width: 6.2, height: 17.6, rotation: 270, fontHeight: 6.6, words: [word('Sales', 401.2, 17.6)] };
    const read = nativePageItems({ width: 595, height: 842, textItems: [marks, sales] });
    expect(read.rotated.map((entry) => [entry.str, Math.round(entry.y)]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ['Sales (a)', 192],
      ['(a)', 399],
      ['Sales', 419],
    ]);
    const lines = groupRotated(read.rotated).map((line) => [line.text, Math.round(line.rect.y0)]);
    expect(lines.sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ['Sales (a)', 167],
      ['Sales (a)', 394],
    ]);
  });
});

describe('a sheet of two tables under column names turned on their side, as LibreOffice prints it', () => {
  it("reads each table's names once, over its own columns", async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/segments-page.pdf', import.meta.url)));
    const markdown = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    expect(markdown).not.toMatch(/Sales \(a\) Sales \(a\)|Depreciation Depreciation/);
    const headers = markdown.split('\n').filter((line) => line.startsWith('|  | Sales (a) | Underlying Trading operating profit (b) |'));
    expect(headers).toHaveLength(2);
  });
});
