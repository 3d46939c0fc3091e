/**
 * Line numbers in the left margin (pleading paper's 1 to 28, a transcript's every fifth line) are no part of the
 * text; a table's column of numbers is.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

const PLEADING = [
  'COMES NOW the Plaintiff, by and through counsel, and for',
  'the Complaint against the Defendant alleges as follows:',
  '',
  'JURISDICTION',
  '',
  'This Court has jurisdiction over this matter because the',
  'events giving rise to the claim occurred within the county',
  'and the parties reside here.',
];

/** Pleading paper: every line of the page numbered in the margin, 1 to 28, the text double-spaced beside them. */
function pleadingPdf(): Uint8Array {
  const runs: TextRun[] = [];
  for (let i = 0; i < 28; i++) {
    const y = 720 - 24 * i;
    runs.push({ x: 50, y, text: String(i + 1), size: 10 });
    const text = PLEADING[i];
    if (text) runs.push({ x: 90, y, text, size: 12, ...(text === 'JURISDICTION' ? { font: 'bold' as const } : {}) });
  }
  return writePdf({ pages: [{ runs }] });
}

const TESTIMONY = [
  'Q. Where were you on the night of the fourth?',
  'A. I was at home with my sister until about ten.',
  'Q. And after ten o\'clock, where did you go?',
  'A. We walked to the station to meet her husband.',
  'Q. Did anyone else see you at the station?',
];

/** A transcript: every line holds text, every fifth one numbered in the margin. */
function transcriptPdf(): Uint8Array {
  const runs: TextRun[] = [];
  for (let i = 0; i < 30; i++) {
    const y = 740 - 22 * i;
    if ((i + 1) % 5 === 0) runs.push({ x: 50, y, text: String(i + 1), size: 10 });
    runs.push({ x: 90, y, text: TESTIMONY[i % TESTIMONY.length]!, size: 12 });
  }
  return writePdf({ pages: [{ runs }] });
}

describe('line numbers in the margin', () => {
  it("of pleading paper are left out: no line starts with one, no heading holds one, no paragraph is one", async () => {
    const markdown = mainMarkdown(await convertBytes(pleadingPdf()));
    expect(markdown).toContain('COMES NOW the Plaintiff');
    expect(markdown).toMatch(/^#+ JURISDICTION$/m);
    expect(markdown).toContain(PLEADING.slice(5).join(' '));
    expect(markdown).not.toMatch(/^#* ?\d+\b/m);
  });

  it("of a transcript's every fifth line are left out", async () => {
    const markdown = mainMarkdown(await convertBytes(transcriptPdf()));
    expect(markdown).not.toMatch(/\b(?:5|10|15|20|25|30) [QA]\./);
    expect(markdown).toContain(TESTIMONY[0]);
  });

  it("a table's first column counting its rows stays", async () => {
    const runs: TextRun[] = [{ x: 72, y: 740, text: 'Parts list', size: 14, font: 'bold' }];
    for (let i = 0; i < 12; i++) {
      const y = 710 - 16 * i;
      runs.push({ x: 72, y, text: String(i + 1), size: 10 }, { x: 110, y, text: `Bracket type ${String.fromCharCode(65 + i)}`, size: 10 }, { x: 300, y, text: `${4 * (i + 1)} pcs`, size: 10 });
    }
    const markdown = mainMarkdown(await convertBytes(writePdf({ pages: [{ runs }] })));
    expect(markdown).toContain('| 1 | Bracket type A | 4 pcs |');
    expect(markdown).toContain('| 12 | Bracket type L | 48 pcs |');
  });
});
