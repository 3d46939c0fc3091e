import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';

/** Entries: number, title, page; chapters bold and bigger than their sections, as LaTeX and Texinfo set them. */
const ENTRIES: [string, string, string][] = [
  ['1', 'Introduction', '1'],
  ['2', 'Structure handling', '2'],
  ['2.1', 'Syntax', '2'],
  ['2.2', 'Naming', '3'],
  ['2.3', 'Simple parsing', '4'],
  ['3', 'Utilities', '5'],
  ['3.1', 'Invoking the parser', '5'],
  ['3.2', 'Invoking the coder', '7'],
  ['3.3', 'Invoking the decoder', '9'],
  ['Appendix A', 'Copying Information', '24'],
  ['A.1', 'Free Documentation License', '24'],
  ['', 'Concept Index', '32'],
];

const RIGHT = 450;

/** A contents page: chapter lines at 14 pt bold with space above, sections at 10 pt indented, page numbers at one right edge. */
function contentsPdf(leaders: boolean): Uint8Array {
  const runs: TextRun[] = [{ x: 90, y: 792 - 100, text: 'Table of Contents', size: 20, font: 'bold' }];
  let baseline = 140;
  for (const [number, title, page] of ENTRIES) {
    const chapter = !number.includes('.');
    const size = chapter ? 14 : 10;
    const font = chapter ? ('bold' as const) : ('regular' as const);
    baseline += chapter ? 26 : 13;
    const y = 792 - baseline;
    const numberX = chapter ? 90 : 105;
    const titleX = chapter ? (number.length > 2 ? 180 : 115) : 130;
    if (number) runs.push({ x: numberX, y, text: number, size, font });
    runs.push({ x: number ? titleX : 90, y, text: title, size, font });
    // Leader dots set one by one at an even pitch, from past the title to short of the page number (TeX's \leaders).
    const dotsFrom = (number ? titleX : 90) + title.length * size * 0.6 + 6;
    const pageWidth = page.length * size * 0.556;
    if (leaders) for (let x = dotsFrom; x < RIGHT - pageWidth - 8; x += 4.5) runs.push({ x, y, text: '.', size: 10, font: 'regular' });
    runs.push({ x: RIGHT - pageWidth, y, text: page, size, font });
  }
  return writePdf({ pages: [{ runs }] });
}

describe('a table of contents set in two sizes', () => {
  it.each([
    ['led out with dots', true],
    ['without leaders', false],
  ])('%s: reads as one list of entries, chapters and appendix included, none of them a heading or a table', async (_, leaders) => {
    const doc = await convertBytes(contentsPdf(leaders));
    const blocks = allBlocks(doc);
    expect(blocks.filter((block) => block.type === 'table')).toEqual([]);
    expect(blocks.filter((block) => block.type === 'section_header' || block.type === 'title').map((block) => block.markdown)).toEqual(['# Table of Contents']);
    const [heading, ...lines] = mainMarkdown(doc).split(/ {2}\n|\n\n/);
    expect(heading).toBe('# Table of Contents');
    // Each entry a line, its leader dots kept as printed.
    const leader = /\s*(?:\.\s?){4,}\s*/u;
    expect(lines.map((line) => line.replace(leader, ' '))).toEqual(ENTRIES.map(([number, title, page]) => [number, title, page].filter(Boolean).join(' ')));
    expect(lines.every((line) => leader.test(line))).toBe(leaders);
  });
});
