/**
 * Labels set in a margin column level with the first line of the paragraph each heads (a CV's "Work Experience"):
 * each label stands on its own before its paragraph, and the paragraph stays whole.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

const SECTIONS: [label: string, lines: string[]][] = [
  ['Work Experience', ['Led the data team of a regional bank for six', 'years, building its reporting platform and', 'training new analysts in statistics.']],
  ['Formal Education', ['Master of Science in applied mathematics from', 'the state university, with a thesis on time', 'series forecasting for retail demand.']],
  ['Volunteer Work', ['Coaches the junior chess club of the town on', 'weekends and organises its summer tournament', 'with the help of local schools.']],
];

function curriculumPdf(): Uint8Array {
  const runs: TextRun[] = [{ x: 72, y: 740, text: 'Jane Example', size: 20, font: 'bold' }];
  let y = 700;
  for (const [label, lines] of SECTIONS) {
    runs.push({ x: 72, y, text: label, size: 11, font: 'bold' });
    lines.forEach((line, i) => runs.push({ x: 220, y: y - 14 * i, text: line, size: 11 }));
    y -= 14 * lines.length + 20;
  }
  return writePdf({ pages: [{ runs }] });
}

describe('labels in a margin column, level with the first line of their paragraph', () => {
  it('each stands on its own line before its paragraph, read whole', async () => {
    const markdown = mainMarkdown(await convertBytes(curriculumPdf()));
    let from = 0;
    for (const [label, lines] of SECTIONS) {
      const labelAt = markdown.indexOf(label, from);
      expect(labelAt, label).toBeGreaterThanOrEqual(from);
      // The label is a line of its own (a heading or a paragraph), not run into the paragraph's first line.
      expect(markdown.slice(labelAt).split('\n')[0]!.replace(/^#+ /, '').trim()).toBe(label);
      const paragraphAt = markdown.indexOf(lines.join(' '), labelAt);
      expect(paragraphAt, lines[0]).toBeGreaterThan(labelAt);
      from = paragraphAt;
    }
  });
});

/** A glossary: terms in bold in a column, each definition beside it, some on one line and some running on. */
const TERMS: [term: string, lines: string[]][] = [
  ['Accrual', ['An amount owed for goods or services received but', 'not yet invoiced at the end of the period.']],
  ['Depreciation', ["The spreading of an asset's cost over its years of use."]],
  ['Liquidity', ['How readily an asset can be turned into cash without', 'losing value, measured by the current ratio.']],
  ['Provision', ['A liability of uncertain timing or amount.']],
];

function glossaryPdf(): Uint8Array {
  const runs: TextRun[] = [{ x: 72, y: 740, text: 'Key terms', size: 16, font: 'bold' }];
  let y = 700;
  for (const [term, lines] of TERMS) {
    runs.push({ x: 72, y, text: term, size: 11, font: 'bold' });
    lines.forEach((line, i) => runs.push({ x: 210, y: y - 14 * i, text: line, size: 11 }));
    y -= 14 * lines.length + 10;
  }
  return writePdf({ pages: [{ runs }] });
}

/** A borderless table of one-line rows: a name beside a description of a few words. */
function parametersPdf(): Uint8Array {
  const rows = [
    ['timeout', 'Seconds to wait before the request is abandoned'],
    ['retries', 'Times a failed request is tried again'],
    ['backoff', 'Seconds added to the wait after each failure'],
  ];
  const runs: TextRun[] = [
    { x: 72, y: 700, text: 'Parameter', size: 11, font: 'bold' },
    { x: 210, y: 700, text: 'Description', size: 11, font: 'bold' },
    ...rows.flatMap(([name, text], i) => [
      { x: 72, y: 680 - 18 * i, text: name!, size: 11 },
      { x: 210, y: 680 - 18 * i, text: text!, size: 11 },
    ]),
  ];
  return writePdf({ pages: [{ runs }] });
}

describe('a glossary of terms beside their definitions', () => {
  it('reads every term on a line of its own before its definition, whether the definition runs on or not', async () => {
    const markdown = mainMarkdown(await convertBytes(glossaryPdf(), { mode: 'fast' }));
    const blocks = markdown.split('\n\n').map((block) => block.replace(/^#+ /, ''));
    expect(blocks.slice(1)).toEqual(TERMS.flatMap(([term, lines]) => [term, lines.join(' ')]));
  });

  it('leaves a borderless table of one-line rows a table', async () => {
    const markdown = mainMarkdown(await convertBytes(parametersPdf(), { mode: 'fast' }));
    expect(markdown.split('\n')[0]).toBe('| Parameter | Description |');
  });
});
