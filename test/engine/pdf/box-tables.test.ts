/**
 * Tables drawn as filled boxes with gutters between them (box-tables.ts), in whole PDFs written here: each
 * column a stack of its own grey boxes, a label box in the first column standing beside several boxes of the
 * others, which the table gives a rowspan.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

interface BoxSpec {
  x0: number;
  x1: number;
  /** PDF space: top above bottom. */
  top: number;
  bottom: number;
  text: string;
}

const COLUMNS = [
  [72, 192],
  [200, 340],
  [348, 540],
] as const;
const ROW_TOPS = [700, 674, 644, 614, 584, 554];
const ROW_HEIGHT = 24;

/** A box over rows `from`..`to` (inclusive) of column `col`. */
function box(col: number, from: number, to: number, text: string): BoxSpec {
  const [x0, x1] = COLUMNS[col]!;
  return { x0, x1, top: ROW_TOPS[from]!, bottom: ROW_TOPS[to]! - ROW_HEIGHT, text };
}

function boxesPdf(boxes: readonly BoxSpec[], extraRuns: TextRun[] = []): Uint8Array {
  const graphics = ['0.88 g', ...boxes.map((b) => `${b.x0} ${b.bottom} ${b.x1 - b.x0} ${b.top - b.bottom} re f`), '0 g'].join('\n');
  const runs: TextRun[] = [
    ...extraRuns,
    ...boxes.map((b) => ({ x: b.x0 + 5, y: b.top - 15, text: b.text, size: 10, font: 'regular' as const })),
  ];
  return writePdf({ pages: [{ runs, graphics }] });
}

const STAGED_TABLE: BoxSpec[] = [
  box(0, 0, 0, 'Stage'),
  box(1, 0, 0, 'Function'),
  box(2, 0, 0, 'Benefit'),
  box(0, 1, 3, 'Setup phase'),
  box(1, 1, 1, 'Project creation'),
  box(2, 1, 1, 'Faster start'),
  box(1, 2, 2, 'Data upload'),
  box(2, 2, 2, 'One place for files'),
  box(1, 3, 3, 'Labeling space'),
  box(2, 3, 3, 'Shared work'),
  box(0, 4, 5, 'Review phase'),
  box(1, 4, 4, 'Monitoring'),
  box(2, 4, 4, 'Issues seen early'),
  box(1, 5, 5, 'Evaluation'),
  box(2, 5, 5, 'Better model choice'),
];

describe('tables drawn as boxes', () => {
  it('reads columns of stacked boxes as one table, a label box beside several rows spanning them', async () => {
    const doc = await convertBytes(boxesPdf(STAGED_TABLE));
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    const html = tables[0]!.markdown;
    expect(html).toContain('<td rowspan="3">Setup phase</td><td>Project creation</td><td>Faster start</td>');
    expect(html).toContain('<tr><td>Data upload</td><td>One place for files</td></tr>');
    expect(html).toContain('<td rowspan="2">Review phase</td><td>Monitoring</td><td>Issues seen early</td>');
    expect(html).toContain('<tr><td>Evaluation</td><td>Better model choice</td></tr>');
    expect(html.match(/<tr>/g)).toHaveLength(6);
  });

  it('leaves a title box across the whole table above it as text', async () => {
    const title: BoxSpec = { x0: 72, x1: 540, top: 740, bottom: 712, text: 'Key functions by stage' };
    const doc = await convertBytes(boxesPdf([title, ...STAGED_TABLE]));
    const markdown = mainMarkdown(doc);
    expect(markdown.indexOf('Key functions by stage')).toBeGreaterThanOrEqual(0);
    expect(markdown.indexOf('Key functions by stage')).toBeLessThan(markdown.indexOf('<table>'));
    expect(allBlocks(doc).filter((block) => block.type === 'table')[0]!.markdown).not.toContain('Key functions');
  });

  it('leaves a shaded callout and a column of shaded notes of prose as text', async () => {
    const callout: BoxSpec = { x0: 72, x1: 540, top: 700, bottom: 660, text: 'Note: the service keeps your files for thirty days.' };
    const notes: BoxSpec[] = [0, 1, 2].map((i) => ({
      x0: 72,
      x1: 540,
      top: 640 - 40 * i,
      bottom: 610 - 40 * i,
      text: `Step ${i + 1} of the setup asks for the name of your team and the region where its files are kept.`,
    }));
    const doc = await convertBytes(boxesPdf([callout, ...notes]));
    expect(allBlocks(doc).filter((block) => block.type === 'table')).toHaveLength(0);
    const markdown = mainMarkdown(doc);
    expect(markdown).toContain('Note: the service keeps your files for thirty days.');
    expect(markdown).toContain('Step 2 of the setup asks for the name of your team');
  });
});
