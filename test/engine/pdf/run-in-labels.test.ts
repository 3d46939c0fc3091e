/**
 * Labels set in a margin column level with the first line of the paragraph each heads (a CV's "Work Experience"):
 * each label stands on its own before its paragraph, and the paragraph stays whole.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

const SECTIONS: [label: string, lines: string[]][] = [
  ['Work Experience', ['Led the data team of a regional bank for six', 'years, building its reporting platform and', 'training new analysts in statistics.']],
  ['Formal Education', ['Master of Science in applied mathematics from', 'the state university, with a thesis on time', 'series forecasting for retail demand.']],
  ['Volunteer Work', ['Coaches the junior chess club of the town on', 'weekends and organises its summer tournament', 'with the help of local schools.']],
];

function curriculumPdf(): Uint8Array {
  const runs: TextRun[] = [{ x: 72, y: 740, text: 'Jane Example', size: 20, font: 'bold' }];
  let y = 700;
  for (const [label, lines] of SECTIONS) {
    runs.push({ x: 72, y, text: label, size: 11, font: 'bold' });
    lines.forEach((line, i) => runs.push({ x: 220, y: y - 14 * i, text: line, size: 11 }));
    y -= 14 * lines.length + 20;
  }
  return writePdf({ pages: [{ runs }] });
}

describe('labels in a margin column, level with the first line of their paragraph', () => {
  it('each stands on its own line before its paragraph, read whole', async () => {
    const markdown = mainMarkdown(await convertBytes(curriculumPdf()));
    let from = 0;
    for (const [label, lines] of SECTIONS) {
      const labelAt = markdown.indexOf(label, from);
      expect(labelAt, label).toBeGreaterThanOrEqual(from);
      // The label is a line of its own (a heading or a paragraph), not run into the paragraph's first line.
      expect(markdown.slice(labelAt).split('\n')[0]!.replace(/^#+ /, '').trim()).toBe(label);
      const paragraphAt = markdown.indexOf(lines.join(' '), labelAt);
      expect(paragraphAt, lines[0]).toBeGreaterThan(labelAt);
      from = paragraphAt;
    }
  });
});
