/**
 * A title of two lines in display type at the very top of a page (as a word processor prints a document): one
 * heading, not two margin lines read apart. Generated PDF, local engine.
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
});
