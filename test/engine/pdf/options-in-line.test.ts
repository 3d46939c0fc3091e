/**
 * An exam paper's multiple-choice questions: numbered questions, each with its options (a) to (d) set one under
 * another, or side by side on one line, two to a line or all four. Each option is an item of its own under its
 * question, however it is set.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';

const QUESTIONS: [string, string[], number][] = [
  ['What is the SI unit of force?', ['joule', 'newton', 'watt', 'pascal'], 1],
  ['Which gas do plants take in during photosynthesis?', ['oxygen', 'nitrogen', 'carbon dioxide', 'helium'], 4],
  ['Which of these is a vector quantity?', ['mass', 'temperature', 'velocity', 'energy'], 2],
];
const LETTERS = 'abcd';

async function examPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const bold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const page = pdf.addPage([612, 792]);
  let y = 700;
  page.drawText('Physics Mid-Term Examination', { x: 72, y, size: 16, font: bold });
  y -= 20;
  page.drawText('Answer all questions. Each question carries 2 marks.', { x: 72, y, size: 11, font });
  y -= 28;
  QUESTIONS.forEach(([question, options, perLine], q) => {
    page.drawText(`${q + 1}.`, { x: 72, y, size: 11, font });
    page.drawText(question, { x: 90, y, size: 11, font });
    y -= 18;
    options.forEach((option, i) => {
      const column = i % perLine;
      page.drawText(`(${LETTERS[i]}) ${option}`, { x: 100 + column * (440 / perLine), y, size: 11, font });
      if (column === perLine - 1 || i === options.length - 1) y -= 15;
    });
    y -= 12;
  });
  return pdf.save();
}

describe('an exam paper', () => {
  it('reads each option an item under its question, set one under another or side by side', async () => {
    const doc = await convertBytes(await examPdf(), { mode: 'fast' });
    const lists = allBlocks(doc).filter((block) => block.label === 'list');
    expect(lists.map((block) => block.markdown).join('\n')).toBe(
      QUESTIONS.flatMap(([question, options], q) => [`${q + 1}. ${question}`, ...options.map((option, i) => `   - (${LETTERS[i]}) ${option}`)]).join('\n'),
    );
  });
});
