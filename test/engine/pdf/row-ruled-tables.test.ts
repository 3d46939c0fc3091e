/**
 * Tables ruled between their rows only (Word's plain table styles, a report's rows set off by hairlines): no
 * vertical rule, so no grid of crossing rules; the rows' rules and the gaps every row leaves make the table.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

const LEFT = 72;
const RIGHT = 540;

function rule(y: number, width = 0.5): string {
  return `${width} w 0 G ${LEFT} ${y} m ${RIGHT} ${y} l S`;
}

function run(text: string, x: number, y: number, size = 11, font: TextRun['font'] = 'regular'): TextRun {
  return { text, x, y, size, font };
}

describe('a table ruled between its rows only', () => {
  it('reads as a table, its header set larger with a label wrapped over two lines, its cells wrapped', async () => {
    const runs = [
      run('Here are some interesting things a respectful duck could eat:', LEFT, 720),
      run('Food', 240, 684, 14),
      run('Calories per', 400, 684, 14),
      run('portion', 400, 667, 14),
      run('Leaves', 80, 640, 11, 'bold'),
      run('Ash, Elm, Maple', 240, 640),
      run('50', 400, 640),
      run('Berries', 80, 612, 11, 'bold'),
      run('Blueberry,', 240, 612),
      run('Strawberry, Cranberry', 240, 599),
      run('150', 400, 612),
      run('Grain', 80, 571, 11, 'bold'),
      run('Corn, Buckwheat,', 240, 571),
      run('Barley', 240, 558),
      run('200', 400, 571),
      run('And a list follows after the table, as the document goes on.', LEFT, 520),
    ];
    const graphics = [rule(658, 2), rule(628), rule(587), rule(548)].join('\n');
    const markdown = mainMarkdown(await convertBytes(writePdf({ pages: [{ runs, graphics }] })));
    expect(markdown).toContain(
      [
        '|  | Food | Calories per portion |',
        '| --- | --- | --- |',
        '| Leaves | Ash, Elm, Maple | 50 |',
        '| Berries | Blueberry, Strawberry, Cranberry | 150 |',
        '| Grain | Corn, Buckwheat, Barley | 200 |',
      ].join('\n'),
    );
    expect(markdown).not.toMatch(/^#/m);
  });

  it('leaves prose between rules as prose: rules between sections part no columns', async () => {
    const words = 'The committee met on Tuesday and agreed the budget for the coming year after a long discussion.';
    const runs = [run(words, LEFT, 700), run(words, LEFT, 686), run(words, LEFT, 640), run(words, LEFT, 626), run(words, LEFT, 580)];
    const graphics = [rule(715), rule(660), rule(600), rule(560)].join('\n');
    const markdown = mainMarkdown(await convertBytes(writePdf({ pages: [{ runs, graphics }] })));
    expect(markdown).not.toContain('|');
    expect(markdown).toContain(words);
  });
});
