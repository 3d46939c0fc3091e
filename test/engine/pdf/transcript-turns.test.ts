/**
 * Transcripts. A deposition: double-spaced Courier, each question and answer led by `Q.` or `A.` set a tab apart
 * from its text, the text's wrapped lines set in under it. Each turn is a paragraph of its own, however close the
 * next turn's line stands under the last line of the one above. An interview: each speaker's name in bold in a
 * column of its own, ending in a colon, the words level with it: the name leads the turn, read in its line.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';
import { raggedLines } from './ragged-lines.js';

const TURNS = [
  ['Q.', 'Where were you on the night of the fourth?'],
  ['A.', "I was at home with my wife. We had friends over for dinner and they left at about eleven o'clock."],
  ['Q.', 'Did you leave the house after that?'],
  ['A.', 'No.'],
  ['Q.', 'Did anyone call at the house later that night, or telephone you before the morning?'],
  ['A.', 'Not that I remember.'],
];

async function transcriptPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Courier);
  const page = pdf.addPage([612, 792]);
  let y = 730;
  for (const [label, text] of TURNS) {
    page.drawText(label!, { x: 90, y, size: 12, font });
    for (const line of raggedLines(text!, font, 12, 400)) {
      page.drawText(line, { x: 130, y, size: 12, font });
      y -= 24;
    }
  }
  return pdf.save();
}

describe('a transcript of questions and answers', () => {
  it('reads each turn led by its label as a paragraph of its own', async () => {
    const doc = await convertBytes(await transcriptPdf(), { mode: 'fast' });
    const texts = allBlocks(doc)
      .filter((block) => !block.furniture)
      .map((block) => block.markdown);
    expect(texts).toEqual(TURNS.map(([label, text]) => `${label} ${text}`));
  });
});

const INTERVIEW = [
  ['INTERVIEWER:', 'When did you first go down the pit?'],
  ['WALKER:', 'I was fifteen. My father took me on the first morning, and I remember the cage dropping so fast my ears popped.'],
  ['INTERVIEWER:', 'What was the hardest part of the work?'],
  ['WALKER:', 'The heat, and the dust. You could not see the man next to you some days, and we worked like that for eight hours.'],
];

async function interviewPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.TimesRoman);
  const bold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const page = pdf.addPage([612, 792]);
  let y = 730;
  for (const [speaker, words] of INTERVIEW) {
    page.drawText(speaker!, { x: 72, y, size: 11, font: bold });
    for (const line of raggedLines(words!, regular, 11, 360)) {
      page.drawText(line, { x: 180, y, size: 11, font: regular });
      y -= 14;
    }
    y -= 6;
  }
  return pdf.save();
}

describe('an interview with the speakers named in a column of their own', () => {
  it("reads each turn as a paragraph led by its speaker's name, never a heading", async () => {
    const doc = await convertBytes(await interviewPdf(), { mode: 'fast' });
    const blocks = allBlocks(doc).filter((block) => !block.furniture);
    expect(blocks.map((block) => block.markdown)).toEqual(INTERVIEW.map(([speaker, words]) => `${speaker} ${words}`));
    expect(blocks.some((block) => block.type === 'section_header')).toBe(false);
  });
});
