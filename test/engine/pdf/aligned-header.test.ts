import { describe, expect, it } from 'vitest';
import { withAlignedHeaders } from '../../../src/engine/pdf/aligned-header.js';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { findTables } from '../../../src/engine/pdf/tables.js';
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';
import { item } from './synthetic.js';

/** A bold line of words a space apart (5 pt a character, 5 pt a space): one run of words, no cells. */
function boldWords(texts: readonly string[], x0: number, baseline: number): PdfTextItem[] {
  const out: PdfTextItem[] = [];
  let x = x0;
  for (const text of texts) {
    out.push(item(text, x, baseline, { bold: true }));
    x += text.length * 5 + 5;
  }
  return out;
}

/** Each label's start in `boldWords`'s line: the start of every word in `texts` that opens a column. */
function starts(texts: readonly string[], x0: number, opens: readonly number[]): number[] {
  const xs: number[] = [];
  let x = x0;
  texts.forEach((text) => {
    xs.push(x);
    x += text.length * 5 + 5;
  });
  return opens.map((index) => xs[index]!);
}

describe('a header whose labels are set a word-space apart', () => {
  const header = ['Sample', 'DI', 'Water', 'Glucose', 'Solution', 'Yeast'];
  const columns = starts(header, 72, [0, 1, 3, 5]);
  const row = (baseline: number, cells: readonly string[]) => cells.map((text, k) => item(text, columns[k]!, baseline));

  it('heads the one row under it, every cell of which starts where a label starts', () => {
    const lines = buildLines([...boldWords(header, 72, 100), ...row(114, ['1', '16 ml', '12 ml', '0 ml'])]);
    const tables = withAlignedHeaders(lines, findTables(lines));
    expect(tables.map((table) => table.markdown)).toEqual([
      ['| Sample | DI Water | Glucose Solution | Yeast |', '| --- | --- | --- | --- |', '| 1 | 16 ml | 12 ml | 0 ml |'].join('\n'),
    ]);
  });

  it('heads the longer table found under it, in place of its first row', () => {
    const lines = buildLines([
      ...boldWords(header, 72, 100),
      ...row(114, ['1', '16 ml', '12 ml', '0 ml']),
      ...row(128, ['2', '8 ml', '4 ml', '2 ml']),
      ...row(142, ['3', '6 ml', '6 ml', '2 ml']),
    ]);
    const [table, ...others] = withAlignedHeaders(lines, findTables(lines));
    expect(others).toEqual([]);
    expect(table!.start).toBe(0);
    expect(table!.markdown.split('\n').slice(0, 3)).toEqual(['| Sample | DI Water | Glucose Solution | Yeast |', '| --- | --- | --- | --- |', '| 1 | 16 ml | 12 ml | 0 ml |']);
  });

  it('is a heading, not a header, where the cells under it do not start at its words', () => {
    const lines = buildLines([...boldWords(header, 72, 100), ...[80, 160, 260, 330].map((x, k) => item(['1', '16 ml', '12 ml', '0 ml'][k]!, x, 114))]);
    expect(withAlignedHeaders(lines, findTables(lines))).toEqual([]);
  });
});
