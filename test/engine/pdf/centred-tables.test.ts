/**
 * A borderless table whose cells are centred in narrow columns, as a word processor prints one: neighbouring
 * cells' texts stand 0.6–0.75 em apart (closer than a line is split into cells at), a two-level header with group
 * labels over two columns each and a stub label down both header rows, rows far apart. Read as one table, every
 * figure in its own cell, the header's labels spanning their columns.
 */
import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

/** Column centres: a stub column, then two groups of two narrow columns. */
const CENTRES = [110, 182, 220, 259, 297];
const BODY = [
  ['Capital', '26,014', '50.6', '26,112', '50.7'],
  ['Chungcheong', '5,580', '10.9', '5,601', '10.9'],
  ['Honam', '4,962', '9.7', '4,921', '9.6'],
  ['Yeongnam', '12,689', '24.7', '12,580', '24.4'],
  ['Gangwon and Jeju', '2,206', '4.3', '2,210', '4.3'],
];
const SIZE = 10;
/** Baseline to baseline between rows: cells padded, as a word processor's table is. */
const PITCH = 27;

async function centredTablePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  const centred = (text: string, centre: number, y: number, font: PDFFont) =>
    page.drawText(text, { x: centre - font.widthOfTextAtSize(text, SIZE) / 2, y, size: SIZE, font });
  page.drawText('Table 1. Population by region', { x: 72, y: 720, size: 11, font: bold });
  page.drawText('The table below gives the population of each region in thousands and its share of the whole.', { x: 72, y: 700, size: SIZE, font: regular });
  const top = 670;
  centred('2023', (CENTRES[1]! + CENTRES[2]!) / 2, top, bold);
  centred('2024', (CENTRES[3]! + CENTRES[4]!) / 2, top, bold);
  centred('Region', CENTRES[0]!, top - 14, bold);
  ['People', 'Share', 'People', 'Share'].forEach((label, i) => centred(label, CENTRES[i + 1]!, top - 28, bold));
  BODY.forEach((row, r) => row.forEach((text, col) => centred(text, CENTRES[col]!, top - 28 - PITCH * (r + 1), regular)));
  page.drawText('Source: the national register of residents.', { x: 72, y: top - 28 - PITCH * 6, size: 8, font: regular });
  return pdf.save();
}

describe('a borderless table of centred cells in narrow columns', () => {
  it('reads as one table, each figure in its cell, the group labels over their two columns', async () => {
    const doc = await convertBytes(await centredTablePdf(), { mode: 'fast' });
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    const rows = tables[0]!.markdown.split('\n').filter((line) => line.startsWith('<tr>'));
    expect(rows).toEqual([
      '<tr><th rowspan="2">Region</th><th colspan="2">2023</th><th colspan="2">2024</th></tr>',
      '<tr><th>People</th><th>Share</th><th>People</th><th>Share</th></tr>',
      ...BODY.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`),
    ]);
    expect(mainMarkdown(doc)).toContain('Source: the national register of residents.');
  });
});

describe('a Korean report printed by LibreOffice', () => {
  const report = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-report.pdf', import.meta.url)));

  it('reads its centred table with a two-level header whole, and `2023년` as written in the header cells', async () => {
    const markdown = mainMarkdown(await convertBytes(report(), { mode: 'fast' }));
    expect(markdown).toContain('<tr><th rowspan="2">구분</th><th colspan="2">2023년</th><th colspan="2">2024년</th></tr>');
    for (const region of ['수도권', '충청권', '호남권', '영남권', '강원·제주']) expect(markdown).toMatch(new RegExp(`<tr><td>${region}</td>(<td>[\\d.,]+</td>){4}</tr>`));
    expect(markdown.match(/<table>/g)).toHaveLength(1);
    expect(markdown).not.toContain('| ');
  });
});
