import { describe, expect, it } from 'vitest';
import { bulletColumns } from '../../../src/engine/pdf/table-kinds.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';

const STRENGTHS = ['Loyal customers', 'Broad catalogue', 'Efficient logistics'];
const RISKS = ['Rising supplier prices', 'Currency exposure', 'New competitors'];

/** A slide of two columns of bullets under its title, as a two-content layout prints. */
function twoListsSlide(): Uint8Array {
  const runs: TextRun[] = [{ x: 60, y: 380, text: 'Strengths and risks', size: 36, font: 'bold' }];
  STRENGTHS.forEach((text, i) => runs.push({ x: 60, y: 300 - 36 * i, text: `\u2022 ${text}`, size: 24 }));
  RISKS.forEach((text, i) => runs.push({ x: 420, y: 300 - 36 * i, text: `\u2022 ${text}`, size: 24 }));
  return writePdf({ pages: [{ runs, width: 794, height: 446 }] });
}

describe('lists side by side', () => {
  it('are read list by list, not as a table of bullets nor as lines across both', async () => {
    const doc = await convertBytes(twoListsSlide());
    expect(allBlocks(doc).filter((block) => block.type === 'table')).toEqual([]);
    const lists = [STRENGTHS, RISKS].map((items) => items.map((item) => `- ${item}`).join('\n'));
    expect(mainMarkdown(doc)).toBe(`# Strengths and risks\n\n${lists.join('\n\n')}`);
  });

  it('are grids whose every filled cell opens with a bullet', () => {
    expect(bulletColumns([['• Loyal customers', '• Rising prices'], ['• Broad catalogue', '']])).toEqual([['Loyal customers', 'Broad catalogue'], ['Rising prices']]);
    expect(bulletColumns([['Region', 'Change'], ['• North', '+21%']])).toBeUndefined();
    expect(bulletColumns([['1. First', '2. Second']])).toBeUndefined();
  });
});
