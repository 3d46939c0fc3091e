/**
 * A caption set right over a table's top rule, as papers set them: read as the table's caption, never as a row of
 * the table with one cell filled.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { raggedLines } from './ragged-lines.js';

const SENTENCES = [
  'The council reviewed the proposal for the new library in its October meeting and asked the planning office to report on the costs of each site before the budget is set.',
  'Residents who wrote to the council were mostly in favour of the riverside site, which is close to the schools and the bus station, though some raised the question of parking.',
  'A second consultation will open in the spring, with drawings of both designs on show in the town hall and online, and a survey that anyone living in the district may answer.',
  'The final decision rests with the full council, which meets in June; if the riverside site is chosen, building could begin the following year and the library open two years later.',
];

const ROWS = [
  ['Model', 'Set A', 'Set B', 'Set C', 'Mean'],
  ['Baseline', '61.2', '58.9', '60.3', '60.1'],
  ['Ours (small)', '66.8', '64.0', '65.1', '65.3'],
  ['Ours (large)', '71.5', '69.2', '70.4', '70.4'],
];

/**
 * A booktabs table across the page (rules over and under the header, under the last row), its caption over it;
 * under it a paragraph, or a paper's two columns of text.
 */
async function captionedTablePdf(columns = false): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.TimesRoman);
  const bold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const page = pdf.addPage([612, 792]);
  let y = 740;
  page.drawText('Table 2: Results on the three test sets.', { x: 150, y, size: 9, font: regular });
  y -= 6;
  page.drawLine({ start: { x: 54, y }, end: { x: 558, y }, thickness: 0.8 });
  y -= 12;
  const cols = [60, 200, 290, 380, 470];
  ROWS.forEach((row, i) => {
    row.forEach((text, col) => page.drawText(text, { x: cols[col]!, y, size: 9, font: i === 0 ? bold : regular }));
    if (i === 0) {
      y -= 5;
      page.drawLine({ start: { x: 54, y }, end: { x: 558, y }, thickness: 0.4 });
      y -= 8;
    }
    y -= 12;
  });
  page.drawLine({ start: { x: 54, y: y + 4 }, end: { x: 558, y: y + 4 }, thickness: 0.8 });
  if (!columns) {
    page.drawText('The larger model gains most on the second set, where the baseline is weakest.', { x: 54, y: y - 24, size: 10, font: regular });
    return pdf.save();
  }
  // Two columns 240 wide, the text wrapped ragged right, running from the first into the second; the second column
  // starts level with the section's heading.
  let at = y - 24;
  const top = at;
  page.drawText('4 Results', { x: 54, y: at, size: 12, font: bold });
  at -= 18;
  let column = 0;
  for (let n = 0; n < 9; n++) {
    for (const text of raggedLines(`${SENTENCES[n % 4]} ${SENTENCES[(n + 1) % 4]}`, regular, 10, 240)) {
      if (at < 60) {
        column++;
        at = top;
      }
      page.drawText(text, { x: 54 + column * 264, y: at, size: 10, font: regular });
      at -= 12;
    }
    at -= 4;
  }
  return pdf.save();
}

describe('a caption over a table', () => {
  it('is the caption block before the table, not a row of it', async () => {
    const doc = await convertBytes(await captionedTablePdf(), { mode: 'fast' });
    const table = [ROWS[0]!, ROWS[0]!.map(() => '---'), ...ROWS.slice(1)].map((row) => `| ${row.join(' | ')} |`).join('\n');
    expect(mainMarkdown(doc)).toContain(`Table 2: Results on the three test sets.\n\n${table}\n\nThe larger model`);
    const blocks = allBlocks(doc);
    expect(blocks.find((block) => block.type === 'caption')?.markdown).toBe('Table 2: Results on the three test sets.');
    expect(blocks.filter((block) => block.type === 'table')).toHaveLength(1);
  });

  it('is the caption block before the table over two columns of text too', async () => {
    const doc = await convertBytes(await captionedTablePdf(true), { mode: 'fast' });
    const table = [ROWS[0]!, ROWS[0]!.map(() => '---'), ...ROWS.slice(1)].map((row) => `| ${row.join(' | ')} |`).join('\n');
    const markdown = mainMarkdown(doc);
    expect(markdown).toContain(`Table 2: Results on the three test sets.\n\n${table}\n\n`);
    expect(markdown).toMatch(/\n\n#+ 4 Results\n\nThe council reviewed the proposal/);
  });
});
