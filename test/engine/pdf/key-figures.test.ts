/**
 * Key figures side by side, each a figure in display type over the words that say what it counts: read figure by
 * figure, each with its words, never the figures in one line and their words mixed in the next.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { findKeyFigures } from '../../../src/engine/pdf/key-figures.js';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { item } from './synthetic.js';

const FIGURES = [
  ['42%', 'of residents visited', 'a library this year'],
  ['18,300', 'books lent', 'in the summer'],
  ['7', 'branches open', 'on Sundays'],
];

/** The figures at 30 pt over their words at 10 pt, 168 pt apart, under a title and a paragraph. */
async function keyFiguresPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('The year in numbers', { x: 72, y: 720, size: 18, font: bold });
  page.drawText('The libraries of the district had their busiest year since they opened.', { x: 72, y: 690, size: 10, font: regular });
  FIGURES.forEach(([figure, first, second], i) => {
    const x = 72 + i * 168;
    page.drawText(figure!, { x, y: 640, size: 30, font: bold });
    page.drawText(first!, { x, y: 620, size: 10, font: regular });
    page.drawText(second!, { x, y: 607, size: 10, font: regular });
  });
  page.drawText('What readers said', { x: 72, y: 560, size: 14, font: bold });
  page.drawText('Most wrote that the new opening hours suit them better than the old ones.', { x: 72, y: 540, size: 10, font: regular });
  return pdf.save();
}

describe('key figures in a PDF', () => {
  it('reads each figure with its words, in turn, as text, not as headings', async () => {
    const doc = await convertBytes(await keyFiguresPdf(), { mode: 'fast' });
    const tiles = FIGURES.map((words) => words.join(' '));
    expect(mainMarkdown(doc)).toContain(`opened.\n\n${tiles.join('\n\n')}\n\n## What readers said`);
    for (const tile of tiles) expect(allBlocks(doc).find((block) => block.markdown === tile)?.type).toBe('text');
  });
});

describe('findKeyFigures', () => {
  /** Figures at `size` over lines of words at 10 pt, each column 168 apart. */
  const lines = (figures: string[], words: string[][], size = 30) =>
    buildLines([
      ...figures.map((figure, col) => item(figure, 72 + 168 * col, 100, { size })),
      ...words.flatMap((row, r) => row.map((text, col) => item(text, 72 + 168 * col, 100 + 14 + 12 * r))),
    ]);

  it('finds figures over the phrases they count', () => {
    const found = findKeyFigures(lines(['42%', '7'], [['of residents visited', 'branches open'], ['a library', 'on Sundays']]));
    expect(found.map((block) => block.tiles)).toEqual([['42% of residents visited a library', '7 branches open on Sundays']]);
  });

  it('leaves a chart’s labels in capitals, figures in the words’ own size, and a row of words over words', () => {
    expect(findKeyFigures(lines(['56%', '36%'], [['AGREE', 'STRONGLY'], ['', 'AGREE']]))).toEqual([]);
    expect(findKeyFigures(lines(['42%', '7'], [['of residents visited', 'branches open']], 11))).toEqual([]);
    expect(findKeyFigures(lines(['Visits', 'Loans'], [['of residents visited', 'branches open']]))).toEqual([]);
  });
});
