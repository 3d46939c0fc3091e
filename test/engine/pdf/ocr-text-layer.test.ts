/**
 * A scan that carries its OCR as an invisible text layer (tesseract's PDF, as scanners and OCRmyPDF write them):
 * read in mode fast from the layer, it reads as the page was printed, headings, paragraphs and tables, where PDFium's
 * sizes of its horizontally scaled words made every line a size of its own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { NativeTextItem } from '../../../src/engine/pdf/liteparse/page-items.js';
import { unscaleNarrowedType } from '../../../src/engine/pdf/liteparse/scaled-type.js';
import { allBlocks, convertBytes, convertWithPdfjs, mainMarkdown } from './helpers.js';

function printed(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../fixtures/printed/${name}`, import.meta.url)));
}

function benchPage(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../fixtures/pdf-bench/${name}`, import.meta.url)));
}

/**
 * An item as tesseract's layer draws it: `scales` are its words' horizontal scalings; each word's letters and a
 * space fill `ink` points across at the size set, so PDFium's box of the letters is `ink × n / (n + 1)` wide, the next
 * word `gap` after the ink.
 */
function layerItem(font: string, size: number, words: readonly string[], scales: readonly number[], ink = 30, gap = 3): NativeTextItem {
  let x = 50;
  const boxes = words.map((text) => {
    const n = [...text].length;
    const box = { text, x, y: 100, width: (ink * n) / (n + 1), height: size * 1.015 };
    x += ink + gap;
    return box;
  });
  const last = boxes[boxes.length - 1]!;
  return {
    text: words.join(' '),
    x: 50,
    y: 100,
    width: last.x + last.width - 50,
    height: size * 1.015,
    fontName: font,
    fontSize: size,
    // PDFium's size: the first word's scaling, capped at the size set.
    fontHeight: size * Math.min(1, scales[0]!),
    fontAscent: size,
    fontDescent: -0.015 * size,
    charCodes: [...`${words.join(' ')} `].map((char) => char.codePointAt(0)!),
    words: boxes,
  };
}

describe('type drawn narrowed (unscaleNarrowedType)', () => {
  it("gives an OCR layer's words the size set and their letters' boxes the space drawn in them", () => {
    const heading = layerItem('GlyphLessFont', 17, ['1.', 'Minutes', 'of'], [0.44, 0.91, 0.57]);
    const body = layerItem('GlyphLessFont', 11, ['The', 'minutes', 'of'], [0.82, 0.85, 0.58]);
    const wide = layerItem('GlyphLessFont', 11, ['November', '2026'], [1.26, 1.06]);
    const other = layerItem('GlyphLessFont', 11, ['were', 'approved'], [0.83, 0.89]);
    unscaleNarrowedType([{ textItems: [heading, body, wide, other] }]);
    expect([heading, body, wide, other].map((item) => item.fontHeight)).toEqual([17, 11, 11, 11]);
    // `Minutes` fills its 30 points on the scan again, the space tesseract fitted into it with its letters.
    expect(heading.words![1]!.width).toBeCloseTo(30, 6);
    expect(heading.words![0]!.width).toBeCloseTo(30, 6);
    expect(heading.width).toBeCloseTo(3 * 30 + 2 * 3, 6);
  });

  it('leaves words alone where the writer fitted each word to its box and its space to the gap', () => {
    // OCRmyPDF's own renderer: the letters fill the word's place, the next word a word space (0.3 em) after it.
    const items = [0, 1, 2, 3].map(() => layerItem('GlyphLessFont', 11, ['plans', 'suit', 'each'], [0.8, 0.8, 0.8], 30, 3));
    for (const item of items) {
      let x = 50;
      for (const word of item.words!) {
        (word as { x: number; width: number }).x = x;
        (word as { width: number }).width = 30;
        x += 30 + 3;
      }
    }
    unscaleNarrowedType([{ textItems: items }]);
    expect(items[0]!.fontHeight).toBe(11);
    expect(items[0]!.words!.map((word) => word.width)).toEqual([30, 30, 30]);
  });

  it('keeps the sizes of a font whose box meets the size set by chance, on one item of many', () => {
    const running = layerItem('Century', 14.04, ['MOHAVE', 'COMMUNITY'], [0.69, 0.69]);
    const body = [0, 1, 2, 3, 4, 5].map(() => ({ ...layerItem('Century', 1, ['text', 'set'], [9.75, 9.75]), fontHeight: 9.75, height: 21.2 }));
    unscaleNarrowedType([{ textItems: [running, ...body] }]);
    expect(running.fontHeight).toBeCloseTo(14.04 * 0.69, 6);
    expect(running.words![0]!.width).toBeCloseTo((30 * 6) / 7, 6);
  });
});

describe('a scan with its OCR text layer, mode fast', () => {
  // The pdfjs path (no LiteParse) reads its sizes upright from the text matrix: both read the page alike.
  it.each([
    ['LiteParse', convertBytes],
    ['pdfjs', convertWithPdfjs],
  ])('reads the headings, paragraphs and table the page was printed with (%s)', async (_path, convert) => {
    const doc = await convert(printed('scanned-minutes.pdf'), { mode: 'fast' });
    const headings = allBlocks(doc).filter((block) => block.type === 'section_header' || block.type === 'title');
    // Numbered alike, level alike, though tesseract's line heights give them 14 to 17 pt.
    expect(headings.map((block) => block.markdown)).toEqual([
      '# Board meeting, 14 November 2026',
      '## 1. Minutes of the last meeting',
      '## 2. Finance report',
      '## 3. Action items',
      '## 4. Any other business',
    ]);
    const markdown = mainMarkdown(doc);
    // One paragraph over its two lines, not two.
    expect(markdown).toContain('costs are on budget except travel, which is 12% over');
    // The budget's header cells whole, its figures in their columns.
    expect(markdown).toContain('| Line | Budget (EUR) | Actual (EUR) | Difference |');
    expect(markdown).toContain('| Income | 1,200,000 | 1,248,000 | +48,000 |');
    expect(markdown).toContain('| Rent | 96,000 | 96,000 | 0 |');
  });
});

describe('a scan with its OCR text layer and a ruled table, mode auto', () => {
  const rows = [
    '| Version | Date | Change | Affected Sections |',
    '| --- | --- | --- | --- |',
    '| 1.0 | April 30, 2022 | Original. |  |',
    '| 1.0 . | June 3, 2022 | Small edits for clarity on Creative Commons licensing and attribution. | 1. Introduction to Open Educational Resources |',
  ].join('\n');

  it("builds the table from the rules of the page's picture, each wrapped cell whole", async () => {
    const markdown = mainMarkdown(await convertBytes(benchPage('scan-tables-01030000000180.pdf'), { mode: 'auto' }));
    expect(markdown).toContain(rows);
    // The heading above the table stays a line of text, not a row spanning the grid.
    expect(markdown).toContain('\nVersion History\n\n| Version |');
  });

  it('reads it the same where LiteParse cannot load (pdfjs)', async () => {
    const markdown = mainMarkdown(await convertWithPdfjs(benchPage('scan-tables-01030000000180.pdf'), { mode: 'auto' }));
    // pdfjs places a speck tesseract read as `.` before the cell's word, where PDFium places it after.
    expect(markdown).toContain(rows.replace('| Original. |', '| . Original |'));
  });

  it("parts a table's rows where its picture shades every other row and rules none between them", async () => {
    const markdown = mainMarkdown(await convertBytes(benchPage('scan-tables-01030000000047.pdf'), { mode: 'auto' }));
    const rows = markdown.split('\n').filter((line) => line.startsWith('<tr><td>'));
    // Seven parties a row each, and the total; tesseract reads the column's rule as `|`.
    expect(rows.map((row) => /<td>([^<]*)<\/td>/.exec(row)![1])).toEqual(['11 |', '12 |', '13 |', '14 |', '15 |', '16 |', '17 |', '']);
    expect(rows[3]).toBe('<tr><td>14 |</td><td>Cambodian Indigeneous Peoples Democracy Party</td><td>19</td><td>194</td><td>19</td><td>202</td><td>+8</td></tr>');
  });

  it('reads a scan fed askew the same: the picture is turned with the text read square', async () => {
    const markdown = mainMarkdown(await convertBytes(benchPage('scan-askew-tables-01030000000180.pdf'), { mode: 'auto' }));
    expect(markdown).toContain(
      [
        '| Version | Date | Change | Affected Sections |',
        '| --- | --- | --- | --- |',
        '| 1.0 | April 30, 2022 | . Original |  |',
        // tesseract's reading of this scan: `Gpen`.
        '| 1.0 . | June 3, 2022 | Small edits for clarity on Creative Commons licensing and attribution. | 1. Introduction to Gpen Educational Resources |',
      ].join('\n'),
    );
  });
});

describe('a scan askew with its OCR text layer, mode fast', () => {
  // Scanned 1.2° off square: each line of the layer slants with it. LiteParse loses lines of such a page (and
  // reads a heading at 2° as turned text): the page is read by pdfjs, square.
  it.each([
    ['LiteParse installed', convertBytes],
    ['pdfjs', convertWithPdfjs],
  ])('reads every line of it in order, its headings, list and table (%s)', async (_path, convert) => {
    const doc = await convert(printed('scanned-report-askew.pdf'), { mode: 'fast' });
    const markdown = mainMarkdown(doc);
    const headings = allBlocks(doc).filter((block) => block.type === 'section_header').map((block) => block.markdown);
    expect(headings).toEqual(['## 1 Introduction', '### 1.1 Priorities', '## 2 Budget']);
    // The paragraph's second and third lines, which LiteParse left out, read on from its first.
    expect(markdown).toContain(
      'During changed business staff demand by as staff new region growth as was business at that. Prices water region and supply sales business members growth members. Growth the costs to in and by most supply of changed.',
    );
    expect(markdown).toContain('- one in the north quarter;\n- one by the market.');
    expect(markdown).toContain('| Service | 2024 | 2025 |\n| --- | --- | --- |\n| Roads | 239 | 237 |\n| Water | 608 | 459 |');
  });
});

describe('a scan askew read by OCR (mode ocr)', () => {
  // tesseract's boxes round slanted words and sloping baselines: read square, as the text layer above is.
  it('reads its lines level and in order, its headings, list and table', async () => {
    const doc = await convertBytes(printed('scanned-report-askew.pdf'), { mode: 'ocr' });
    const markdown = mainMarkdown(doc);
    expect(allBlocks(doc).filter((block) => block.type === 'section_header').map((block) => block.markdown)).toEqual([
      '## 1 Introduction',
      '### 1.1 Priorities',
      '## 2 Budget',
    ]);
    expect(markdown).toContain('During changed business staff demand by as staff new region growth as was business at that. Prices water region');
    expect(markdown).toContain('- Open two new water services:\n  - one in the north quarter;\n  - one by the market.');
    expect(markdown).toContain('| Service | 2024 | 2025 |\n| --- | --- | --- |\n| Roads | 239 | 237 |');
  }, 60_000);
});
