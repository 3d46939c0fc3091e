/**
 * A scientific poster: three columns of boxed sections, each a heading on a coloured band over its paragraph, two
 * sections a column. The boxes' outlines line up like a table's grid; the poster reads section by section, column by
 * column, each heading a heading over its text, never a table whose cells are paragraphs.
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { holdsPanels } from '../../../src/engine/pdf/panels.js';
import { allBlocks, convertBytes } from './helpers.js';
import { raggedLines } from './ragged-lines.js';

const SECTIONS = [
  ['Introduction', 'Coastal wetlands store large amounts of carbon in their soils, and their loss releases it back to the atmosphere over decades.'],
  ['Methods', 'We sampled twelve salt marshes along the estuary in spring and autumn, measuring soil carbon to a depth of one metre.'],
  ['Results', 'Marshes restored more than twenty years ago held nearly as much carbon as natural ones, while younger sites held about half.'],
  ['Discussion', 'Restoration pays back its carbon cost within two decades, which supports including marshes in regional climate plans.'],
  ['Conclusions', 'Restored marshes are a lasting store of carbon, and the oldest restorations are the best guide to what new ones will hold.'],
  ['References', '1. Smith J (2020) Marsh carbon. Estuaries 12: 1-10.'],
] as const;

async function posterPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([1190, 842]);
  const blue = rgb(0.2, 0.3, 0.6);
  page.drawText('Carbon Storage in Restored Salt Marshes', { x: 250, y: 790, size: 36, font: bold });
  SECTIONS.forEach(([heading, text], i) => {
    const x = 40 + 385 * Math.floor(i / 2);
    const top = i % 2 === 0 ? 720 : 420;
    page.drawRectangle({ x: x - 10, y: top - 260, width: 360, height: 270, borderColor: blue, borderWidth: 2 });
    page.drawRectangle({ x: x - 10, y: top - 30, width: 360, height: 40, color: blue });
    page.drawText(heading, { x, y: top - 18, size: 22, font: bold, color: rgb(1, 1, 1) });
    raggedLines(text, regular, 14, 340).forEach((line, j) => page.drawText(line, { x, y: top - 55 - 18 * j, size: 14, font: regular }));
  });
  return pdf.save();
}

describe('a poster of boxed sections', () => {
  it('reads section by section, column by column, each heading over its paragraph', async () => {
    const doc = await convertBytes(await posterPdf(), { mode: 'fast' });
    const blocks = allBlocks(doc).filter((block) => !block.furniture);
    expect(blocks.filter((block) => block.type === 'table')).toEqual([]);
    expect(blocks.map((block) => block.markdown).slice(1)).toEqual(SECTIONS.flatMap(([heading, text]) => [`## ${heading}`, text]));
  });
});

describe('panels', () => {
  it('are rows of headings over rows of sentences, never a table whose rows hold a short label beside its text', () => {
    const sentence = 'Restoration pays back its carbon cost within two decades, in all the marshes we sampled.';
    expect(holdsPanels([['Methods', 'Results'], [sentence, sentence]])).toBe(true);
    expect(holdsPanels([['Term', 'Definition'], ['Marsh', sentence], ['Estuary', sentence]])).toBe(false);
  });
});
