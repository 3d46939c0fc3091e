/**
 * Justified prose in small type: a book page printed at 70 % (two pages to a sheet, a booklet). LiteParse cuts its
 * paragraph into a table at ordinary spaces between words, its gaps measured in points; no channel splits the
 * lines, so it stays prose under its heading.
 */
import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { convertBytes, mainMarkdown } from './helpers.js';

const PAGE = new URL('../../fixtures/pdf-bench/structure-01030000000004.pdf', import.meta.url);
const TABLE_PAGE = new URL('../../fixtures/pdf-bench/tables-01030000000187.pdf', import.meta.url);

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

describe('type sizes in small print', () => {
  it('a line a step bigger than the body, short of a heading’s step, stays text (9 over 8 points, printed at 70 %)', async () => {
    const pdf = await PDFDocument.create();
    const [regular, bold] = await Promise.all([pdf.embedFont(StandardFonts.Helvetica), pdf.embedFont(StandardFonts.HelveticaBold)]);
    const page = pdf.addPage([420, 560]);
    const scale = 0.7;
    let y = 520;
    const write = (text: string, size: number, font = regular) => {
      page.drawText(text, { x: 40, y, size: size * scale, font });
      y -= size * scale * 1.4;
    };
    write('False Causation', 14.5, bold);
    write('Correlation does not imply causation.', 9);
    y -= 6;
    for (const text of ['If you have ever taken a statistics course, you have almost certainly come across', 'this common phrase: two trends that move together do not prove that one causes the other.']) write(text, 9);
    y -= 8;
    for (let i = 0; i < 3; i++) {
      for (const text of ['The figure below shows two series that rise and fall together over twenty years, and', 'a reader who sees them side by side may think that one of them drives the other, while', 'both follow a third cause that the figure does not show at all, or follow nothing at all.']) write(text, 8);
      y -= 6;
    }
    const markdown = mainMarkdown(await convertBytes(await pdf.save(), { mode: 'fast' }));
    expect(markdown).toMatch(/^#+ False Causation$/m);
    expect(markdown).toMatch(/^Correlation does not imply causation\.$/m);
  });
});

describe('a table in small print', () => {
  it('reads the header rows the other reader left out of its cells as the table\'s, as at full size (a paper\'s page printed at 70 %)', async () => {
    const markdown = mainMarkdown(await convertBytes(await printedAt(readFileSync(TABLE_PAGE), 0.7), { mode: 'fast' }));
    const header = markdown.slice(0, markdown.indexOf('Table 1:'));
    // The other reader joins a sign to its word in small type (`#Samples` for `# Samples`): docmill's reading of the
    // aligned text, with the group labels over their columns, is taken for holding its words all the same.
    expect(header).toContain('<tr><th rowspan="3">Properties</th><th colspan="6">Training Datasets</th></tr>');
    expect(header).toContain('<th>Alpaca-GPT4</th><th>OpenOrca</th><th>Synth. Math-Instruct</th><th>Orca DPO Pairs</th>');
    expect(header).toContain('<tr><td>Open Source</td><td>O</td><td>O</td><td>✗</td><td>O</td><td>O</td><td>✗</td></tr>');
    // Every word once.
    expect(header.match(/Samples/g)).toHaveLength(2);
  });
});
