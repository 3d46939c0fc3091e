import { describe, expect, it } from 'vitest';
import { authorStackLines, findAuthorBlocks } from '../../../src/engine/pdf/author-stacks.js';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { convertBytes, mainMarkdown } from './helpers.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { item } from './synthetic.js';

const AUTHORS = [
  ['Hedy Lamarr', 'Radio Research Group', 'hedy@example.org'],
  ['Claude Shannon', 'Bell Laboratories', 'claude@example.org'],
  ['Emmy Noether', 'University of Erlangen', 'emmy@example.org'],
];

/** A paper's first page: its title, its three authors side by side (each a centred stack), then the abstract. */
function paperPdf(): Uint8Array {
  const runs: TextRun[] = [{ x: 150, y: 740, text: 'Shared Budgets for Rate-Limited Services', size: 17 }];
  const centres = [140, 306, 472];
  AUTHORS.forEach((stack, col) =>
    // The address in a monospaced font, as LaTeX's \texttt sets it.
    stack.forEach((text, line) => runs.push({ x: centres[col]! - text.length * 3, y: 712 - 14 * line, text, size: 12, ...(line === 2 ? { font: 'mono' as const } : {}) })),
  );
  runs.push({ x: 72, y: 640, text: 'Abstract', size: 12, font: 'bold' });
  runs.push({ x: 72, y: 624, text: 'Workers that share a rate limit waste requests when each learns the limit alone.', size: 10 });
  return writePdf({ pages: [{ runs }] });
}

describe("a paper's authors side by side", () => {
  it('are read author by author, each a line of their stack, not line by line across the page', async () => {
    const markdown = mainMarkdown(await convertBytes(paperPdf()));
    expect(markdown).toContain(AUTHORS.map((stack) => stack.join(', ')).join('  \n'));
  });

  it('are found from the names line and the lines centred under each name', () => {
    const lines = buildLines(
      AUTHORS.flatMap((stack, col) => stack.map((text, line) => item(text, [100, 250, 400][col]! - text.length * 2.5, 100 + 14 * line))),
    );
    expect(findAuthorBlocks(lines).map((block) => [block.start, block.end, block.rows])).toEqual([
      [0, 3, [AUTHORS.map((stack) => stack[0]), AUTHORS.map((stack) => stack[1]), AUTHORS.map((stack) => stack[2])]],
    ]);
  });

  it('need an address, an institution or affiliation marks: names alone, or labels that look like names, stay a table', () => {
    expect(authorStackLines([['Jane Doe¹', 'John Roe²'], ['North Harbour', 'South Bay']])).toEqual(['Jane Doe¹, North Harbour', 'John Roe², South Bay']);
    expect(authorStackLines([['Jane Doe', 'John Roe'], ['12', '15']])).toBeUndefined();
    expect(authorStackLines([['Quarterly Sales', 'Annual Costs'], ['North Region', 'South Region']])).toBeUndefined();
    expect(authorStackLines([['Name', 'Email'], ['Jane Doe', 'jane@example.org']])).toBeUndefined();
    expect(authorStackLines([['Jane Doe', 'John Roe'], ['She wrote the first draft.', 'He checked it.']])).toBeUndefined();
  });
});
