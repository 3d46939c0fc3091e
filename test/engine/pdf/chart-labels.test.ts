/**
 * The labels of a chart drawn with vector paths (chart-labels.ts): the category names under its axis and its
 * legend, set in rows right under the plot, read as the chart's text where they stand, not as a table.
 */
import { describe, expect, it } from 'vitest';
import { chartLabels } from '../../../src/engine/pdf/chart-labels.js';
import type { ProtoBlock, Rect } from '../../../src/engine/pdf/types.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

const GROUPS = ['Tourism', 'Handicraft', 'Agriculture'];
const PHASES = ['Jul 2020', 'Oct 2020', 'Jan 2021'];
const LEGEND = ['Will not terminate employment', 'Will terminate employment', "Don't know"];

/**
 * A grouped bar chart (three sectors of three survey phases) with its values over the bars, the phases under
 * each bar, the sectors under each group and a legend of phrases set a little apart, then a paragraph.
 */
function groupedBarChartPdf(under: 'labels' | 'data table' = 'labels', plot: 'tall' | 'short' = 'tall'): Uint8Array {
  const graphics: string[] = ['0.5 w 0.6 G'];
  const runs: TextRun[] = [{ x: 72, y: 740, text: 'Figure 2: Will they fire more staff in the next two months, by sector (%)', size: 10, font: 'bold' }];
  // Grid lines and the axis: the plot runs up from 432 pt, 220 pt high with values over its bars, or 45 pt with
  // only its axis's values, set so close that the layout joins them in one block.
  const step = plot === 'tall' ? 55 : 8.5;
  const ticks = plot === 'tall' ? 4 : 5;
  for (let i = 0; i <= ticks; i++) {
    graphics.push(`150 ${432 + step * i} m 520 ${432 + step * i} l S`);
    runs.push({ x: 134, y: 430 + step * i, text: String((100 / ticks) * i), size: 7 });
    // A second axis on the right, its values on the same lines as the left one's.
    if (plot === 'short') runs.push({ x: 526, y: 430 + step * i, text: String(10 * i), size: 7 });
  }
  const values = [81, 73, 51, 59, 62, 45, 91, 94, 82];
  const xs = [165, 198, 231.5, 292.5, 325.5, 359, 420, 453, 486.5];
  graphics.push('0.2 0.4 0.7 rg');
  values.forEach((value, i) => {
    graphics.push(`${xs[i]! + 2} 432 20 ${(value / 100) * step * ticks} re f`);
    if (plot === 'tall') runs.push({ x: xs[i]! + 7, y: 432 + (value / 100) * 220 + 3, text: String(value), size: 6 });
    if (under === 'labels') runs.push({ x: xs[i]!, y: 420, text: PHASES[i % 3]!, size: 6 });
  });
  if (under === 'labels') {
    [198, 311, 448.5].forEach((x, g) => runs.push({ x, y: 408, text: GROUPS[g]!, size: 7 }));
    [202.5, 318, 421.5].forEach((x, i) => runs.push({ x, y: 390, text: LEGEND[i]!, size: 7 }));
  } else {
    // The chart's data under it: a header of phrases over rows of values, every cell filled.
    const table = [['Firms keeping all their staff', ...PHASES], ['Tourism', '81', '73', '51'], ['Agriculture', '91', '94', '82']];
    table.forEach((row, r) => row.forEach((text, c) => runs.push({ x: c === 0 ? 165 : 300 + 70 * c, y: 420 - 14 * r, text, size: 7 })));
  }
  runs.push(
    { x: 72, y: 350, text: 'In July 2020, 81% of the small firms in tourism did not expect to lay off more staff. By January', size: 10 },
    { x: 72, y: 336, text: 'the share had fallen to 51%, while in agriculture it stayed above four in five through all three phases.', size: 10 },
    { x: 72, y: 322, text: 'Handicraft and textile firms stood between the two, their expectations little changed over the year.', size: 10 },
  );
  return writePdf({ pages: [{ runs, graphics: graphics.join('\n') }] });
}

describe('rows of labels under a chart', () => {
  it('read as text lines where they stand, a legend of phrases too, not as a table', async () => {
    const markdown = mainMarkdown(await convertBytes(groupedBarChartPdf(), { mode: 'fast' }));
    expect(markdown).not.toContain('|');
    expect(markdown).not.toContain('<table>');
    expect(markdown).toContain(PHASES.join(' '));
    expect(markdown).toContain(GROUPS.join(' '));
    expect(markdown).toContain(LEGEND.join(' '));
    expect(markdown.indexOf(LEGEND[0]!)).toBeLessThan(markdown.indexOf('In July 2020'));
  });

  it('so are they under a chart whose only values are its axis\'s, joined in one block', async () => {
    const markdown = mainMarkdown(await convertBytes(groupedBarChartPdf('labels', 'short'), { mode: 'fast' }));
    expect(markdown).not.toContain('|');
    expect(markdown).toContain(LEGEND.join(' '));
  });

  it('leaves a table of the chart\'s data under it a table', async () => {
    const markdown = mainMarkdown(await convertBytes(groupedBarChartPdf('data table'), { mode: 'fast' }));
    expect(markdown).toContain('| Tourism | 81 | 73 | 51 |');
  });
});

describe('a column of labels inside a chart', () => {
  /** A block of one line of `text` at `rect` (page units, top-down). */
  const block = (text: string, rect: Rect, table?: ProtoBlock['table']): ProtoBlock => ({
    kind: table ? 'table' : 'paragraph',
    markdown: text,
    text,
    rect,
    lines: table ? table.rowCount : 1,
    size: 7,
    bold: false,
    chars: text.replace(/\s/g, '').length,
    ...(table ? { table } : {}),
  });
  // Four bars and five grid lines, 150..380 × 300..420 (top-down), their values at their tops.
  const paths: Rect[] = [
    ...[0, 1, 2, 3].map((i) => ({ x0: 170 + 50 * i, y0: 320, x1: 200 + 50 * i, y1: 420 })),
    ...[0, 1, 2, 3, 4].map((i) => ({ x0: 150, y0: 300 + 30 * i, x1: 380, y1: 300.5 + 30 * i })),
  ];
  const values = ['94', '90', '92', '68'].map((text, i) => block(text, { x0: 178 + 50 * i, y0: 325, x1: 188 + 50 * i, y1: 332 }));
  /** A legend stacked down the plot's right side, read by a table finder as a column beside a stray value. */
  const legend = (rows: string[][]) =>
    block(rows.flat().join(' '), { x0: 330, y0: 322, x1: 378, y1: 322 + 14 * rows.length }, {
      rowCount: rows.length,
      colCount: 2,
      cells: rows.flatMap((row, r) => row.map((text, c) => ({ row: r, col: c, rowSpan: 1, colSpan: 1, text }))),
    });

  it('is the chart\'s labels however many rows it has, where it leaves its grid mostly empty', () => {
    const table = legend([['11', 'OCR-Recall'], ['', 'OCR-Precision'], ['', 'OCR-F1'], ['', 'Parsing-F1']]);
    expect(chartLabels([...values, table], paths, 612, 792).has(table)).toBe(true);
  });

  it('is no label column where its rows fill the grid, a table of the chart\'s data', () => {
    const table = legend([['Recall', '94'], ['Precision', '90'], ['F1', '92'], ['Parsing', '68']]);
    expect(chartLabels([...values, table], paths, 612, 792).has(table)).toBe(false);
  });
});
