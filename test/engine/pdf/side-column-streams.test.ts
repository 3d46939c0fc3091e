/**
 * A one-page résumé laid out as LibreOffice's template sets it: the name and contact lines in a narrow left column,
 * the sections in a wide right column, each column at its own pitch, so that the lines of one stand between the
 * lines of the other. Both are short lines, not prose, yet the columns are read one after the other, never as the
 * rows of a table.
 */
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';

const LEFT: [number, string][] = [
  [67, 'Your Name'],
  [97, 'Address Line 1'],
  [113, 'Address Line 2'],
  [135, '(000) 000 000'],
  [151, '(000) 000 001'],
  [166, '(000) 000 002'],
  [189, 'you@example.com'],
  [204, 'webpage.url'],
];

/** Baseline, x, text, bold: the sections, each job's dates flush right, its bullet points still empty (a template). */
const RIGHT: [number, number, string, boolean][] = [
  [67, 225, 'Education', true],
  [91, 224, 'PhD in Egg Engineering', true],
  [106, 224, 'University of Eggington, May 2010', false],
  [121, 224, 'Cumulative GPA: 2.89', false],
  [144, 224, 'BS in Hamology', true],
  [159, 224, 'Hammsworth College, May 2007', false],
  [174, 224, 'Cumulative GPA: 3.26', false],
  [204, 225, 'Experience', true],
  [229, 224, 'Egg Inspector', true],
  [229, 433, 'Jan 2013 - Mar', false],
  [244, 224, 'Eggs and Ham, Co.', false],
  [244, 434, '2014', false],
  [265, 242, '•', false],
  [288, 242, '•', false],
  [310, 242, '•', false],
  [334, 224, 'Ham Inspector', true],
  [334, 433, 'Jun 2011 - Nov', false],
  [349, 224, 'Ham and Eggs, Co.', false],
  [349, 434, '2013', false],
  [370, 242, '•', false],
  [393, 242, '•', false],
  [415, 242, '•', false],
];

function resumePdf(): Uint8Array {
  const runs: TextRun[] = [];
  for (const [baseline, text] of LEFT) runs.push({ x: 57, y: 792 - baseline, text, size: baseline === 67 ? 14 : 11, font: baseline === 67 ? 'bold' : 'regular' });
  for (const [baseline, x, text, bold] of RIGHT) runs.push({ x, y: 792 - baseline, text, size: 11, font: bold ? 'bold' : 'regular' });
  return writePdf({ pages: [{ runs }] });
}

describe('a résumé: contact lines in a side column beside the sections', () => {
  it('reads the side column whole, then the sections, none of its lines in a table', async () => {
    const doc = await convertBytes(resumePdf());
    const tables = allBlocks(doc).filter((block) => block.type === 'table').map((block) => block.markdown);
    expect(tables.filter((table) => LEFT.some(([, text]) => table.includes(text)))).toEqual([]);
    const markdown = mainMarkdown(doc);
    const at = (text: string) => markdown.indexOf(text);
    // The side column whole, then each section's first lines, in turn (a job's dates may stand beside its title).
    const order = [...LEFT.map(([, text]) => text), 'Education', 'PhD in Egg Engineering', 'University of Eggington, May 2010', 'BS in Hamology', 'Experience', 'Egg Inspector'].map(at);
    expect(order.every((position) => position >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});
