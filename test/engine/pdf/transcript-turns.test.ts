/**
 * A deposition transcript: double-spaced Courier, each question and answer led by `Q.` or `A.` set a tab apart
 * from its text, the text's wrapped lines set in under it. Each turn is a paragraph of its own, however close the
 * next turn's line stands under the last line of the one above.
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
