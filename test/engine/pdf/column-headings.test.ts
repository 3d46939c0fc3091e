/**
 * Two columns under headings set on one line (a recipe: "Ingredients" over a table of quantities, "Method" over
 * its numbered steps): each heading over its own column, read column by column, the table in its column's place.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { raggedLines } from './ragged-lines.js';

const INGREDIENTS = [
  ['200 g', 'flour'],
  ['150 g', 'sugar'],
  ['3', 'eggs'],
  ['120 g', 'butter'],
  ['4', 'apples'],
  ['1 tsp', 'cinnamon'],
];
const STEPS = [
  'Heat the oven to 180 °C and butter a round tin.',
  'Beat the butter and sugar until pale, then beat in the eggs one at a time.',
  'Fold in the flour and cinnamon, and spread the batter in the tin.',
  'Peel and slice the apples, lay them on the batter and bake for 45 minutes.',
];

async function recipePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.TimesRoman);
  const bold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('Apple cake', { x: 72, y: 720, size: 20, font: bold });
  page.drawText('Serves 8 · Preparation 20 minutes · Baking 45 minutes', { x: 72, y: 700, size: 10, font: regular });
  page.drawText('Ingredients', { x: 72, y: 670, size: 13, font: bold });
  page.drawText('Method', { x: 250, y: 670, size: 13, font: bold });
  INGREDIENTS.forEach(([quantity, what], i) => {
    page.drawText(quantity!, { x: 72, y: 650 - 15 * i, size: 10.5, font: regular });
    page.drawText(what!, { x: 120, y: 650 - 15 * i, size: 10.5, font: regular });
  });
  // The steps wrapped in a measure of 280 points, each set in from its number.
  let y = 650;
  STEPS.forEach((step, i) => {
    page.drawText(`${i + 1}.`, { x: 250, y, size: 10.5, font: regular });
    for (const text of raggedLines(step, regular, 10.5, 280)) {
      page.drawText(text, { x: 265, y, size: 10.5, font: regular });
      y -= 13.5;
    }
    y -= 5;
  });
  return pdf.save();
}

describe('headings of two columns set on one line', () => {
  it('are two headings, each read with its column: the table under the first, the steps under the second', async () => {
    const doc = await convertBytes(await recipePdf(), { mode: 'fast' });
    const table = [INGREDIENTS[0]!, ['---', '---'], ...INGREDIENTS.slice(1)].map((row) => `| ${row.join(' | ')} |`).join('\n');
    const steps = STEPS.map((step, i) => `${i + 1}. ${step}`).join('\n');
    expect(mainMarkdown(doc)).toContain(`## Ingredients\n\n${table}\n\n## Method\n\n${steps}`);
    expect(allBlocks(doc).filter((block) => block.type === 'section_header').map((block) => block.markdown)).toEqual(['## Ingredients', '## Method']);
  });
});
