/**
 * A letter: the sender's address set at the right, the recipient's at the left, a date line, a salutation, the
 * body's ragged paragraphs, a closing and a signature block (name over title). The writer ended each line of the
 * addresses and of the signature by hand: each is read as a line of its own, never run into the next, while the
 * body's paragraphs, whose lines the width ended, stay whole.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { buildBlocks } from '../../../src/engine/pdf/paragraphs.js';
import { allBlocks, convertBytes } from './helpers.js';
import { raggedLines } from './ragged-lines.js';
import { item } from './synthetic.js';

const SENDER = ['Northfield Housing Association', '14 Mill Lane', 'Leeds LS2 7QT'];
const RECIPIENT = ['Ms Jane Porter', '27 Harrow Road', 'Bradford BD1 4HS'];
const BODY = [
  'Thank you for your letter of 2 March about the damp in your kitchen. Our surveyor visited on 8 March and found that the gutter above the window is blocked, which lets rain water run down the outside wall.',
  'We have asked our contractor to clear the gutter and to replaster the wall once it has dried out. The contractor will telephone you to arrange a convenient time, which should be within the next two weeks.',
  'If you have any questions in the meantime, please do not hesitate to contact me on the number above.',
];
const SIGNATURE = ['Michael Grant', 'Housing Officer'];

async function letterPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const page = pdf.addPage([612, 792]);
  let y = 740;
  const put = (text: string, x = 72) => {
    page.drawText(text, { x, y, size: 11, font });
    y -= 14;
  };
  for (const line of SENDER) put(line, 380);
  y -= 20;
  for (const line of RECIPIENT) put(line);
  y -= 20;
  put('12 March 2024');
  y -= 16;
  put('Dear Ms Porter,');
  y -= 10;
  for (const paragraph of BODY) {
    for (const line of raggedLines(paragraph, font, 11, 468)) put(line);
    y -= 10;
  }
  put('Yours sincerely,');
  y -= 36;
  for (const line of SIGNATURE) put(line);
  return pdf.save();
}

describe('a letter', () => {
  it("reads each line of its addresses and of its signature apart, and its body's paragraphs whole", async () => {
    const doc = await convertBytes(await letterPdf(), { mode: 'fast' });
    const texts = allBlocks(doc)
      .filter((block) => !block.furniture)
      .map((block) => block.markdown);
    expect(texts).toEqual([...SENDER, ...RECIPIENT, '12 March 2024', 'Dear Ms Porter,', ...BODY, 'Yours sincerely,', ...SIGNATURE]);
  });
});

describe('a sender block with numbers written in groups', () => {
  it('reads its telephone and VAT lines a line each: a number in groups of digits is one word of the line', () => {
    // 10 pt type, 5 pt a character, in a column 250 wide: every next line's first word would have fit.
    const texts = ['Brightwater Print Ltd', 'Bristol BS1 4RT', 'Tel +44 117 496 0321', 'VAT no. GB 123 4567 89'];
    const blocks = buildBlocks(buildLines(texts.map((text, i) => item(text, 50, 100 + 12 * i))), { x0: 50, x1: 300 });
    expect(blocks.map((block) => block.text)).toEqual(texts);
  });
});

describe('short lines the width ended', () => {
  it('stay one paragraph: in a narrow column, the next line\'s first word would not have fit', () => {
    // A column 100 wide, 5 pt a character: each line stops because its next word would run past the edge.
    const texts = ['The Board met in', 'March and agreed', 'New terms for the', 'Fund and its staff.'];
    const blocks = buildBlocks(buildLines(texts.map((text, i) => item(text, 50, 100 + 12 * i))), { x0: 50, x1: 150 });
    expect(blocks.map((block) => block.text)).toEqual([texts.join(' ')]);
  });
});
