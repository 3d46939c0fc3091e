/**
 * Justified prose in small type: a book page printed at 70 % (two pages to a sheet, a booklet). LiteParse cuts its
 * paragraph into a table at ordinary spaces between words, its gaps measured in points; no channel splits the
 * lines, so it stays prose under its heading.
 */
import { readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { convertBytes, mainMarkdown } from './helpers.js';

const PAGE = new URL('../../fixtures/pdf-bench/structure-01030000000004.pdf', import.meta.url);

/** The page drawn at `scale` on a page as much smaller, as a printer's "fit to page" draws it. */
async function printedAt(bytes: Uint8Array, scale: number): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  const [page] = await out.embedPdf(bytes, [0]);
  out.addPage([page!.width * scale, page!.height * scale]).drawPage(page!, { x: 0, y: 0, xScale: scale, yScale: scale });
  return out.save();
}

describe('a book page printed small', () => {
  it.each([1, 0.7])('at %s of its size reads its conclusion as a heading over one paragraph, never a table', async (scale) => {
    const markdown = mainMarkdown(await convertBytes(await printedAt(readFileSync(PAGE), scale), { mode: 'fast' }));
    expect(markdown).toMatch(/^#+ 12 Conclusion$/m);
    expect(markdown).toMatch(/^In this chapter, I have outlined the benefits of fitting formal observer models to judgements about simultaneity, and described how this/m);
    expect(markdown).not.toContain('|');
  });
});
