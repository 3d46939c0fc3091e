/**
 * Note marks and powers set raised and smaller against a word: written in superscript digits (`year³`, `m²`), not
 * run into the word (`year3`), and only where the word boxes show them raised.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { writeMarksSetApart, writeRaisedMarks } from '../../../src/engine/pdf/liteparse/raised-marks.js';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { item } from './synthetic.js';
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

describe('raised marks read as items of their own', () => {
  const textOf = (items: Parameters<typeof buildLines>[0]) => buildLines(items).map((line) => line.text);

  it('writes a smaller number raised against the item before it in superscript digits', () => {
    expect(textOf([item('See', 72, 100, { size: 11 }), item('Figure', 92, 100, { size: 11 }), item('4.4', 128, 100, { size: 11 }), item('4', 144.5, 96, { size: 7 }), item('below.', 150, 100, { size: 11 })])).toEqual(['See Figure 4.4⁴ below.']);
  });

  it('writes a note letter or a power in letters raised against its word in superscript letters', () => {
    expect(textOf([item('the', 40, 100, { size: 11 }), item('South', 60, 100, { size: 11 }), item('a', 88, 96, { size: 7, width: 3 }), item('branch', 96, 100, { size: 11 })])).toEqual(['the Southᵃ branch']);
    expect(textOf([item('error', 40, 100, { size: 11 }), item('ch', 72, 100, { size: 11 }), item('p', 84, 96, { size: 7, width: 3.5 })])).toEqual(['error chᵖ']);
    // Two letters raised are an ordinal's or an abbreviation's ending, left as drawn.
    expect(textOf([item('the', 40, 100, { size: 11 }), item('1', 60, 100, { size: 11 }), item('st', 66, 96, { size: 7, width: 6 })])[0]).not.toMatch(/ˢᵗ/);
  });

  it('raises the first mark of a list drawn into the word with the rest', () => {
    // PDFium puts the `1` into the word and the comma and the `2` apart, the comma with the line's size.
    expect(textOf([item('the', 30, 100, { size: 11 }), item('heuristics.1', 52, 100, { size: 11, width: 54.6 }), item(',', 106.7, 104.5, { size: 11, width: 2.4 }), item('2', 109.2, 97.6, { size: 7.2, width: 4 })])).toEqual(['the heuristics.¹,²']);
  });

  it('leaves a number on the line, and one that opens it', () => {
    expect(textOf([item('in', 72, 100, { size: 11 }), item('2024', 86, 100, { size: 11 })])).toEqual(['in 2024']);
    expect(textOf([item('1', 72, 97, { size: 7 }), item('County', 77, 100, { size: 11 }), item('records', 115, 100, { size: 11 })])[0]).toMatch(/^1/);
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

/** A paper's title and its authors, each name marked with the number of an affiliation in 7-point type. */
async function authorsPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const bold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('Flood Risk and the Siting of Public Libraries', { x: 140, y: 720, size: 16, font: bold });
  let x = 190;
  for (const [text, mark] of [['Anna Webb', '1'], [', Thomas Harcourt', '1,2'], [' and Mei Lin', '2']] as const) {
    page.drawText(text, { x, y: 696, size: 11, font });
    x += font.widthOfTextAtSize(text, 11);
    page.drawText(mark, { x, y: 700, size: 7, font });
    x += font.widthOfTextAtSize(mark, 7);
  }
  page.drawText('The council reviewed the proposal for the new library in its October meeting.', { x: 72, y: 660, size: 10, font });
  return pdf.save();
}

describe('raised marks in a PDF', () => {
  it('reads the affiliations of authors as superscripts against their names', async () => {
    const markdown = mainMarkdown(await convertBytes(await authorsPdf(), { mode: 'fast' }));
    expect(markdown).toContain('Anna Webb¹, Thomas Harcourt¹,² and Mei Lin²');
  });

  it('reads a note mark as a superscript against its word, the notes keeping their numbers', async () => {
    const markdown = mainMarkdown(await convertBytes(await notesPdf(), { mode: 'fast' }));
    expect(markdown).toContain('the Harcourt family¹, who held the land until the enclosure of the fields. It was rebuilt after the great fire². Its floor is 120 m² in all.');
    expect(markdown).not.toMatch(/family1|fire2|m2 /);
    expect(markdown).toMatch(/^1 County Record Office/m);
  });
});

describe('writeMarksSetApart', () => {
  /** Boxes of 11-point words, each `[text, top, foot]` (y down), 20 wide and touching. */
  function marked(words: readonly [string, number, number][], fullHeight = true) {
    const boxes = words.map(([, top, foot], i) => ({ x: 20 * i, y: top, width: 20, height: foot - top }));
    const texts = words.map(([text]) => text);
    const spaced = words.map(() => false);
    writeMarksSetApart(boxes, texts, spaced, boxes.length, 11, fullHeight);
    return texts;
  }

  it('raises a number whose foot stands above its neighbours\', on a line of three words, and the mark drawn into the word before its stop', () => {
    // LibreOffice's print of a Word note reference: `Ouch` with the first mark in its box, the stop, the second mark.
    expect(marked([['Ouch1', 73.2, 84.1], ['.', 74.4, 84.1], ['2', 73.2, 79]])).toEqual(['Ouch¹', '.', '²']);
  });

  it('leaves a number level with its neighbours (a formula\'s, in an item whose box a taller sign stretched)', () => {
    expect(marked([['m', 400, 412.1], ['=', 401.5, 418.7], ['2', 400.1, 412.1], ['in', 400.1, 412.1]])).toEqual(['m', '=', '2', 'in']);
  });

  it('leaves the word before the stop where the boxes are cut to the glyphs (a stop\'s box is low in any word\'s company)', () => {
    expect(marked([['Ouch1', 73.2, 84.1], ['.', 82, 84.1], ['2', 73.2, 79]], false)).toEqual(['Ouch1', '.', '²']);
  });
});

describe('a Word document printed by LibreOffice', () => {
  it('reads its note references as superscripts against the word and the stop they follow', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/footnotes.pdf', import.meta.url)));
    const markdown = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    expect(markdown.split('\n')[0]).toBe('Ouch¹.²');
  });
});

