import { describe, expect, it } from 'vitest';
import {
  addToVocabulary,
  buildBlocks,
  emptyVocabulary,
  HYPHEN_MARK,
  joinLines,
  listMarker,
  looksLikeFormula,
  resolveHyphens,
} from '../../../src/engine/pdf/paragraphs.js';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { item, paragraph, words } from './synthetic.js';

const REGION = { x0: 50, x1: 350 };

function blocksOf(items: ReturnType<typeof item>[]) {
  return buildBlocks(buildLines(items), REGION);
}

describe('joinLines: words hyphenated across lines', () => {
  it('joins a word broken at a line end', () => {
    expect(joinLines(['the digital trans-', 'formation program'])).toBe('the digital transformation program');
  });

  it('keeps the hyphen before an upper-case letter or a digit, without a space', () => {
    expect(joinLines(['a strong Lucene-', 'BM25 system'])).toBe('a strong Lucene-BM25 system');
    expect(joinLines(['the COVID-', '19 pandemic'])).toBe('the COVID-19 pandemic');
  });

  it('keeps compounds that already carry a hyphen', () => {
    expect(joinLines(['a state-of-the-', 'art system'])).toBe('a state-of-the-art system');
  });

  it('does not touch dashes, a hyphen after a space, or lines without one', () => {
    expect(joinLines(['first line —', 'second line'])).toBe('first line — second line');
    expect(joinLines(['a list -', 'item'])).toBe('a list - item');
    expect(joinLines(['plain', 'text'])).toBe('plain text');
  });

  it('removes a soft hyphen at a line end', () => {
    expect(joinLines(['infor\u00ad', 'mation'])).toBe('information');
  });

  it('joins Chinese lines without a space', () => {
    expect(joinLines(['中文的句子', '继续下去'])).toBe('中文的句子继续下去');
  });

  it('can defer the decision to the document vocabulary', () => {
    const deferred = joinLines(['a simple dual-', 'encoder framework'], { deferHyphens: true });
    expect(deferred).toBe(`a simple dual${HYPHEN_MARK}encoder framework`);
    const vocabulary = emptyVocabulary();
    addToVocabulary(vocabulary, 'the dual-encoder architecture');
    expect(resolveHyphens(deferred, vocabulary)).toBe('a simple dual-encoder framework');
    expect(resolveHyphens(`trans${HYPHEN_MARK}formation`, vocabulary)).toBe('transformation');
    addToVocabulary(vocabulary, 'a low-dimensional space');
    expect(resolveHyphens(`high${HYPHEN_MARK}dimensional`, vocabulary)).toBe('high-dimensional');
    expect(resolveHyphens(`d${HYPHEN_MARK}dimensional`, emptyVocabulary())).toBe('d-dimensional');
  });
});

describe('buildBlocks: paragraphs', () => {
  it('splits paragraphs at vertical gaps and keeps lines with ordinary leading together', () => {
    const blocks = blocksOf([
      ...paragraph([words(10), words(10, 1), 'end of the first.'], 50, 100),
      ...paragraph([words(10, 2), 'end of the second.'], 50, 150),
    ]);
    expect(blocks.map((block) => block.kind)).toEqual(['paragraph', 'paragraph']);
    expect(blocks[0]!.text.endsWith('end of the first.')).toBe(true);
    expect(blocks[0]!.lines).toBe(3);
  });

  it('splits paragraphs set a third of a line apart, whatever their last lines', () => {
    // 10-point type on 12 points of leading, 4 more between paragraphs; each paragraph ends at the measure's edge.
    const full = 'x'.repeat(58);
    const texts = [[`${full} one`, `${full} two`, `${full} end.`], [`${full} three`, `${full} four`, `${full} done.`], [`${full} five`, `${full} last.`]];
    let top = 100;
    const items = texts.flatMap((lines) => {
      const set = paragraph(lines, 50, top);
      top += 12 * lines.length + 4;
      return set;
    });
    expect(blocksOf(items).map((block) => block.lines)).toEqual([3, 3, 2]);
  });

  it('splits at a first-line indent without a gap', () => {
    const full = 'x'.repeat(58);
    const blocks = blocksOf([
      item(full, 50, 100),
      item(`${'x'.repeat(57)}.`, 50, 112),
      item(`Y${'y'.repeat(55)}`, 60, 124),
      item(full, 50, 136),
    ]);
    expect(blocks).toHaveLength(2);
  });

  it("keeps a hanging indent's line set in under its first, going on in lower case mid-sentence (a reference)", () => {
    const blocks = blocksOf([
      item('Smith, J. and Jones, K. (2019). A study of river flows in the', 50, 100),
      item('northern valleys. Journal of Hydrology, 12(3), 45-67.', 68, 112),
      item('Brown, A. (2020). Dams and their effects on fish migration in', 50, 128),
      item('three valleys over thirty years. Water Research, 8, 101-119.', 68, 140),
    ]);
    expect(blocks.map((block) => block.text)).toEqual([
      'Smith, J. and Jones, K. (2019). A study of river flows in the northern valleys. Journal of Hydrology, 12(3), 45-67.',
      'Brown, A. (2020). Dams and their effects on fish migration in three valleys over thirty years. Water Research, 8, 101-119.',
    ]);
  });

  it('splits at a first-line indent before a paragraph of one short line, after a line ending its sentence at the edge', () => {
    // Each line of 60 characters (5 pt each) fills the region's 300 pt; the first is set in by the indent.
    const fill = (text: string) => text + 'z'.repeat(60 - text.length);
    const blocks = blocksOf([
      item(fill('Services that parse documents limit their clients. '), 60, 100, { width: 290 }),
      item(fill('A fleet of workers behind one key shares that limit '), 50, 112),
      item(`${'w'.repeat(41)} and idle stretches after it.`, 50, 124),
      item('Our contributions are the following:', 60, 136),
    ]);
    expect(blocks.map((block) => block.text.slice(0, 16))).toEqual(['Services that pa', 'Our contribution']);
  });

  it("keeps a paragraph's last word, alone on its line and ending before the first line's indent, in the paragraph", () => {
    // The first line set in 25 pt and filling the region; `load.` (20 pt wide) under it ends before the indent.
    const blocks = blocksOf([
      item('Builds for other platforms may work but are not tested. The size of each down-', 75, 100, { width: 275 }),
      item('load.', 50, 112, { width: 20 }),
      item('Sizes are given for the compressed archives; unpacked, each takes three times as much.', 75, 130, { width: 275 }),
    ]);
    expect(blocks.map((block) => block.text)).toEqual([
      'Builds for other platforms may work but are not tested. The size of each download.',
      'Sizes are given for the compressed archives; unpacked, each takes three times as much.',
    ]);
  });

  it('splits where the font size or weight changes', () => {
    const blocks = blocksOf([
      item('Results', 50, 100, { bold: true }),
      ...paragraph([words(10), words(8)], 50, 112),
    ]);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]!.bold).toBe(true);
    expect(blocks[1]!.bold).toBe(false);
  });

  it('does not run a short centred line into the wider line below', () => {
    const blocks = blocksOf([item('a2 + 8 = 12', 180, 100), item(words(11), 50, 112), item(words(11), 50, 124)]);
    expect(blocks[0]!.kind).toBe('formula');
    expect(blocks).toHaveLength(2);
  });

  it("sets a field (`Phone: …`) apart from a line that had room for its label, and reads on after a full line", () => {
    const contact = blocksOf(paragraph(['12 River Street, Riverside', 'Phone: 0123 456 789', 'Email: library@example.org'], 50, 100));
    expect(contact.map((block) => block.text)).toEqual(['12 River Street, Riverside', 'Phone: 0123 456 789', 'Email: library@example.org']);
    // The first line fills the region (60 characters, 300 pt): the label after it is the sentence's next word.
    const prose = blocksOf(paragraph(['The worker reads each file once and keeps what it found in a', 'Note: field of the manifest until the run ends.'], 50, 100));
    expect(prose).toHaveLength(1);
  });

  it('keeps centred lines the writer broke apart: a line of authors over a wider affiliation', () => {
    // Centred on x 200, 5 pt a character: the affiliation's first word would have fit after the authors.
    const centred = (text: string, baseline: number) => item(text, 200 - (text.length * 5) / 2, baseline);
    const byline = blocksOf([centred('Ada Byron, Charles Babbage', 100), centred('Analytical Engines Ltd, London', 112)]);
    expect(byline.map((block) => block.text)).toEqual(['Ada Byron, Charles Babbage', 'Analytical Engines Ltd, London']);
    // A centred line the width broke runs on into the shorter rest below it.
    const title = blocksOf([centred('Adaptive Rate Limits for Batch Document Parsing in Practice', 100), centred('and in Theory', 112)]);
    expect(title.map((block) => block.text)).toEqual(['Adaptive Rate Limits for Batch Document Parsing in Practice and in Theory']);
    // Flush left, the same two short lines stop with room to spare for the next one's first word: apart too.
    const flush = blocksOf([item('Ada Byron, Charles Babbage', 50, 100), item('Analytical Engines Ltd, London', 50, 112)]);
    expect(flush.map((block) => block.text)).toEqual(['Ada Byron, Charles Babbage', 'Analytical Engines Ltd, London']);
    // A sentence broken by hand over two centred lines, going on in lower case: one paragraph.
    const notice = blocksOf([centred('This work is licensed under', 100), centred('a Creative Commons Attribution 3.0 Licence.', 112)]);
    expect(notice.map((block) => block.text)).toEqual(['This work is licensed under a Creative Commons Attribution 3.0 Licence.']);
  });

  it('reads notes set with a hanging indent one note a paragraph: the number out, its other lines set in', () => {
    const full = 'x'.repeat(56);
    const blocks = blocksOf([
      item(`25 William Beckford, An Arabian Tale ${'x'.repeat(19)}`, 50, 100),
      item(full, 64, 112),
      item('1786), 165.', 64, 124),
      item('27 A Collection of Voyages, 1:440.', 50, 136),
      item(`28 Coffee was a mild painkiller ${'x'.repeat(25)}`, 50, 148),
      item('for his migraines.', 64, 160),
    ]);
    expect(blocks.map((block) => block.text.split(' ')[0])).toEqual(['25', '27', '28']);
    expect(blocks[0]!.lines).toBe(3);
    expect(blocks[2]!.text.endsWith('for his migraines.')).toBe(true);
  });

  it("reads a manual's hanging-indent options one block each, and a heading set out in the margin apart", () => {
    // As groff sets a man page: section headings at the margin, text set in 3.6 em, each option's name at the
    // text's start and its description set in again; a short option shares its line with its description.
    const blocks = blocksOf([
      item('SYNOPSIS', 50, 100, { bold: true, size: 11 }),
      item('ls [OPTION]... [FILE]...', 86, 112, { bold: true }),
      item('DESCRIPTION', 50, 128, { bold: true, size: 11 }),
      item('-D, --dired', 86, 140, { bold: true }),
      item('generate output for dired', 122, 152),
      item('-f', 86, 164, { bold: true }),
      item('list all entries in directory order', 122, 164),
      item('--full-time', 86, 180, { bold: true }),
      item('like -l --time-style=full-iso', 122, 192),
      item('-g', 86, 204, { bold: true }),
      item('like -l, but do not list owner', 122, 204),
    ]);
    expect(blocks.map((block) => block.text)).toEqual([
      'SYNOPSIS',
      'ls [OPTION]... [FILE]...',
      'DESCRIPTION',
      '-D, --dired',
      'generate output for dired',
      '-f list all entries in directory order',
      '--full-time',
      'like -l --time-style=full-iso',
      '-g like -l, but do not list owner',
    ]);
  });

  it('keeps a line of bold terms that carries on the sentence above in its paragraph', () => {
    const blocks = blocksOf([
      item(`Sort entries alphabetically if none of ${'x'.repeat(21)}`, 50, 100),
      item('-cftuvSUX', 50, 112, { bold: true }),
      item('nor', 100, 112),
      item('--sort-order', 120, 112, { bold: true }),
      item('set.', 185, 112),
      item('Bold Heading After', 50, 124, { bold: true }),
    ]);
    expect(blocks.map((block) => block.text)).toEqual([
      `Sort entries alphabetically if none of ${'x'.repeat(21)} -cftuvSUX nor --sort-order set.`,
      'Bold Heading After',
    ]);
  });

  it('keeps a paragraph whose first line is set in far and runs to the edge whole', () => {
    const blocks = blocksOf([item('x'.repeat(56), 70, 100), item('y'.repeat(58), 50, 112), item('the end.', 50, 124)]);
    expect(blocks).toHaveLength(1);
  });

  it('types captions', () => {
    const blocks = blocksOf(paragraph(['Table 1. Results on the test set.'], 50, 100));
    expect(blocks[0]!.kind).toBe('caption');
  });
});

describe('buildBlocks: lines led out with dots', () => {
  it('keeps each line led to a page number or a price a block of its own', () => {
    const leader = '.'.repeat(30);
    const lines = [`Soup of the day ${leader} 4.50`, `Apple cake ${leader} £3.80`, `Tea or coffee ${leader} 2,10`, `Preface ${leader} xi`];
    const blocks = blocksOf(lines.map((text, i) => item(text, 50, 100 + 14 * i, { em: 0.15 })));
    expect(blocks.map((block) => block.text)).toEqual(lines);
  });
});

describe('buildBlocks: lists', () => {
  it('recognises bullets and enumerators', () => {
    expect(listMarker('• First point')).toEqual({ ordered: false, rest: 'First point', glyph: '•' });
    expect(listMarker('– dash item')?.ordered).toBe(false);
    expect(listMarker('* star item')?.ordered).toBe(false);
    expect(listMarker('1. First')).toEqual({ ordered: true, number: 1, rest: 'First' });
    expect(listMarker('2) Second')).toMatchObject({ ordered: true, number: 2 });
    expect(listMarker('a) letter')?.ordered).toBe(true);
    expect(listMarker('iv. roman')?.ordered).toBe(true);
    expect(listMarker('5.1 Hyper Parameter Optimization')).toBeNull();
    expect(listMarker('2019. A year is not an item')).toBeNull();
    expect(listMarker('-3 dB')).toBeNull();
    // A telephone number's area code in brackets numbers no item; an item is never numbered with a leading zero.
    expect(listMarker('(000) 000 000')).toBeNull();
    expect(listMarker('(020) 7946 0018')).toBeNull();
    expect(listMarker('(10) Tenth')).toMatchObject({ ordered: true, number: 10 });
  });

  it('turns bullet lines into one list block with continuation lines joined', () => {
    const blocks = blocksOf([
      item('• Revenue grew in three of four', 50, 100),
      item('regions this year', 60, 112),
      item('• Two plants opened', 50, 124),
    ]);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.kind).toBe('list');
    expect(blocks[0]!.markdown).toBe('- Revenue grew in three of four regions this year\n- Two plants opened');
  });

  it('reads a bullet its font maps to no character (a control or private-use code) as a bullet', () => {
    // LaTeX's itemize bullet in a Type 3 bitmap font reads as U+0088; Word's Symbol bullet without a map as U+F0B7.
    const blocks = blocksOf([
      item('\u0088', 50, 100, { width: 5 }),
      item('Portable Document Format, with or without a text layer;', 61, 100),
      item('\uf0b7', 50, 114, { width: 5 }),
      item('web pages saved as HTML.', 61, 114),
    ]);
    expect(blocks.map((block) => block.markdown)).toEqual(['- Portable Document Format, with or without a text layer;\n- web pages saved as HTML.']);
    expect(listMarker('\u0005 stray code in a sentence')?.ordered).toBe(false);
    expect(listMarker('the\u0005 Lagrange equation')).toBeNull();
  });

  it('numbers ordered items and starts a new list when bullets turn into numbers', () => {
    const blocks = blocksOf([
      item('• a bullet', 50, 100),
      item('1. Expand the plant', 50, 114),
      item('2. Hire engineers', 50, 128),
    ]);
    expect(blocks.map((block) => block.markdown)).toEqual(['- a bullet', '1. Expand the plant\n2. Hire engineers']);
  });

  it('keeps letter and roman enumerators as the document writes them (Markdown numbers in digits only) and nests indented items', () => {
    const blocks = blocksOf([
      item('1. Parent item', 50, 100),
      item('a) child one', 70, 112),
      item('b) child two', 70, 124),
      item('2. Next parent', 50, 136),
    ]);
    expect(blocks[0]!.markdown).toBe('1. Parent item\n   - a) child one\n   - b) child two\n2. Next parent');
  });

  it('keeps a roman enumerator in parentheses whole', () => {
    const blocks = blocksOf([item('(iv) the fourth', 50, 100), item('(v) the fifth', 50, 114)]);
    expect(blocks[0]!.markdown).toBe('- (iv) the fourth\n- (v) the fifth');
  });

  it('keeps a number before a parenthesis or in parentheses as written, where Markdown would write it `1.`', () => {
    // A Korean document's levels: `1)` under `가.`, `(1)` under `1)`.
    const blocks = blocksOf([item('(1) 증명서 50종을 전자 문서로 발급한다.', 50, 100), item('(2) 전자지갑에 보관하여 제출할 수 있다.', 50, 114)]);
    expect(blocks[0]!.markdown).toBe('- (1) 증명서 50종을 전자 문서로 발급한다.\n- (2) 전자지갑에 보관하여 제출할 수 있다.');
    expect(listMarker('2) Second')).toEqual({ ordered: true, number: 2, label: '2)', rest: 'Second' });
  });

  it('does not take a numbered sentence continuation for a list item', () => {
    const blocks = blocksOf(paragraph([`${words(9)} in Section`, '2. We then describe the method in detail'], 50, 100));
    expect(blocks.map((block) => block.kind)).toEqual(['paragraph']);
  });
});

describe('buildBlocks: code and formulas', () => {
  it('makes a fenced code block of monospaced lines, keeping indentation', () => {
    const mono = { mono: true, em: 0.6 };
    const blocks = blocksOf([
      item('function total(values) {', 50, 100, mono),
      item('return values.length;', 62, 112, mono),
      item('}', 50, 124, mono),
    ]);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.kind).toBe('code');
    expect(blocks[0]!.markdown).toBe('```\nfunction total(values) {\n  return values.length;\n}\n```');
  });

  it('makes a code block of two monospaced shell commands', () => {
    const mono = { mono: true };
    const blocks = blocksOf([item('npm install -g docmill', 60, 100, mono), item('docmill run ./archive --out ./markdown', 60, 112, mono)]);
    expect(blocks.map((block) => block.markdown)).toEqual(['```\nnpm install -g docmill\ndocmill run ./archive --out ./markdown\n```']);
  });

  it('does not make code of a few monospaced e-mail addresses', () => {
    const mono = { mono: true };
    const blocks = blocksOf([item('ana@example.org', 120, 100, mono), item('bo@example.org', 120, 112, mono)]);
    expect(blocks[0]!.kind).toBe('paragraph');
  });

  it('recognises display formulas conservatively', () => {
    expect(looksLikeFormula('E = mc^2', 40, 300)).toBe(true);
    expect(looksLikeFormula('∑ x_i ≤ n', 40, 300)).toBe(true);
    expect(looksLikeFormula('The value is equal = to the other value', 200, 300)).toBe(false);
    expect(looksLikeFormula('no symbols here', 40, 300)).toBe(false);
    // Korean words of two syllables are words of prose: a phrase with a comparison sign is no formula.
    expect(looksLikeFormula('지역 인구 > 전국 평균', 100, 300)).toBe(false);
    // A command-line option given its value is a manual's term, not mathematics; an equation of letters stays one.
    expect(looksLikeFormula('--parallel=N', 60, 300)).toBe(false);
    expect(looksLikeFormula('-fp-s=FORMAT', 60, 300)).toBe(false);
    expect(looksLikeFormula('y=ax+b', 40, 300)).toBe(true);
  });

  it('makes a caption of a Korean figure label in angle brackets, not a formula', () => {
    const blocks = blocksOf([item('<그림 1> 지역 균형발전 추진 체계', 150, 100, { width: 160 })]);
    expect(blocks.map((block) => block.kind)).toEqual(['caption']);
  });
});

describe('label lines', () => {
  it('keeps "Label: value" lines one per line', () => {
    const labels = ['Report ID: INV-2024-0042', 'Warehouse: North Depot', 'Prepared By: J. Smith'];
    expect(blocksOf(paragraph(labels, 50, 100, 14)).map((block) => block.text)).toEqual(labels);
  });

  it('still joins a paragraph whose lines only start like a label', () => {
    const lines = [`Note: ${words(10)}`, `Also: ${words(12, 3)}`];
    expect(blocksOf(paragraph(lines, 50, 100, 12))).toHaveLength(1);
  });
});

describe('a note led by an asterisk', () => {
  it('is text that keeps its mark, not a list of one item', () => {
    const blocks = blocksOf([item('Results were checked twice.', 50, 100), item('* Estimated from a subset of 500 items.', 50, 130)]);
    expect(blocks.map((block) => [block.kind, block.markdown])).toEqual([
      ['paragraph', 'Results were checked twice.'],
      ['paragraph', '\\* Estimated from a subset of 500 items.'],
    ]);
  });

  it('leaves a list of asterisk bullets a list', () => {
    const blocks = blocksOf([item('* First point', 50, 100), item('* Second point', 50, 114)]);
    expect(blocks.map((block) => block.kind)).toEqual(['list']);
  });
});
