/**
 * Note marks and powers set raised and smaller against a word: written in superscript digits (`year³`, `m²`), not
 * run into the word (`year3`), and only where the word boxes show them raised.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { writeRaisedMarks } from '../../../src/engine/pdf/liteparse/raised-marks.js';
import { convertBytes, mainMarkdown } from './helpers.js';

/** Word boxes of one line of 10-point type, its boxes 12 high from y = 100, each word 30 wide and 5 apart. */
function line(...words: { text: string; raised?: number; lifted?: boolean }[]) {
  const boxes = words.map((word, i) => {
    const raised = word.raised ?? 0;
    // A mark apart is a box of its own above the line; one in a word stretches the word's box up.
    return word.lifted ? { x: 35 * i - 4, y: 96, width: 8, height: 8 } : { x: 35 * i, y: 100 - raised, width: 30, height: 12 + raised };
  });
  const texts = words.map((word) => word.text);
  const spaced = words.map((_, i) => i > 0);
  writeRaisedMarks(boxes, texts, spaced, boxes.length, 10);
  return { texts, spaced };
}

describe('writeRaisedMarks', () => {
  it('writes the digits that raise a word in superscript, punctuation kept where it stands', () => {
    expect(line({ text: 'built' }, { text: 'by' }, { text: 'family1,', raised: 1.5 }, { text: 'who' }).texts).toEqual(['built', 'by', 'family¹,', 'who']);
    expect(line({ text: 'an' }, { text: 'area' }, { text: 'm2', raised: 2 }, { text: 'wide' }).texts).toEqual(['an', 'area', 'm²', 'wide']);
    expect(line({ text: 'each' }, { text: 'document,5', raised: 2 }, { text: 'and' }).texts).toEqual(['each', 'document,⁵', 'and']);
    expect(line({ text: 'the' }, { text: 'sources12,13', raised: 2 }, { text: 'show' }).texts).toEqual(['the', 'sources¹²,¹³', 'show']);
  });

  it('joins a mark set apart to the word before it', () => {
    const { texts, spaced } = line({ text: 'the' }, { text: 'river' }, { text: '2', lifted: true }, { text: 'and' });
    expect(texts).toEqual(['the', 'river', '²', 'and']);
    expect(spaced).toEqual([false, true, false, true]);
  });

  it('leaves words that are not raised, digits after digits, and the first word of the line', () => {
    expect(line({ text: 'the' }, { text: 'COVID19' }, { text: 'report' }).texts).toEqual(['the', 'COVID19', 'report']);
    // The box cannot tell `2.16⁸` from `2.¹⁶⁸`.
    expect(line({ text: 'Review' }, { text: 'Figure' }, { text: '2.168', raised: 3 }, { text: 'below' }).texts).toEqual(['Review', 'Figure', '2.168', 'below']);
    expect(line({ text: 'A1', raised: 2 }, { text: 'is' }, { text: 'the' }).texts).toEqual(['A1', 'is', 'the']);
    expect(line({ text: 'under' }, { text: 'x1', raised: 2 }).texts).toEqual(['under', 'x1']);
  });
});

/** A paragraph whose note marks are set raised in 7-point type against its words, the notes at the foot. */
async function notesPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const page = pdf.addPage([612, 792]);
  const lines: [string, string][][] = [
    [
      ['The mill was built in 1742 by the Harcourt family', '1'],
      [', who held the land until the enclosure of the fields.', ''],
    ],
    [
      ['It was rebuilt after the great fire', '2'],
      ['. Its floor is 120 m', '2'],
      [' in all.', ''],
    ],
  ];
  lines.forEach((runs, i) => {
    let x = 72;
    const y = 700 - 14 * i;
    for (const [text, mark] of runs) {
      page.drawText(text, { x, y, size: 10.5, font });
      x += font.widthOfTextAtSize(text, 10.5);
      if (mark) {
        page.drawText(mark, { x, y: y + 4, size: 7, font });
        x += font.widthOfTextAtSize(mark, 7);
      }
    }
  });
  page.drawText('1', { x: 72, y: 123, size: 6, font });
  page.drawText('County Record Office, Harcourt papers, deed of 1742.', { x: 78, y: 120, size: 8.5, font });
  page.drawText('2', { x: 72, y: 112, size: 6, font });
  page.drawText('Reported in the county newspaper of 14 March 1891.', { x: 78, y: 109, size: 8.5, font });
  return pdf.save();
}

describe('raised marks in a PDF', () => {
  it('reads a note mark as a superscript against its word, the notes keeping their numbers', async () => {
    const markdown = mainMarkdown(await convertBytes(await notesPdf(), { mode: 'fast' }));
    expect(markdown).toContain('the Harcourt family¹, who held the land until the enclosure of the fields. It was rebuilt after the great fire². Its floor is 120 m² in all.');
    expect(markdown).not.toMatch(/family1|fire2|m2 /);
    expect(markdown).toMatch(/^1 County Record Office/m);
  });
});
