/**
 * A form to fill in by hand: labels ending in a colon, each with a line drawn after it to write on, two fields on
 * some lines (`Phone:` … `Date of birth:` …). Each drawn blank reads as underscores after its label, as a typed
 * one does, so the fields on one line stay apart; a rule under a heading's words is no blank.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { convertBytes, mainMarkdown } from './helpers.js';

async function formPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('Volunteer registration', { x: 72, y: 730, size: 18, font: bold });
  page.drawLine({ start: { x: 72, y: 722 }, end: { x: 270, y: 722 }, thickness: 1 });
  const field = (label: string, x: number, y: number, x1: number) => {
    page.drawText(label, { x, y, size: 11, font: regular });
    const start = x + regular.widthOfTextAtSize(label, 11) + 6;
    page.drawLine({ start: { x: start, y: y - 2 }, end: { x: x1, y: y - 2 }, thickness: 0.5 });
  };
  field('Full name:', 72, 690, 540);
  field('Phone:', 72, 666, 300);
  field('Date of birth:', 320, 666, 540);
  field('Signature:', 72, 620, 300);
  field('Date:', 320, 620, 450);
  return pdf.save();
}

describe('a form with blanks drawn as lines', () => {
  it('reads each blank as underscores after its label, two fields on a line apart', async () => {
    const markdown = mainMarkdown(await convertBytes(await formPdf(), { mode: 'fast' }));
    const lines = markdown.split('\n').filter(Boolean);
    expect(lines[0]).toBe('# Volunteer registration');
    const blank = String.raw`(?:\\_){3,}`;
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(new RegExp(`^Full name: ${blank}$`)),
      expect.stringMatching(new RegExp(`^Phone: ${blank} Date of birth: ${blank}$`)),
      expect.stringMatching(new RegExp(`^Signature: ${blank} Date: ${blank}$`)),
    ]);
  });
});
