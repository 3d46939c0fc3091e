/**
 * A watermark ("CONFIDENTIAL DRAFT" set large and light across each page at 45°): page furniture, out of the
 * Markdown and labelled in the blocks; text set at a slant in the body's size (a chart's turned labels) is not one.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

const PARAGRAPHS = [
  ['The board met on the third of March to review', 'the accounts of the year and the plans for the', 'new depot, which opens in the autumn.'],
  ['Sales rose in every region, most in the north,', 'where the new shop trebled its trade in its', 'first full year of business.'],
];

/** Text along a 45° line from (x, y), in Helvetica-Bold (F2) at `size`, light grey. */
function slanted(text: string, x: number, y: number, size: number): string {
  const c = Math.SQRT1_2.toFixed(4);
  return `q 0.85 g BT /F2 ${size} Tf ${c} ${c} -${c} ${c} ${x} ${y} Tm (${text}) Tj ET Q`;
}

function pagesWithWatermark(): Uint8Array {
  const page = (title: string) => {
    const runs: TextRun[] = [{ x: 72, y: 720, text: title, size: 16, font: 'bold' }];
    let y = 690;
    for (const lines of PARAGRAPHS) {
      for (const line of lines) {
        runs.push({ x: 72, y, text: line, size: 11 });
        y -= 14;
      }
      y -= 10;
    }
    return { runs, graphics: slanted('CONFIDENTIAL DRAFT', 150, 200, 60) };
  };
  return writePdf({ pages: [page('Annual review'), page('Outlook')] });
}

describe('a watermark across the page', () => {
  it('is left out of the Markdown, and kept in the blocks as a watermark', async () => {
    const model = await convertBytes(pagesWithWatermark());
    const markdown = mainMarkdown(model);
    expect(markdown).not.toContain('CONFIDENTIAL');
    for (const lines of PARAGRAPHS) expect(markdown).toContain(lines.join(' '));
    const marks = allBlocks(model).filter((block) => block.label === 'watermark');
    expect(marks.map((block) => block.markdown)).toEqual(['CONFIDENTIAL DRAFT', 'CONFIDENTIAL DRAFT']);
  });

  it('text at a slant in the size of the body stays in the flow', async () => {
    const runs: TextRun[] = PARAGRAPHS.flat().map((text, i) => ({ x: 72, y: 700 - 14 * i, text, size: 11 }));
    const model = await convertBytes(writePdf({ pages: [{ runs, graphics: slanted('Quarterly sales', 300, 400, 11) }] }));
    expect(mainMarkdown(model)).toContain('Quarterly sales');
  });
});
