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
