/**
 * A meeting's agenda: each item's time in bold at the left, the item beside it, one item running past the measure
 * onto a second line under its first. The agenda is one table of its times and items, the long item whole in its
 * row: never a paragraph of the long item with a table starting at its wrapped line.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';
import { raggedLines } from './ragged-lines.js';

const ITEMS = [
  ['09:00', 'Welcome and apologies'],
  ['09:10', 'Minutes of the previous meeting and matters arising from them, including the update on the roof repairs'],
  ['09:40', 'Finance report'],
  ['10:15', 'Coffee'],
  ['10:30', 'Strategy for 2027: proposals from the working group'],
  ['11:30', 'Any other business'],
];

async function agendaPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('Board Meeting Agenda', { x: 72, y: 730, size: 20, font: bold });
  page.drawText('Thursday 12 March 2026, Room 4B', { x: 72, y: 708, size: 11, font: regular });
  let y = 670;
  for (const [time, item] of ITEMS) {
    page.drawText(time!, { x: 72, y, size: 11, font: bold });
    const lines = raggedLines(item!, regular, 11, 360);
    lines.forEach((line, i) => page.drawText(line, { x: 140, y: y - 14 * i, size: 11, font: regular }));
    y -= 14 * lines.length + 10;
  }
  return pdf.save();
}

describe('an agenda', () => {
  it('is one table of times and items, an item running onto a second line whole in its row', async () => {
    const doc = await convertBytes(await agendaPdf(), { mode: 'fast' });
    const blocks = allBlocks(doc).filter((block) => !block.furniture);
    const tables = blocks.filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    const rows = ITEMS.map(([time, item]) => `| ${time} | ${item} |`);
    expect(tables[0]!.markdown.split('\n')).toEqual([rows[0], '| --- | --- |', ...rows.slice(1)]);
    expect(blocks.filter((block) => block.type !== 'table').map((block) => block.markdown)).toEqual(['# Board Meeting Agenda', 'Thursday 12 March 2026, Room 4B']);
  });
});
