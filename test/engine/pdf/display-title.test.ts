/**
 * Display type at the very top of a page (as a word processor prints a document): a title of two lines is one
 * heading, not two margin lines read apart; chapter headings that differ only in their numbers, each at the top of
 * its page, are headings, not a running header. Generated PDFs, local engine.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOptions } from '../../../src/backend/upload-checks.js';
import { LocalParseEngine } from '../../../src/engine/local-engine.js';

async function titledPage(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawText('Understanding Digital Marketing: Key Types,', { x: 57, y: 842 - 63, size: 24, font: bold });
  page.drawText('Channels, and Examples', { x: 57, y: 842 - 90.7, size: 24, font: bold });
  for (let i = 0; i < 12; i++) {
    page.drawText(`Line ${i + 1}: digital marketing uses online platforms to promote products and reach people.`, { x: 57, y: 842 - 150 - i * 15, size: 11, font: regular });
  }
  return pdf.save();
}

/** Three pages, each opening with its chapter's heading at the very top, a small running footer under each. */
async function chapterPages(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 3; n++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`Chapter ${n}: Findings of the survey`, { x: 57, y: 842 - 50, size: 18, font: bold });
    for (let i = 0; i < 20; i++) {
      page.drawText(`Line ${i + 1} of chapter ${n}: the survey measured the outcomes of the programme in each region.`, { x: 57, y: 842 - 110 - i * 15, size: 11, font: regular });
    }
    page.drawText('Annual survey report', { x: 57, y: 30, size: 8, font: regular });
  }
  return pdf.save();
}

describe('a title of two lines at the top of a page', () => {
  let engine: LocalParseEngine;
  beforeAll(() => {
    engine = new LocalParseEngine({ size: 1 });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('is one heading', async () => {
    const data = await engine.parseBytes(await titledPage(), 'title.pdf', checkOptions({ parsers: [{ type: 'pdf' }] }));
    expect(data.markdown?.split('\n')[0]).toBe('# Understanding Digital Marketing: Key Types, Channels, and Examples');
  });

  it('and chapter headings at the tops of their pages are headings, the small footer a running footer', async () => {
    const data = await engine.parseBytes(await chapterPages(), 'chapters.pdf', checkOptions({ parsers: [{ type: 'pdf', blocks: true }] }));
    const headings = (data.markdown ?? '').split('\n').filter((line) => line.startsWith('#'));
    expect(headings.map((line) => line.replace(/^#+ /, ''))).toEqual([1, 2, 3].map((n) => `Chapter ${n}: Findings of the survey`));
    expect(data.markdown).not.toContain('Annual survey report');
    expect(data.blocks!.flatMap((page) => page.items).filter((item) => item.type === 'page_footer')).toHaveLength(3);
  });
});
