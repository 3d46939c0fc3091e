/**
 * Dashes set between words of prose, which LiteParse's text gives as hyphens: each comes out as the dash the page
 * draws, told by its width (Helvetica's em dash 1000 units, en dash 556, hyphen 333), and a hyphen typed between
 * spaces stays one. A minus as wide, in a line of mathematics or between numbers, stays a hyphen-minus.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { dashByWidth } from '../../../src/engine/pdf/liteparse/dash-widths.js';
import { convertBytes, mainMarkdown } from './helpers.js';

/** The Markdown of a page of `lines` in 11-pt Helvetica, 20 pt apart from the top. */
async function helveticaLinesMarkdown(lines: readonly string[]): Promise<string> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  lines.forEach((text, i) => page.drawText(text, { x: 72, y: 700 - 20 * i, size: 11, font }));
  return mainMarkdown(await convertBytes(await pdf.save(), { mode: 'fast' }));
}

async function dashesPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const helvetica = await pdf.embedFont(StandardFonts.Helvetica);
  const times = await pdf.embedFont(StandardFonts.TimesRoman);
  page.drawText('The committee met twice — once in May and once in June.', { x: 72, y: 700, size: 11, font: helvetica });
  page.drawText('Open every day – weekends too, and a plain hyphen - as typed.', { x: 72, y: 680, size: 11, font: helvetica });
  page.drawText('In Times the dashes read the same — and – too.', { x: 72, y: 660, size: 12, font: times });
  return pdf.save();
}

describe('dashes between spaces', () => {
  it('read as the em dash, the en dash or the hyphen the page draws', async () => {
    const markdown = mainMarkdown(await convertBytes(await dashesPdf(), { mode: 'fast' }));
    expect(markdown).toContain('The committee met twice — once in May and once in June.');
    expect(markdown).toContain('Open every day – weekends too, and a plain hyphen - as typed.');
    expect(markdown).toContain('In Times the dashes read the same — and – too.');
  });
});

describe('a minus between spaces', () => {
  it('stays a hyphen-minus in a line of mathematics or between numbers, however wide its glyph', async () => {
    const markdown = await helveticaLinesMarkdown(['The error is e — 2.7525 = 0.0342 for this step.', 'Ages 10 – 12 are counted apart.']);
    expect(markdown).toContain('The error is e - 2.7525 = 0.0342 for this step.');
    expect(markdown).toContain('Ages 10 - 12 are counted apart.');
  });
});

describe('a minus sign between words of prose', () => {
  it("stays a hyphen-minus at the minus glyph's width in Times (564) and Helvetica (584), where their en dashes (500, 556) read as en dashes", () => {
    const words = ['ls', '-', 'list', 'directory', 'contents'];
    const line = 'ls - list directory contents';
    expect(dashByWidth(words, 1, 5.64, 10, line)).toBe('-');
    expect(dashByWidth(words, 1, 5.84, 10, line)).toBe('-');
    expect(dashByWidth(words, 1, 5.0, 10, line)).toBe('–');
    expect(dashByWidth(words, 1, 5.56, 10, line)).toBe('–');
    expect(dashByWidth(words, 1, 10, 10, line)).toBe('—');
  });
});

describe('dashes inside words', () => {
  it('read as the dash the same font draws alone between words with that code, hyphens left as they are', async () => {
    const markdown = await helveticaLinesMarkdown([
      'The survey ran in 2019–2020 — twice a year – with a well-known method.',
      'The Mann–Whitney test compared the groups—each of them apart.',
    ]);
    expect(markdown).toContain('The survey ran in 2019–2020 — twice a year – with a well-known method.');
    expect(markdown).toContain('The Mann–Whitney test compared the groups—each of them apart.');
  });
});
