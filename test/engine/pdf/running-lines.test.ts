/**
 * Running headers set tight above the text, as a browser prints a page: on the pages whose text starts at the top,
 * the header is no isolated line of the margin, yet it is the header of every other page. Generated PDF, local engine.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOptions } from '../../../src/backend/upload-checks.js';
import { LocalParseEngine } from '../../../src/engine/local-engine.js';

const HEADER = '11/28/26, 4:20 AM Duck - Wikipedia';

/** Four pages; the text of pages 2 and 4 starts right under the header, that of pages 1 and 3 well below it. */
async function printedPages(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 4; n++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(HEADER, { x: 24, y: 772, size: 8, font });
    const top = n % 2 === 0 ? 760 : 700;
    for (let i = 0; i < 6; i++) {
      page.drawText(`Line ${i + 1} of page ${n}: ducks are birds that live by water and feed on plants.`, { x: 34, y: top - i * 15, size: 11, font });
    }
    page.drawText(`file:///archive/duck.html ${n}/4`, { x: 24, y: 16, size: 8, font });
  }
  return pdf.save();
}

describe('a running header set tight above the text', () => {
  let engine: LocalParseEngine;
  let bytes: Uint8Array;
  beforeAll(async () => {
    engine = new LocalParseEngine({ size: 1 });
    bytes = await printedPages();
  });
  afterAll(async () => {
    await engine.close();
  });

  it('is the page header on every page, and out of the document Markdown', async () => {
    const data = await engine.parseBytes(bytes, 'duck.pdf', checkOptions({ parsers: [{ type: 'pdf', blocks: true }] }));
    for (const page of data.blocks!) {
      const header = page.items.find((item) => item.content === HEADER);
      expect(header?.type, `page ${page.pageNumber}`).toBe('page_header');
      expect(header?.markdownSpan).toBeNull();
    }
    expect(data.markdown).not.toContain('Wikipedia');
    expect(data.markdown).toContain('Line 1 of page 2: ducks are birds');
  });
});

/** A study of five pages, its running head the study's name left and the chapter's right, a chapter a page or two. */
async function chapteredPages(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const chapters = ['Chapter 1: The site', 'Chapter 1: The site', 'Chapter 2: The building', 'Chapter 2: The building', 'Chapter 3: The costs'];
  chapters.forEach((chapter, i) => {
    const page = pdf.addPage([612, 792]);
    page.drawText('Riverside Library: Feasibility Study', { x: 72, y: 750, size: 8.5, font });
    page.drawText(chapter, { x: 540 - font.widthOfTextAtSize(chapter, 8.5), y: 750, size: 8.5, font });
    for (let line = 0; line < 8; line++) {
      page.drawText(`Line ${line + 1} of page ${i + 1}: the council weighed the two sites for the new library.`, { x: 72, y: 700 - line * 14, size: 10.5, font });
    }
    page.drawText(`Page ${i + 1} of ${chapters.length}`, { x: 280, y: 40, size: 9, font });
  });
  return pdf.save();
}

describe('a running head whose chapter part changes', () => {
  it('is the page header on every page, the last chapter of a page alone too', async () => {
    const engine = new LocalParseEngine({ size: 1 });
    try {
      const data = await engine.parseBytes(await chapteredPages(), 'study.pdf', checkOptions({ parsers: [{ type: 'pdf', mode: 'fast', blocks: true }] }));
      expect(data.markdown).not.toContain('Feasibility Study');
      expect(data.markdown).not.toContain('Chapter 3');
      const headers = data.blocks!.map((page) => page.items.filter((item) => item.type === 'page_header').map((item) => item.content).join(' '));
      expect(headers.every((header) => header.includes('Feasibility Study'))).toBe(true);
    } finally {
      await engine.close();
    }
  });
});
