/**
 * The PDF benchmark's scorer (bench/lib/pdf-score/), pinned on hand-made inputs: every expected number is worked out
 * by hand in the comment above it, from the rules of opendataloader-bench's evaluator that the modules reproduce.
 */
import { describe, expect, it } from 'vitest';
import { lcsLength, normalizedIndelSimilarity } from '../../bench/lib/pdf-score/edit-distance.js';
import { headingScores } from '../../bench/lib/pdf-score/headings.js';
import { convertMarkdownTablesToHtml } from '../../bench/lib/pdf-score/markdown-tables.js';
import { codePoints, collapseWhitespace } from '../../bench/lib/pdf-score/python-text.js';
import { readingOrderScores } from '../../bench/lib/pdf-score/reading-order.js';
import { scorePage } from '../../bench/lib/pdf-score/scores.js';
import { tableScores } from '../../bench/lib/pdf-score/tables.js';
import { treeEditDistance, type Tree } from '../../bench/lib/pdf-score/tree-edit-distance.js';

const t = (value: string, ...children: Tree<string>[]): Tree<string> => ({ value, children });
const unitRename = { rename: (a: string, b: string) => (a === b ? 0 : 1) };

describe('reading order (NID)', () => {
  it('scores identical texts 1, whitespace collapsed as Python collapses it', () => {
    expect(readingOrderScores('# Title\n\nSome text.', '# Title\nSome   text.\n\n')?.nid).toBe(1);
    // U+00A0 and U+001C are whitespace to Python's \s, U+FEFF is not (JavaScript's \s says the opposite for both).
    expect(collapseWhitespace(' a\u00a0\u001c b\ufeff ')).toBe('a b\ufeff');
  });

  it('gives the exact normalised Indel similarity of a known edit', () => {
    // "abcd" → "abed": LCS "abd" = 3, Indel = 4 + 4 − 2·3 = 2, NID = 1 − 2/8 = 0.75.
    expect(normalizedIndelSimilarity('abcd', 'abed')).toBe(0.75);
    // "kitten" → "sitting": LCS "ittn" = 4, Indel = 6 + 7 − 8 = 5, NID = 1 − 5/13 = 8/13.
    expect(normalizedIndelSimilarity('kitten', 'sitting')).toBeCloseTo(8 / 13, 15);
    // A dropped word: "the cat sat" (11) → "the sat" (7): LCS 7, Indel 4, NID = 1 − 4/18 = 7/9.
    expect(readingOrderScores('the cat sat', 'the sat')?.nid).toBeCloseTo(7 / 9, 15);
    // An emoji is one code point, as in Python: "a😀b" (3) → "ab" (2): Indel 1, NID = 1 − 1/5 = 0.8.
    expect(normalizedIndelSimilarity('a😀b', 'ab')).toBe(0.8);
  });

  it('has no score without reference text, and 0 for an empty output', () => {
    expect(readingOrderScores(' \n ', 'anything')).toBeUndefined();
    expect(readingOrderScores('text', '')?.nid).toBe(0);
  });

  it('counts the LCS across machine words as a plain dynamic programme does', () => {
    // Pseudo-random texts of 150 and 170 letters over 4 symbols: the bit-parallel LCS spans 5 and 6 words.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const text = (n: number) => Array.from({ length: n }, () => 'acgt'[next() % 4]).join('');
    for (let round = 0; round < 5; round++) {
      const a = codePoints(text(150));
      const b = codePoints(text(170));
      const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
        }
      }
      expect(lcsLength(a, b)).toBe(dp[a.length]![b.length]);
    }
  });
});

describe('tree edit distance (Zhang–Shasha)', () => {
  it('finds the known distance between two hand-drawn trees, both ways', () => {
    // f(d(a, c(b)), e) → f(c(d(a, b)), e): delete c (b moves up under d), then insert c above d: 2.
    const left = t('f', t('d', t('a'), t('c', t('b'))), t('e'));
    const right = t('f', t('c', t('d', t('a'), t('b'))), t('e'));
    expect(treeEditDistance(left, right, unitRename)).toBe(2);
    expect(treeEditDistance(right, left, unitRename)).toBe(2);
  });

  it('weighs renames by the cost function and never pays more than delete + insert', () => {
    // a(b, c) → a(b, d): one rename; at cost 0.5 it is 0.5; at cost 3, deleting c and inserting d (2) is cheaper.
    const left = t('a', t('b'), t('c'));
    const right = t('a', t('b'), t('d'));
    expect(treeEditDistance(left, right, { rename: (x, y) => (x === y ? 0 : 0.5) })).toBe(0.5);
    expect(treeEditDistance(left, right, { rename: (x, y) => (x === y ? 0 : 3) })).toBe(2);
    // A whole extra subtree x(y, z) under the root: three insertions.
    expect(treeEditDistance(left, t('a', t('b'), t('c'), t('x', t('y'), t('z'))), unitRename)).toBe(3);
  });
});

describe('Markdown pipe tables → HTML (the evaluator converts before every score)', () => {
  it('writes a header row of th, body rows of td, escaped, on one line', () => {
    expect(convertMarkdownTablesToHtml('| a & b | c |\n|---|:-:|\n| 1 | 2 |\nafter\n')).toBe(
      '<table><tr><th>a &amp; b</th><th>c</th></tr><tr><td>1</td><td>2</td></tr></table>\nafter\n',
    );
  });

  it('gives an all-empty header row way to the first body row, and pads short rows', () => {
    expect(convertMarkdownTablesToHtml('| | |\n|--|--|\n| x | y |\n| z |\n')).toBe(
      '<table><tr><th>x</th><th>y</th></tr><tr><td>z</td><td></td></tr></table>\n',
    );
  });
});

describe('tables (TEDS)', () => {
  const grid = (rows: string[][]) => `<table>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table>`;

  it('scores a pipe table 1 against the same table in HTML (th counts as td)', () => {
    const html = grid([['Name', 'Age'], ['Ann', '31']]);
    expect(tableScores(html, '| Name | Age |\n|------|-----|\n| Ann | 31 |')).toEqual({ teds: 1, tedsS: 1 });
  });

  it('lowers TEDS by the nodes of a missing row', () => {
    // Reference: table + 3 tr + 6 td = 10 nodes; output without the last row: 7. TED = delete tr + 2 td = 3.
    // TEDS = 1 − 3/10 = 0.7.
    const rows = [['a', 'b'], ['c', 'd'], ['e', 'f']];
    expect(tableScores(grid(rows), grid(rows.slice(0, 2)))?.teds).toBeCloseTo(0.7, 15);
  });

  it('charges a changed cell its normalised edit distance', () => {
    // 2×2 table: table + 2 tr + 4 td = 7 nodes. "31" → "32": Levenshtein 1 / length 2 = 0.5. TEDS = 1 − 0.5/7 = 13/14;
    // TEDS-S ignores the text: 1.
    const scores = tableScores(grid([['Name', 'Age'], ['Ann', '31']]), grid([['Name', 'Age'], ['Ann', '32']]));
    expect(scores?.teds).toBeCloseTo(13 / 14, 15);
    expect(scores?.tedsS).toBe(1);
  });

  it('tells a spanning cell from a split one', () => {
    // Reference: tr(A, B), tr(td colspan=2 "Total"): 1 + 2 + 3 = 6 nodes. Output: tr(A, B), tr("Total", ""): 7 nodes.
    // TED: rename the spanning cell to a plain one (colspan differs: 1) + insert the empty cell (1) = 2.
    // TEDS = 1 − 2/max(6, 7) = 5/7.
    const reference = '<table><tr><td>A</td><td>B</td></tr><tr><td colspan="2">Total</td></tr></table>';
    const output = '| A | B |\n|---|---|\n| Total | |';
    expect(tableScores(reference, output)?.teds).toBeCloseTo(5 / 7, 15);
  });

  it('compares all the tables of a page as one tree, in order', () => {
    // Reference: a 2×2 table (7 nodes) then a 1×2 table (4 nodes) = 11 nodes under the evaluator's wrapping root.
    // The output has only the second: delete the first table's 7 nodes. TEDS = 1 − 7/11 = 4/11.
    const first = grid([['a', 'b'], ['c', 'd']]);
    const second = grid([['x', 'y']]);
    expect(tableScores(`${first}\n\ntext\n\n${second}`, second)?.teds).toBeCloseTo(4 / 11, 15);
  });

  it('counts inline markup in a cell as the evaluator tokenises it', () => {
    // Reference cell <b>x</b>: its content is the tokens "<b>x</b>" (8 characters) and the b element is a node:
    // table + tr + td + b = 4 nodes. Output cell "x": Levenshtein("<b>x</b>", "x") = 7, cost 7/8.
    // TEDS = 1 − (7/8)/4 = 0.78125.
    expect(tableScores('<table><tr><td><b>x</b></td></tr></table>', '| x |\n|---|')?.teds).toBe(0.78125);
  });

  it('closes unclosed cells as an HTML parser does', () => {
    expect(tableScores(grid([['a', 'b']]), '<table><tr><td>a<td>b</table>')?.teds).toBe(1);
  });

  it('has no score without a reference table, and 0 for an output without one', () => {
    expect(tableScores('no table', grid([['a']]))).toBeUndefined();
    expect(tableScores(grid([['a']]), 'no table')).toEqual({ teds: 0, tedsS: 0 });
  });
});

describe('headings (MHS)', () => {
  it('ignores heading levels, as the evaluator builds a flat tree of headings', () => {
    // doc → [heading Intro → content Hello, heading Methods → content World] on both sides: distance 0.
    expect(headingScores('# Intro\nHello\n# Methods\nWorld', '## Intro\nHello\n### Methods\nWorld')).toEqual({ mhs: 1, mhsS: 1 });
  });

  it('charges a heading text its normalised edit distance', () => {
    // doc → heading → content, 3 nodes each. "Results" → "Result": Levenshtein 1 / 7. MHS = 1 − (1/7)/3 = 20/21.
    expect(headingScores('# Results\nbody', '# Result\nbody')?.mhs).toBeCloseTo(20 / 21, 15);
  });

  it('charges a heading written as text', () => {
    // Reference: doc → [A → "x", B → "y"] (5 nodes). Output "# A / x / B / y": doc → [A → "x B y"] (3 nodes).
    // Best edit: delete B and "y" (2) and rename "x" → "x B y" (Levenshtein 4 / 5 = 0.8): 2.8.
    // MHS = 1 − 2.8/5 = 0.44; MHS-S (text free) = 1 − 2/5 = 0.6.
    const scores = headingScores('# A\nx\n# B\ny', '# A\nx\nB\ny');
    expect(scores?.mhs).toBeCloseTo(0.44, 15);
    expect(scores?.mhsS).toBeCloseTo(0.6, 15);
  });

  it('has no score without reference headings, and 0 for an output without headings', () => {
    expect(headingScores('plain text', '# Heading')).toBeUndefined();
    expect(headingScores('# Heading\ntext', 'Heading\ntext')).toEqual({ mhs: 0, mhsS: 0 });
  });
});

describe('a page', () => {
  it('averages the scores that apply to it', () => {
    // No table in the reference: overall = (NID + MHS) / 2. Output identical but the heading written as text:
    // "# T x" (5) → "T x" (3): Indel 2, NID = 1 − 2/8 = 0.75; MHS = 0 (no heading). Overall = 0.375.
    const scores = scorePage('# T\nx', 'T\nx');
    expect(scores).toMatchObject({ nid: 0.75, teds: undefined, mhs: 0, overall: 0.375 });
  });
});
