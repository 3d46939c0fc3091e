/**
 * A report as a report generator sets it (`test/fixtures/printed/generated-report.pdf`, written by ReportLab from
 * `generated-report.py` beside it): its numbered lists set their numbers apart from the items with no stop after
 * them, in larger type, and its title stands centred over the first numbered heading in the same type (18 pt bold,
 * as every section's heading).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isNumberedList } from '../../../src/engine/pdf/table-kinds.js';
import { allBlocks, convertBytes } from './helpers.js';

const fixture = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/generated-report.pdf', import.meta.url)));

describe('a report written by ReportLab', () => {
  it('reads the title and the first heading under it as two headings, the title over the numbered sections', async () => {
    const headings = allBlocks(await convertBytes(fixture(), { mode: 'fast' })).filter((block) => block.type === 'section_header' || block.type === 'title');
    expect(headings.map((block) => [block.type, block.markdown])).toEqual([
      ['title', '# Riverside Community Trust: Annual Report 2025'],
      ['section_header', '## 1. Introduction'],
      ['section_header', '### 1.1 Our aims'],
      ['section_header', '### 1.2 How we work'],
      ['section_header', '## 2. Finances'],
      ['section_header', '## 3. Plans for 2026'],
    ]);
  });

  it('reads numbers set apart from their items as a numbered list, a wrapped item whole', async () => {
    const lists = allBlocks(await convertBytes(fixture(), { mode: 'fast' })).filter((block) => block.label === 'list');
    expect(lists.map((block) => block.markdown)).toEqual([
      [
        '- Keep the riverside path open and safe all year round, with volunteers on hand at weekends.',
        '- Fund small groups that bring neighbours together.',
        '- Run a food bank twice a week from the hall.',
      ].join('\n'),
      [
        '1. Applications are read by two trustees.',
        '2. Grants over £2,000 go to the full board.',
        '3. Every grant is reported on within a year.',
      ].join('\n'),
      [
        '1. Open a second food bank session on Saturdays.',
        '2. Repair the boathouse roof before winter, with a grant from the county council that covers the scaffolding and two thirds of the slates.',
        '3. Recruit three new trustees with experience of finance and youth work.',
      ].join('\n'),
    ]);
  });
});

describe('isNumberedList', () => {
  it('takes a column of numbers counting up beside words for a list, wrapped lines under their item', () => {
    expect(isNumberedList([['1', 'Applications are read'], ['', 'by two trustees.'], ['2', 'Grants go to the board.']])).toBe(true);
  });

  it('leaves a table of figures, numbers that skip, a header row, a third column and a lone item to be tables', () => {
    expect(isNumberedList([['1', '12,400'], ['2', '10,950']])).toBe(false);
    expect(isNumberedList([['1', 'Oats'], ['3', 'Barley']])).toBe(false);
    expect(isNumberedList([['No.', 'Item'], ['1', 'Oats'], ['2', 'Barley']])).toBe(false);
    expect(isNumberedList([['1', 'Oats']])).toBe(false);
    expect(isNumberedList([['1', 'Oats', '4.50'], ['2', 'Barley', '3.20']])).toBe(false);
  });
});
