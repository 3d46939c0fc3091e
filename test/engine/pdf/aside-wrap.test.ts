/**
 * Text set round a floated box: the paragraph the box's band broke goes on under it as one paragraph, and the
 * box is read after it (a generated page, and the rule on blocks by hand).
 */
import { describe, expect, it } from 'vitest';
import { withTextRoundAsides } from '../../../src/engine/pdf/aside-wrap.js';
import type { RegionBlocks } from '../../../src/engine/pdf/column-notes.js';
import type { ProtoBlock } from '../../../src/engine/pdf/types.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

function paragraph(text: string, x0: number, y0: number, x1: number, y1: number): ProtoBlock {
  return { kind: 'paragraph', text, markdown: text, rect: { x0, y0, x1, y1 }, lines: 1, size: 10, bold: false, chars: text.length };
}

describe('withTextRoundAsides', () => {
  const part = paragraph('we will try a shared seed bank. Please save seeds', 72, 100, 380, 160);
  const box = paragraph('Bring gloves and a trowel to each event.', 400, 100, 540, 150);
  const rest = paragraph('from your strongest plants and label them with the plot number.', 72, 164, 540, 176);
  const band = (below: ProtoBlock): RegionBlocks[] => [
    { kind: 'column', blocks: [part] },
    { kind: 'column', blocks: [box] },
    { kind: 'full', blocks: [below] },
  ];

  it('joins the broken paragraph in its column; the box comes after it', () => {
    const regions = withTextRoundAsides(band(rest));
    expect(regions.flatMap((region) => region.blocks.map((block) => block.text))).toEqual([
      'we will try a shared seed bank. Please save seeds from your strongest plants and label them with the plot number.',
      'Bring gloves and a trowel to each event.',
    ]);
    expect(regions[0]!.blocks[0]!.rect).toEqual({ x0: 72, y0: 100, x1: 540, y1: 176 });
  });

  it('leaves a paragraph that ended, one that opens in a capital, and one a paragraph gap below', () => {
    const ended = { ...part, text: 'Please save seeds.', markdown: 'Please save seeds.' };
    expect(withTextRoundAsides([{ kind: 'column', blocks: [ended] }, { kind: 'column', blocks: [box] }, { kind: 'full', blocks: [rest] }])[2]!.blocks).toHaveLength(1);
    expect(withTextRoundAsides(band({ ...rest, text: 'From the plots…', markdown: 'From the plots…' }))[2]!.blocks).toHaveLength(1);
    expect(withTextRoundAsides(band({ ...rest, rect: { ...rest.rect, y0: 180, y1: 192 } }))[2]!.blocks).toHaveLength(1);
  });
});

describe('a page whose text runs round a box', () => {
  it('reads the paragraph whole, then the box', async () => {
    // 10 pt Helvetica; a column of text at 72 beside a panel at 400, the paragraph going on full width below it.
    const beside = [
      'Last summer was the best season for tomatoes since the',
      'garden opened. Plot holders grew eleven varieties between',
      'them, and the heritage beefsteaks won a prize at the show.',
      'This year we will try a shared seed bank, so that the best',
      'plants can be grown again next season. Please save seeds',
    ];
    const panel = ['Dates for your diary', '12 March: seed swap', '2 April: planting day', '30 April: inspections'];
    const runs: TextRun[] = [
      { x: 72, y: 740, text: 'Community Garden Newsletter', size: 18, font: 'bold' },
      ...beside.map((text, i) => ({ x: 72, y: 700 - 14 * i, text, size: 10 })),
      ...panel.map((text, i) => ({ x: 410, y: 700 - 14 * i, text, size: 10, font: i === 0 ? ('bold' as const) : ('regular' as const) })),
      { x: 72, y: 630, text: 'from your strongest plants and label each packet with the variety and the plot number.', size: 10 },
      { x: 72, y: 616, text: 'The seed bank opens at the swap in March, in the hall beside the gate.', size: 10 },
    ];
    const bytes = writePdf({ pages: [{ runs, graphics: '0.95 0.91 0.82 rg 400 640 140 76 re f 0 g' }] });
    const markdown = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    expect(markdown).toContain('Please save seeds from your strongest plants and label each packet with the variety and the plot number.');
    expect(markdown.indexOf('plot number.')).toBeLessThan(markdown.indexOf('Dates for your diary'));
  });
});
