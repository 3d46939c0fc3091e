/**
 * A financial statement set as aligned text: row labels run to their figures with dot leaders, and the years stand
 * over the figures' columns with nothing over the labels. The years are the table's header (its first cell empty),
 * never page furniture, and the leaders are no part of the labels.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

const ROWS = [
  ['Revenue', '12,450', '11,020'],
  ['Cost of sales', '(7,310)', '(6,870)'],
  ['Gross profit', '5,140', '4,150'],
  ['Operating expenses', '(3,020)', '(2,760)'],
  ['Operating profit', '2,120', '1,390'],
];

function statementPdf(): Uint8Array {
  const runs: TextRun[] = [
    { x: 72, y: 740, text: 'Income statement', size: 16, font: 'bold' },
    { x: 400, y: 715, text: '2024', size: 11, font: 'bold' },
    { x: 480, y: 715, text: '2023', size: 11, font: 'bold' },
  ];
  ROWS.forEach(([label, current, previous], i) => {
    const y = 695 - 16 * i;
    runs.push({ x: 72, y, text: `${label} ${'.'.repeat(60 - label!.length)}`, size: 11 });
    runs.push({ x: 400, y, text: current!, size: 11 }, { x: 480, y, text: previous!, size: 11 });
  });
  return writePdf({ pages: [{ runs }] });
}

describe('a statement set as aligned text under its years', () => {
  it('is one table headed by the years, its labels without their leaders', async () => {
    const model = await convertBytes(statementPdf());
    const markdown = mainMarkdown(model);
    expect(markdown).toContain(['|  | 2024 | 2023 |', '| --- | --- | --- |', '| Revenue | 12,450 | 11,020 |'].join('\n'));
    expect(markdown).toContain('| Operating expenses | (3,020) | (2,760) |');
    expect(markdown).not.toContain('....');
    expect(allBlocks(model).filter((block) => block.type === 'page_header')).toEqual([]);
  });
});
