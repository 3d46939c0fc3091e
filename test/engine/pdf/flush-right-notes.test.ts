/**
 * A CV: each job's title set bold at the left with its dates in regular type flush right on the same line, the
 * job's points in a bulleted list under it. Every job title is a heading of one level, its dates the line under it,
 * whatever the dates' length; a table's bold label with its figure at the right, figures over and under it, stays
 * a row.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { flushRightNotesApart } from '../../../src/engine/pdf/flush-right-notes.js';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { convertBytes, flushRight, mainMarkdown } from './helpers.js';
import { item } from './synthetic.js';

const JOBS = [
  { title: 'Senior Data Analyst, Northwind Logistics', dates: 'Mar 2022 to present', points: ['Built the weekly demand forecast used by 40 depots.', 'Cut reporting time from two days to three hours.'] },
  { title: 'Data Analyst, Fenwick Retail', dates: 'Jun 2019 to Feb 2022', points: ['Ran pricing experiments across 120 stores.', 'Maintained the sales dashboard for the board.'] },
];


async function cvPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('Priya Raman', { x: 72, y: 730, size: 22, font: bold });
  page.drawText('priya.raman@example.com, Manchester', { x: 72, y: 708, size: 10, font: regular });
  page.drawText('Experience', { x: 72, y: 670, size: 13, font: bold });
  let y = 645;
  for (const job of JOBS) {
    page.drawText(job.title, { x: 72, y, size: 11, font: bold });
    flushRight(page, job.dates, 540, y, regular);
    y -= 16;
    for (const point of job.points) {
      page.drawText('•', { x: 80, y, size: 10, font: regular });
      page.drawText(point, { x: 92, y, size: 10, font: regular });
      y -= 14;
    }
    y -= 8;
  }
  return pdf.save();
}

describe('a CV', () => {
  it("reads every job's title as a heading of one level, its dates on the line under it", async () => {
    const markdown = mainMarkdown(await convertBytes(await cvPdf(), { mode: 'fast' }));
    const expected = JOBS.map((job) => [`### ${job.title}`, job.dates, job.points.map((point) => `- ${point}`).join('\n')].join('\n\n')).join('\n\n');
    expect(markdown).toContain(`## Experience\n\n${expected}`);
  });
});

describe('a bold label with its figure flush right', () => {
  it('stays one line where figures stand over and under the figure (a table row)', () => {
    const lines = buildLines([
      item('Revenue', 72, 100),
      item('12,480', 500, 100),
      item('Gross profit', 72, 116, { bold: true }),
      item('5,265', 505, 116),
      item('Taxation', 72, 132),
      item('(483)', 505, 132),
    ]);
    expect(flushRightNotesApart(lines, 530).map((line) => line.text)).toEqual(['Revenue 12,480', 'Gross profit 5,265', 'Taxation (483)']);
  });
});
