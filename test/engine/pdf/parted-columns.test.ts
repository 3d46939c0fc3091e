/**
 * A table or a chart across a page set in two columns (a newsletter's, between two bands of columns): the columns
 * above it are read before it, the columns under it after it.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

/** Lines of prose that fill a column 230 points wide in 10-point Helvetica. */
function columnRuns(x: number, top: number, heading: string, lines: readonly string[]): TextRun[] {
  return [
    { x, y: top, text: heading, size: 13, font: 'bold' },
    ...lines.map((text, i): TextRun => ({ x, y: top - 18 - 13 * i, text, size: 10 })),
  ];
}

const LIBRARY = [
  'The library will open until eight in the',
  'evening on weekdays from the first of',
  'April, after the council agreed to fund',
  'two more posts for the reading rooms.',
];
const BUDGET = [
  'Every department has been asked to send',
  'its proposals for the coming year before',
  'the end of the month, so that the board',
  'can review them at its spring meeting.',
];
const EVENTS = [
  'The spring fair returns to the market',
  'square on the second Saturday of May,',
  'with stalls, music and a plant sale run',
  'by the volunteers of the town gardens.',
];
const NOTICES = [
  'Road works on the high street will close',
  'the northern end to traffic for two weeks',
  'in June; buses will follow the diversion',
  'signed along the ring road meanwhile.',
];
const TABLE = [
  ['Department', 'Budget 2025', 'Budget 2026', 'Change'],
  ['Library', '1,200,000', '1,350,000', '+12.5%'],
  ['Parks', '800,000', '760,000', '-5.0%'],
  ['Roads', '2,400,000', '2,450,000', '+2.1%'],
];

/** The bars of a chart drawn across the page between the bands, with no text of its own (no caption). */
const CHART = ['0.2 0.4 0.7 rg', ...[120, 80, 150, 60, 110, 90].map((h, i) => `${90 + i * 75} 420 40 ${h} re f`)].join('\n');

function newsletterPdf(middle: 'table' | 'chart' = 'table'): Uint8Array {
  const xs = [72, 250, 380, 480];
  const runs: TextRun[] = [
    { x: 72, y: 740, text: 'Town Council Bulletin', size: 22, font: 'bold' },
    ...columnRuns(72, 700, 'Library hours', LIBRARY),
    ...columnRuns(320, 700, 'Budget review', BUDGET),
    ...(middle === 'table'
      ? TABLE.flatMap((row, r) => row.map((text, c): TextRun => ({ x: xs[c]!, y: 590 - 16 * r, text, size: 10, ...(r === 0 ? { font: 'bold' as const } : {}) })))
      : []),
    ...columnRuns(72, middle === 'table' ? 500 : 380, 'Events', EVENTS),
    ...columnRuns(320, middle === 'table' ? 500 : 380, 'Notices', NOTICES),
  ];
  if (middle === 'chart') return writePdf({ pages: [{ runs, graphics: CHART }] });
  // Rules over, under the header and under the table, as a newsletter sets one.
  const graphics = ['0.6 w 0 G', '72 604 m 540 604 l S', '72 586 m 540 586 l S', '72 536 m 540 536 l S'].join('\n');
  return writePdf({ pages: [{ runs, graphics }] });
}

function orderOf(markdown: string, texts: readonly string[]): number[] {
  return texts.map((text) => {
    const index = markdown.indexOf(text);
    expect(index, text).toBeGreaterThanOrEqual(0);
    return index;
  });
}

describe('a table or a chart across a page set in two columns', () => {
  it('a table is read between the band of columns above it and the band under it', async () => {
    const markdown = mainMarkdown(await convertBytes(newsletterPdf('table')));
    const order = orderOf(markdown, [LIBRARY.join(' '), BUDGET.join(' '), '| Department | Budget 2025 | Budget 2026 | Change |', EVENTS.join(' '), NOTICES.join(' ')]);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(markdown).toContain('| Parks | 800,000 | 760,000 | -5.0% |');
  });

  it('a chart with no caption parts the bands as a table does', async () => {
    const markdown = mainMarkdown(await convertBytes(newsletterPdf('chart')));
    const order = orderOf(markdown, [LIBRARY.join(' '), BUDGET.join(' '), EVENTS.join(' '), NOTICES.join(' ')]);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});
