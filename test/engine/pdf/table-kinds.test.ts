/** Grids of aligned text that read as something else than a table (table-kinds.ts), on cell texts. */
import { describe, expect, it } from 'vitest';
import { readsAsTable } from '../../../src/engine/pdf/table-kinds.js';

describe('readsAsTable', () => {
  it('a contents list (entries ending in page numbers, roman then arabic, in order) is not a table', () => {
    expect(
      readsAsTable([
        ['Acknowledgments', 'xi'],
        ['Experiment #1: Hydrostatic Pressure', '3'],
        ['Experiment #2: Energy Loss in Pipes', '13'],
        ['References', '101'],
      ]),
    ).toBe(false);
  });

  it('a two-column table of names and rising numbers under a header stays a table', () => {
    expect(
      readsAsTable([
        ['Mineral or colloid type', 'CEC of pure colloid'],
        ['kaolinite', '10'],
        ['illite', '30'],
        ['montmorillonite/smectite', '100'],
      ]),
    ).toBe(true);
  });

  it('numbers that fall back (a column of values, not page numbers) keep a table', () => {
    expect(
      readsAsTable([
        ['North region', '120'],
        ['South region', '45'],
        ['East region', '300'],
      ]),
    ).toBe(true);
  });

  it("a chart's labels run into its figure caption are not a table", () => {
    expect(
      readsAsTable([
        ['56%', '36%', "Figure 8: Respondents' view to the"],
        ['AGREE', 'STRONGLY AGREE', 'statement on online services'],
        ['', '', 'in 2021'],
      ]),
    ).toBe(false);
    expect(
      readsAsTable([
        ['Diagram 4', 'Distribution of posts by kind'],
        ['Events', '81'],
        ['Videos', '21'],
      ]),
    ).toBe(false);
  });

  it('a bar chart laid on its side (ticks rising across its top or bottom row, labels beside empty cells) is not a table', () => {
    const rows = [
      ['', '0.03 0.06', '0.09'],
      ['CustomerBERT', '', ''],
      ['Personalize', '', 'AWS Ready'],
      ['AutoEncoder', '14.3%', ''],
      ['GNN_LightGCN', '', ''],
      ['CF_BPR', '', ''],
    ];
    expect(readsAsTable(rows)).toBe(false);
    expect(readsAsTable([...rows.slice(1), ['', '0', '50 100']])).toBe(false);
  });

  it('a table under a header of years rising across, its cells full of values, stays a table', () => {
    expect(
      readsAsTable([
        ['', '2019', '2020', '2021'],
        ['Revenue', '120', '135', '150'],
        ['Costs', '80', '85', '95'],
        ['Staff', '12', '', '14'],
      ]),
    ).toBe(true);
  });

  it('a figure named in a cell of a table (not as its label) keeps the table', () => {
    expect(
      readsAsTable([
        ['Section', 'Illustration'],
        ['Setup', 'see Figure 2'],
        ['Results', 'Figures 3 to 5'],
      ]),
    ).toBe(true);
  });

  it('two columns of running prose side by side are not a table', () => {
    expect(
      readsAsTable([
        ['Check your emotions. If a claim', 'In these'],
        ['causes strong emotion - anger, glee,', "chapters we're"],
        ['pride, vindication - STOP. You must', 'focusing on'],
        ['fact-check this claim. Remember', 'researching a'],
        ['from the chapter, Our Mental', 'wicked problem,'],
        ['accept information that confirms our', 'but the SIFT'],
      ]),
    ).toBe(false);
  });

  it('a chart value axis (numbers falling by one step) with bar labels is not a table', () => {
    expect(
      readsAsTable([
        ['400', '', '374'],
        ['350', '', '319'],
        ['300', '', ''],
        ['250 200', '187', ''],
        ['150', '128', ''],
        ['100', '', '55'],
        ['50', '', '22'],
        ['0', 'Male', 'Female'],
      ]),
    ).toBe(false);
  });

  it('a grid of numbers without a single word (a chart\'s values in its boxes) is not a table', () => {
    expect(
      readsAsTable([
        ['32', '37', '22'],
        ['', '', '20'],
        ['30', '17', ''],
        ['38', '46', '57'],
      ]),
    ).toBe(false);
  });

  it('a table with a years column and lower-case notes in one column stays a table', () => {
    expect(
      readsAsTable([
        ['Year', 'Output', 'Note'],
        ['2018', '12.5', 'first full year'],
        ['2019', '13.1', 'new plant opened'],
        ['2020', '9.8', 'output cut back'],
      ]),
    ).toBe(true);
  });
});
