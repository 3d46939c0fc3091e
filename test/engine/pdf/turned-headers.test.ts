/**
 * Column headers turned on their side over a table: the table's header row, laid flat; rotated text that heads no
 * columns (an identifier down the margin) stays apart.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

const ROWS = [
  ['North', 'yes', 'no', 'no'],
  ['South', 'yes', 'yes', 'no'],
  ['East', 'no', 'no', 'no'],
];

/** A table of narrow yes/no columns under labels turned to read bottom to top, its first column's label flat. */
function turnedHeaderTable(labels: readonly string[]): TextRun[] {
  return [
    { x: 72, y: 600, text: 'Site', size: 10, font: 'bold' },
    ...labels.map((text, i): TextRun => ({ x: 182 + 40 * i, y: 596, text, size: 10, font: 'bold', angle: 90 })),
    ...ROWS.flatMap((row, r) => row.map((text, c): TextRun => ({ x: c === 0 ? 72 : 174 + 40 * (c - 1), y: 576 - 16 * r, text, size: 10 }))),
  ];
}

const PROSE = [
  'The inspections of the spring were carried out at every site of the network, and the results are summed up',
  'in the table below, one row for each site and one column for each stage of the inspection that was reached.',
];

describe('column headers turned on their side', () => {
  it("are the table's header row, each over its column", async () => {
    const runs: TextRun[] = [
      { x: 72, y: 720, text: 'Inspection status', size: 16, font: 'bold' },
      ...PROSE.map((text, i): TextRun => ({ x: 72, y: 690 - 14 * i, text, size: 10 })),
      ...turnedHeaderTable(['Inspected', 'Approved', 'Closed']),
    ];
    const markdown = mainMarkdown(await convertBytes(writePdf({ pages: [{ runs }] })));
    expect(markdown).toContain(
      ['| Site | Inspected | Approved | Closed |', '| --- | --- | --- | --- |', '| North | yes | no | no |', '| South | yes | yes | no |', '| East | no | no | no |'].join('\n'),
    );
    // Read once, in the table, not again as lines of their own after it.
    expect(markdown.match(/Inspected/g)).toHaveLength(1);
  });

  it('leave rotated text that heads no columns apart: an identifier down the margin beside prose', async () => {
    const runs: TextRun[] = [
      { x: 30, y: 300, text: 'arXiv:2401.01234v2 [cs.CL] 3 Jan 2024', size: 14, angle: 90 },
      { x: 44, y: 300, text: 'Preprint under review', size: 9, angle: 90 },
      ...PROSE.map((text, i): TextRun => ({ x: 72, y: 690 - 14 * i, text, size: 10 })),
    ];
    const markdown = mainMarkdown(await convertBytes(writePdf({ pages: [{ runs }] })));
    expect(markdown).not.toContain('|');
    expect(markdown).toContain(PROSE.join(' '));
  });
});
