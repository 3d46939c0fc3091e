/**
 * A borderless table with a two-level header, as a word processor prints one whose rules are hidden: group labels
 * centred over the cells of two columns each (`Primary` over `Male` and `Female`), the column names and the figures
 * set flush left in their cells, and a stub label (`Country`) at the top of the header, centred down it or at its
 * foot. The group labels span their columns and the stub label both header rows, in an HTML table.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';

/** The cells' left edges: a wide first column, then two cells 60 wide under each group. */
const EDGES = [72, 192, 252, 312, 372, 432, 492, 552];
const GROUPS = ['Primary', 'Secondary', 'Tertiary'];
const BODY = [
  ['Kenya', '51', '49', '38', '36', '7', '5'],
  ['Ghana', '50', '50', '40', '39', '9', '8'],
  ['Peru', '50', '50', '45', '46', '20', '22'],
  ['Nepal', '49', '51', '41', '43', '6', '6'],
];
/** Cell padding: text starts this far right of its cell's edge. */
const PAD = 5;

/** The table under its caption; the stub label's baseline `stubDrop` points below the header's top line. */
async function enrolmentTablePdf(stubDrop: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('Table 2. Enrolment by level and sex', { x: 72, y: 720, size: 11, font: bold });
  const top = 686;
  page.drawText('Country', { x: EDGES[0]! + PAD, y: top - stubDrop, size: 10, font: bold });
  GROUPS.forEach((label, g) => {
    const middle = (EDGES[1 + 2 * g]! + EDGES[3 + 2 * g]!) / 2;
    page.drawText(label, { x: middle - bold.widthOfTextAtSize(label, 10) / 2, y: top, size: 10, font: bold });
  });
  for (let col = 1; col < 7; col++) page.drawText(col % 2 ? 'Male' : 'Female', { x: EDGES[col]! + PAD, y: top - 20, size: 10, font: bold });
  BODY.forEach((row, r) => row.forEach((text, col) => page.drawText(text, { x: EDGES[col]! + PAD, y: top - 40 - 20 * r, size: 10, font: regular })));
  return pdf.save();
}

const EXPECTED_HEADER = [
  '<table>',
  '<tr><th rowspan="2">Country</th><th colspan="2">Primary</th><th colspan="2">Secondary</th><th colspan="2">Tertiary</th></tr>',
  '<tr><th>Male</th><th>Female</th><th>Male</th><th>Female</th><th>Male</th><th>Female</th></tr>',
  '<tr><td>Kenya</td><td>51</td><td>49</td><td>38</td><td>36</td><td>7</td><td>5</td></tr>',
];

describe('a borderless table whose header has two levels', () => {
  it.each([
    ['level with the group labels', 0],
    ['centred down the header, between its lines', 10],
    ['level with the column names', 20],
  ])('spans each group label over its two columns and the stub label %s down both header rows', async (_, stubDrop) => {
    const doc = await convertBytes(await enrolmentTablePdf(stubDrop), { mode: 'fast' });
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    const lines = tables[0]!.markdown.split('\n');
    expect(lines.slice(0, 4)).toEqual(EXPECTED_HEADER);
    expect(lines.filter((line) => line.startsWith('<tr>'))).toHaveLength(6);
  });
});
