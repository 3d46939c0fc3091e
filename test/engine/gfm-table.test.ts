import { describe, expect, it } from 'vitest';
import { escapeGfmCell, gfmDelimiterRow, gfmRow, renderGfmTable } from '../../src/engine/gfm-table.js';
import { readGfmTable } from './sheets/helpers.js';

describe('renderGfmTable', () => {
  it('renders the first row as the header, then a delimiter row', () => {
    expect(renderGfmTable([['a', 'b'], ['1', '2']])).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });

  it('pads short rows, header included, to the widest row', () => {
    expect(renderGfmTable([['h1'], ['1', '2', '3'], []])).toBe(
      '| h1 |  |  |\n| --- | --- | --- |\n| 1 | 2 | 3 |\n|  |  |  |',
    );
  });

  it('gives nothing for no rows or no cells', () => {
    expect(renderGfmTable([])).toBe('');
    expect(renderGfmTable([[], []])).toBe('');
  });

  it('renders a header-only table', () => {
    expect(renderGfmTable([['only']])).toBe('| only |\n| --- |');
  });

  it('round-trips cells with pipes and backslashes through a GFM reader', () => {
    const rows = [['a|b', 'c\\|d', 'e\\'], ['x', '|', 'path\\to']];
    const markdown = renderGfmTable(rows);
    expect(markdown).toContain('a\\|b');
    expect(markdown).toContain('c\\\\\\|d');
    expect(readGfmTable(markdown)[0]?.[0]).toBe('a|b');
  });
});

describe('escapeGfmCell', () => {
  it('escapes pipes', () => {
    expect(escapeGfmCell('a | b')).toBe('a \\| b');
    expect(escapeGfmCell('||')).toBe('\\|\\|');
  });

  it('doubles backslashes in front of a pipe so they cannot eat the escape', () => {
    expect(escapeGfmCell('a\\|b')).toBe('a\\\\\\|b');
    expect(escapeGfmCell('C:\\temp')).toBe('C:\\temp');
  });

  it('turns every kind of line break into <br>', () => {
    expect(escapeGfmCell('one\ntwo\r\nthree\rfour\u2028five')).toBe('one<br>two<br>three<br>four<br>five');
    expect(escapeGfmCell('line \n  next')).toBe('line<br>next');
  });

  it('drops control characters, turns tabs into spaces and trims', () => {
    expect(escapeGfmCell('  a\u0000b\u0007c\td  ')).toBe('abc d');
    expect(escapeGfmCell('\u001b[31mred')).toBe('[31mred');
  });

  it('leaves ordinary text alone', () => {
    expect(escapeGfmCell('Nestlé 12,553 (81) — *note*')).toBe('Nestlé 12,553 (81) — *note*');
    expect(escapeGfmCell('')).toBe('');
  });
});

describe('row helpers', () => {
  it('gfmRow pads with empty cells; gfmDelimiterRow has one --- per column', () => {
    expect(gfmRow(['a'], 3)).toBe('| a |  |  |');
    expect(gfmDelimiterRow(2)).toBe('| --- | --- |');
  });
});
