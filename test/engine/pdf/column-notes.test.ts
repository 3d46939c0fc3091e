import { describe, expect, it } from 'vitest';
import { convertBytes, mainMarkdown } from './helpers.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { words } from './synthetic.js';

/**
 * A page of a two-column paper as LaTeX sets it: column one ends mid-sentence over its footnote (8 pt, its raised
 * 6-pt number set right against the note's first word), column two takes the sentence up, and the page number sits
 * centred under both columns, below the note.
 */
function paperPagePdf(): Uint8Array {
  const runs: TextRun[] = [];
  const column = (x: number, lines: string[]) => lines.forEach((text, i) => runs.push({ x, y: 720 - 12 * i, text, size: 10 }));
  const prose = (seed: number) => Array.from({ length: 24 }, (_, i) => words(8, seed + i));
  column(72, [...prose(0), 'and a concurrency limit cannot be learned']);
  column(322, ['from the length of a window, so clients probe for it.', ...prose(50), 'which ends the second column.']);
  runs.push({ x: 72, y: 423, text: '1', size: 6 });
  runs.push({ x: 75.4, y: 420, text: 'Most services publish their limits per minute.', size: 8 });
  runs.push({ x: 303, y: 60, text: '1', size: 10 });
  return writePdf({ pages: [{ runs }] });
}

describe("a column's footnotes above the page number", () => {
  it('are read after both columns, so the sentence running from one column into the next is not cut', async () => {
    const markdown = mainMarkdown(await convertBytes(paperPagePdf()));
    expect(markdown).toContain('cannot be learned\n\nfrom the length of a window');
    expect(markdown.indexOf('Most services publish')).toBeGreaterThan(markdown.indexOf('which ends the second column.'));
  });
});

/**
 * A report's page: two short columns under a chart, and far below them, at the page's foot, a note set at the left
 * column's edge nearly as large as the columns' text (9 against 9.5 pt, not smaller as a paper's notes are),
 * numbered `6.` as the raised mark in the right column's text.
 */
function reportPagePdf(noteY: number): Uint8Array {
  const runs: TextRun[] = [];
  const column = (x: number, top: number, lines: string[]) => lines.forEach((text, i) => runs.push({ x, y: top - 12 * i, text, size: 9.5 }));
  column(72, 520, [...Array.from({ length: 7 }, (_, i) => words(7, i)), 'the first column ends here.']);
  column(322, 520, [...Array.from({ length: 9 }, (_, i) => words(7, 40 + i)), 'to operate (57%).6 The second column ends here.']);
  runs.push({ x: 72, y: noteY, text: '6. Compared to 38% in July 2020 and 22% in October 2020.', size: 9 });
  runs.push({ x: 60, y: 40, text: '39', size: 9 });
  return writePdf({ pages: [{ runs }] });
}

describe('a note at the foot of a page of short columns', () => {
  it('is read after both columns, though it stands under the first and is set as large as they are', async () => {
    const markdown = mainMarkdown(await convertBytes(reportPagePdf(110)));
    expect(markdown.indexOf('Compared to 38%')).toBeGreaterThan(markdown.indexOf('The second column ends here.'));
    expect(markdown.indexOf('the first column ends here.')).toBeLessThan(markdown.indexOf('The second column ends here.'));
  });

  it("at its column's own pitch (no whitespace across the page above it), is that column's next line", async () => {
    const markdown = mainMarkdown(await convertBytes(reportPagePdf(424)));
    expect(markdown.indexOf('Compared to 38%')).toBeGreaterThan(markdown.indexOf('the first column ends here.'));
    expect(markdown.indexOf('Compared to 38%')).toBeLessThan(markdown.indexOf('The second column ends here.'));
  });
});
