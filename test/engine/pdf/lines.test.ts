import { describe, expect, it } from 'vitest';
import { buildLine, buildLines, clusterLines, joinItems, orderLineItems, repairText } from '../../../src/engine/pdf/lines.js';
import { item } from './synthetic.js';

describe('clusterLines / buildLines', () => {
  it('groups items by baseline and orders each line left to right', () => {
    const lines = buildLines([
      item('world', 60, 100),
      item('second line', 10, 114),
      item('Hello', 10, 100.4),
    ]);
    expect(lines.map((line) => line.text)).toEqual(['Hello world', 'second line']);
  });

  it('keeps superscripts and subscripts on their line', () => {
    const lines = buildLines([
      item('Karpukhin', 10, 100, { size: 12 }),
      item('∗', 64, 95.7, { size: 8 }),
      item('x', 10, 130, { size: 12 }),
      item('i', 16, 133, { size: 8 }),
    ]);
    expect(lines).toHaveLength(2);
    expect(lines[0]!.text).toBe('Karpukhin∗');
    expect(lines[1]!.text).toBe('xi');
  });

  it('does not chain the lines of two columns set at slightly different baselines', () => {
    const items = [];
    for (let i = 0; i < 5; i++) {
      items.push(item(`left ${i}`, 10, 100 + i * 12));
      items.push(item(`right ${i}`, 300, 106 + i * 12));
    }
    const clusters = clusterLines(items);
    expect(clusters.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...clusters.map((cluster) => cluster.length))).toBeLessThanOrEqual(2);
  });

  it('keeps a small line above a large figure set at the end of the next line out of that line', () => {
    // A tax form's header: a form number in 8 pt over a bold line in 10 pt ending in the year at 20 pt, whose
    // glyphs reach up past the form number's baseline.
    const lines = buildLines([
      item('28726', 49.4, 63.5, { size: 8 }),
      item('2013', 497.2, 76.2, { size: 20, bold: true }),
      item('Do', 48.2, 79.4, { bold: true }),
      item('Not use this voucher', 66.6, 79.4, { bold: true }),
    ]);
    expect(lines.map((line) => line.text)).toEqual(['28726', 'Do Not use this voucher 2013']);
  });

  it('splits a line into cells at gaps wider than a word space', () => {
    const line = buildLine([item('Region', 72, 100), item('Revenue', 220, 100), item('Growth', 360, 100)]);
    expect(line.cells.map((cell) => cell.text)).toEqual(['Region', 'Revenue', 'Growth']);
    expect(line.text).toBe('Region Revenue Growth');
  });

  it('keeps a bullet drawn apart from its text in the text cell', () => {
    const line = buildLine([item('•', 72, 100), item('First point', 100, 100)]);
    expect(line.cells).toHaveLength(1);
    expect(line.text).toBe('• First point');
  });

  it('takes the dominant size, font and weight by characters', () => {
    const line = buildLine([
      item('A heading in bold', 10, 100, { size: 14, bold: true }),
      item('1', 140, 100, { size: 10 }),
    ]);
    expect(line.size).toBe(14);
    expect(line.bold).toBe(true);
  });

  it('flags a line that starts with a raised footnote marker', () => {
    const line = buildLine([item('2', 10, 96, { size: 7 }), item('For instance, the score drops.', 14, 100, { size: 9 })]);
    expect(line.superscriptStart).toBe(true);
  });
});

describe('joinItems', () => {
  it('adds a space only where the gap or the PDF spacing warrants one', () => {
    expect(joinItems([item('ab', 0, 10, { width: 10 }), item('cd', 10.5, 10)])).toBe('abcd');
    expect(joinItems([item('ab', 0, 10, { width: 10 }), item('cd', 13, 10)])).toBe('ab cd');
    expect(joinItems([item('ab', 0, 10, { width: 10 }), item('cd', 10, 10, { spaceBefore: true })])).toBe('ab cd');
  });

  it('does not put spaces between CJK characters that touch', () => {
    expect(joinItems([item('日本', 0, 10, { width: 20 }), item('語', 20.5, 10)])).toBe('日本語');
  });

  it("joins Hangul and a digit in another font at a word processor's autospace (0.2 em), not at a typed space", () => {
    // `제1장 총칙` set at 18 pt: the digit in a Latin font, 3.6 pt (0.2 em) from the syllables on either side, in a
    // document whose runs show an autospace of 0.2 em (the runs' first words carry it: liteparse/read-pages.ts).
    const run = (text: string, x0: number, width: number, font: string, autospaceEm?: number) => ({
      ...item(text, x0, 10, { size: 18, width, font, spaceBefore: true }),
      ...(autospaceEm ? { autospaceEm } : {}),
    });
    expect(joinItems([run('제', 0, 17.4, 'NotoSerifCJK-Bold', 0.2), run('1', 21, 12.5, 'DejaVuSerif-Bold', 0.2), run('장 총칙', 37.1, 56.7, 'NotoSerifCJK-Bold', 0.2)])).toBe('제1장 총칙');
    // In a document that sets no autospace, the same gaps are typed spaces (`1.5% 빅포인트`, 0.18 em).
    expect(joinItems([run('제', 0, 17.4, 'NotoSerifCJK-Bold'), run('1', 21, 12.5, 'DejaVuSerif-Bold'), run('장 총칙', 37.1, 56.7, 'NotoSerifCJK-Bold')])).toBe('제 1 장 총칙');
    // A typed space (0.3 em) stays, and so does a space between two Latin runs however narrow.
    expect(joinItems([item('자료', 0, 10, { size: 10, width: 20 }), { ...item('KOSIS', 23, 10, { size: 10, width: 30, font: 'Latin' }), autospaceEm: 0.2 }])).toBe('자료 KOSIS');
    expect(joinItems([item('Figure', 0, 10, { size: 10, width: 30 }), { ...item('3', 31.5, 10, { size: 10, width: 5, spaceBefore: true }), autospaceEm: 0.2 }])).toBe('Figure 3');
  });

  it('sets a Latin word apart from Arabic even when no gap is drawn', () => {
    const arabic = item('من الأدوات', 100, 10, { rtl: true, width: 50 });
    const latin = item('Python', 70, 10, { width: 30 });
    expect(joinItems([latin, arabic])).toBe('Python من الأدوات');
  });
});

describe('right-to-left lines', () => {
  it('reads Arabic right to left, keeping embedded Latin words in their own order', () => {
    const items = [
      item('تحسين البرمجة بلغة', 280, 100, { rtl: true, width: 230 }),
      item('R', 268, 100, { width: 8 }),
      item('و', 258, 100, { rtl: true, width: 6 }),
      item('Python', 215, 100, { width: 40 }),
    ];
    const line = buildLine(items);
    expect(line.rtl).toBe(true);
    expect(line.text).toBe('تحسين البرمجة بلغة R و Python');
  });

  it('keeps a run of several Latin items left to right inside an RTL line', () => {
    const ordered = orderLineItems(
      [
        item('نص', 200, 10, { rtl: true, width: 20 }),
        item('Python', 150, 10, { width: 30 }),
        item('3.12', 185, 10, { width: 12 }),
      ],
      true,
    );
    expect(ordered.map((entry) => entry.str)).toEqual(['نص', 'Python', '3.12']);
  });
});

describe('repairText', () => {
  it('composes a spacing accent drawn before its letter', () => {
    expect(repairText('Barlas O˘guz')).toBe('Barlas Oğuz');
    expect(repairText('Andr´e')).toBe('André');
  });

  it('leaves accents that do not compose into one letter alone', () => {
    expect(repairText('don´t')).toBe('don´t');
  });

  it('puts the Arabic lam-alef ligature after the article back in logical order', () => {
    expect(repairText('اإلنتاجية')).toBe('الإنتاجية');
    expect(repairText('إلى')).toBe('إلى');
  });
});
