import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';

/** Entries: baseline from the top, number, title, page; chapters in bold, as LaTeX's report class sets them. */
const ENTRIES: [number, string, string, string][] = [
  [227, '1', 'Getting started', '2'],
  [240.5, '1.1', 'Installing', '2'],
  [254, '1.2', 'A first conversion', '2'],
  [278.5, '2', 'Keeping it running', '4'],
  [305.6, '2.1.1', 'Daily runs', '4'],
  [319.2, '2.1.2', 'Continuous runs', '4'],
  [332.7, '2.2', 'Failures', '4'],
];

/** A table of contents: each entry's number, its title indented by depth, its page number at the right edge. */
function contentsPdf(): Uint8Array {
  const runs: TextRun[] = [{ x: 72, y: 792 - 162.6, text: 'Contents', size: 24, font: 'bold' }];
  for (const [baseline, number, title, page] of ENTRIES) {
    const depth = number.split('.').length;
    const font = depth === 1 ? ('bold' as const) : ('regular' as const);
    const [numberX, titleX] = depth === 1 ? [72, 88.4] : depth === 2 ? [88.4, 113.4] : [113.5, 148.3];
    const y = 792 - baseline;
    runs.push({ x: numberX, y, text: number, size: 11, font }, { x: titleX, y, text: title, size: 11, font }, { x: 534, y, text: page, size: 11, font });
  }
  return writePdf({ pages: [{ runs }] });
}

describe('a table of contents another reader took for a table', () => {
  it('reads as its entries, one a line, in order, where the reader merged two entries into one row', async () => {
    const doc = await convertBytes(contentsPdf());
    expect(allBlocks(doc).filter((block) => block.type === 'table')).toEqual([]);
    const lines = mainMarkdown(doc).split(/ {2}\n|\n\n/);
    expect(lines).toEqual(['# Contents', ...ENTRIES.map(([, number, title, page]) => `${number} ${title} ${page}`)]);
  });
});
