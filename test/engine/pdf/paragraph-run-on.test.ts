/**
 * Paragraphs broken by a page or a column break: each part keeps its block (each page its Markdown), and the
 * Markdown reads the sentence on with a space (no page marker between the parts); generated PDFs through the local
 * engine.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOptions } from '../../../src/backend/upload-checks.js';
import type { ParseData } from '../../../src/contract/response.js';
import { LocalParseEngine } from '../../../src/engine/local-engine.js';
import { blocksRunningOn, runOf, runsOn } from '../../../src/engine/pdf/paragraph-run-on.js';
import type { ProtoBlock } from '../../../src/engine/pdf/types.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { words } from './synthetic.js';

function block(text: string, overrides: Partial<ProtoBlock> = {}): ProtoBlock {
  return { kind: 'paragraph', markdown: text, text, rect: { x0: 72, y0: 600, x1: 540, y1: 700 }, lines: 3, size: 11, bold: false, chars: text.length, ...overrides };
}

describe('runsOn', () => {
  const none = new Set<ProtoBlock>();

  it('carries a sentence cut by the page break on to the lower-case text of the next page', () => {
    expect(runsOn(block('and the cache is kept in'), block('memory until the run ends.'), none)).toBe(true);
    expect(runsOn(block('the figures for 2025,'), block('and those for 2026 below.'), none)).toBe(true);
  });

  it('carries Korean text on where its last word ends in a particle or a connective ending, not past a sentence', () => {
    expect(runsOn(block('학습 기반 기법은 주석이 달린 문서 이미지로 모델을'), block('학습한다. 표 1은 대표적인 공개 데이터셋이다.'), none)).toBe(true);
    expect(runsOn(block('처리 속도가 빠르고 학습 데이터가 필요하지 않다는 장점이 있으나,'), block('문서 양식이 다양할수록 어렵다.'), none)).toBe(true);
    expect(runsOn(block('제안 기법이 기존 기법보다 우수함을 실험으로 보였다.'), block('본 논문의 구성은 다음과 같다.'), none)).toBe(false);
    expect(runsOn(block('지역 산업 기반의 약화로 일자리 창출 여력이 감소'), block('제조업 중심 지역의 고용률이 낮음'), none)).toBe(false);
  });

  it('does not carry on past an ended sentence, a broken word, a heading, another size or weight, or a lone line', () => {
    const below = block('memory until the run ends.');
    expect(runsOn(block('The cache is kept.'), below, none)).toBe(false);
    expect(runsOn(block('Steps to take:'), below, none)).toBe(false);
    expect(runsOn(block('a word broken at the trans-'), block('formation'), none)).toBe(false);
    expect(runsOn(block('and the cache is kept in'), block('Memory until the run ends.'), none)).toBe(false);
    expect(runsOn(block('and the cache is kept in'), block('memory', { size: 16 }), none)).toBe(false);
    expect(runsOn(block('and the cache is kept in'), block('memory', { bold: true }), none)).toBe(false);
    expect(runsOn(block('or', { lines: 1, rect: { x0: 72, y0: 600, x1: 84, y1: 612 } }), below, none)).toBe(false);
    expect(runsOn(block('and the cache is kept in', { kind: 'table' }), below, none)).toBe(false);
    const heading = block('results and their limits');
    expect(runsOn(block('and the cache is kept in'), heading, new Set([heading]))).toBe(false);
  });

  it('carries on a paragraph whose first line, filled to the width of the column, is all of it at the foot of the column', () => {
    const below = block('memory until the run ends, and then written to disk.', { rect: { x0: 320, y0: 72, x1: 540, y1: 120 } });
    const filled = { lines: 1, rect: { x0: 72, y0: 700, x1: 285, y1: 712 } };
    expect(runsOn(block('The cache is built at the start and kept in', filled), below, none)).toBe(true);
    // A short lone line is a fragment of its own; nor does a filled line run on into a lone line.
    expect(runsOn(block('See also', { lines: 1, rect: { x0: 72, y0: 700, x1: 120, y1: 712 } }), below, none)).toBe(false);
    expect(runsOn(block('The cache is built at the start and kept in', filled), block('memory.', { lines: 1, rect: below.rect }), none)).toBe(false);
  });

  it('carries a word broken at the break on with no space, its hyphen kept (each part keeps its text)', () => {
    expect(runOf(block('the harbour board met on Tues-'), block('day to discuss the timetable.'), none)).toBe('word');
    expect(runOf(block('The harbour board met on Tues-', { lines: 1 }), block('day to discuss the timetable.'), none)).toBe('word');
    expect(runOf(block('and the cache is kept in'), block('memory until the run ends.'), none)).toBe('sentence');
    expect(runOf(block('the years 2025-'), block('and after'), none)).toBeUndefined();
    expect(runOf(block('on Tues-'), block('Day two begins'), none)).toBeUndefined();
  });

  it('carries a paragraph on from the foot of a column to the head of the next, not down one column', () => {
    const foot = block('and the cache is kept in', { rect: { x0: 72, y0: 600, x1: 300, y1: 700 } });
    const head = block('memory until the run ends.', { rect: { x0: 312, y0: 80, x1: 540, y1: 200 } });
    const below = block('memory until the run ends.', { rect: { x0: 72, y0: 710, x1: 300, y1: 740 } });
    expect(blocksRunningOn([{ pageNumber: 1, blocks: [foot, head] }], new Set())).toEqual(new Map([[head, 'sentence']]));
    expect(blocksRunningOn([{ pageNumber: 1, blocks: [foot, below] }], new Set()).size).toBe(0);
  });

  it('only joins pages that follow each other', () => {
    const above = block('and the cache is kept in');
    const below = block('memory until the run ends.');
    expect(blocksRunningOn([{ pageNumber: 1, blocks: [above] }, { pageNumber: 2, blocks: [below] }], new Set())).toEqual(new Map([[below, 'sentence']]));
    expect(blocksRunningOn([{ pageNumber: 1, blocks: [above] }, { pageNumber: 3, blocks: [below] }], new Set()).size).toBe(0);
  });
});

const LINE = 14;
/** Lines of about the column's width in 11 pt Helvetica. */
const PAGES = [
  [
    'A long paragraph about the cache starts on the first page and goes on for',
    'a while, as paragraphs in reports do, until the bottom margin ends the page',
    'in the middle of its sentence, where the reader turns to the rest of the cache',
  ],
  [
    'settings on the next page, which then ends the paragraph with a full stop and',
    'carries on with more words about the cache, some of them on this second page',
    'and the rest of them on the same page too, where the paragraph ends at last.',
  ],
  [
    'A new paragraph opens the third page in a capital letter, and nothing is joined',
    'to it at all, for the paragraph before it ended with its sentence on the page',
    'before. Its third line ends here.',
  ],
];

async function brokenParagraphPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  PAGES.forEach((lines, index) => {
    const page = pdf.addPage([612, 792]);
    // The parts sit at the page's foot and head, the page number below the first.
    const top = index === 0 ? 120 + LINE * lines.length : 720;
    lines.forEach((line, i) => page.drawText(line, { x: 72, y: top - i * LINE, size: 11, font }));
    page.drawText(String(index + 1), { x: 303, y: 40, size: 9, font });
  });
  return pdf.save();
}

describe('a paragraph broken by the page break, through the local engine', () => {
  let engine: LocalParseEngine;
  let bytes: Uint8Array;
  beforeAll(async () => {
    engine = new LocalParseEngine({ size: 1 });
    bytes = await brokenParagraphPdf();
  });
  afterAll(async () => {
    await engine.close();
  });

  const parse = (extra: Record<string, unknown>, onlyMainContent = true): Promise<ParseData> =>
    engine.parseBytes(bytes, 'cache.pdf', checkOptions({ onlyMainContent, parsers: [{ type: 'pdf', pages: true, blocks: true, ...extra }] }));

  it('reads the sentence on across the break in the document Markdown, each page keeping its part', async () => {
    const data = await parse({});
    expect(data.markdown).toContain('the rest of the cache settings on the next page');
    expect(data.markdown).toContain('ends at last.\n\nA new paragraph opens the third page');
    expect(data.pages!.map((page) => page.markdown)).toEqual([
      expect.stringMatching(/the rest of the cache$/),
      expect.stringMatching(/^settings on the next page.*ends at last\.$/),
      expect.stringMatching(/^A new paragraph/),
    ]);
    for (const page of data.blocks!) {
      for (const item of page.items) if (item.markdownSpan) expect(data.markdown!.slice(...item.markdownSpan)).toBe(item.content);
    }
  });

  it('puts no page marker inside the sentence, and marks the page that starts afresh', async () => {
    const data = await parse({ pageMarkers: true });
    expect(data.markdown).toContain('the rest of the cache settings on the next page');
    expect(data.markdown).not.toContain('<!-- page 2 -->');
    expect(data.markdown).toContain('ends at last.\n\n---\n\n<!-- page 3 -->\n\nA new paragraph');
  });

  it('reads a paragraph on from the foot of the left column to the head of the right one', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([612, 792]);
    const column = (lines: string[], x: number, top: number) =>
      lines.forEach((line, i) => page.drawText(line, { x, y: top - i * 13, size: 10, font }));
    const left = Array.from({ length: 40 }, (_, i) => `left column line ${i + 1} of the text about`);
    const right = ['ducks, which carries on here at the top', ...Array.from({ length: 39 }, (_, i) => `right column line ${i + 2} about birds.`)];
    column(left, 56, 740);
    column(right, 320, 740);
    const data = await engine.parseBytes(await pdf.save(), 'columns.pdf', checkOptions({ parsers: [{ type: 'pdf', pages: true, blocks: true }] }));
    expect(data.markdown).toContain('left column line 40 of the text about ducks, which carries on here');
    expect(data.pages![0]!.markdown).toBe(data.markdown);
    const texts = data.blocks![0]!.items.filter((item) => item.markdownSpan);
    expect(texts.length).toBeGreaterThanOrEqual(2);
    for (const item of texts) expect(data.markdown!.slice(...item.markdownSpan!)).toBe(item.content);
  });

  it('keeps the parts apart when the page number is written between them (onlyMainContent off)', async () => {
    const data = await parse({}, false);
    expect(data.markdown).toContain('the rest of the cache\n\n1\n\nsettings on the next page');
  });
});

/**
 * A newsletter page: its name in display type across the page, an issue line centred under it (inside the middle
 * column's width), then three columns of 9-pt text, the second ending on a word its hyphen cuts.
 */
function newsletterPdf(): Uint8Array {
  const runs: TextRun[] = [
    { x: 151, y: 740, text: 'Harbour News and Notes', size: 24, font: 'bold' },
    { x: 237, y: 716, text: 'Issue 42 Spring 2026', size: 12 },
  ];
  const column = (x: number, lines: string[]) => lines.forEach((text, i) => runs.push({ x, y: 680 - 11 * i, text, size: 9 }));
  const filler = (seed: number) => Array.from({ length: 14 }, (_, i) => words(5, seed + i));
  column(43, [...filler(0), 'and the last line of it ends.']);
  column(225, ['A second story opens here and', ...filler(20), 'The harbour board met on Tues-']);
  column(407, ['day to discuss the ferry timetable.', ...filler(40)]);
  return writePdf({ pages: [{ runs }] });
}

describe('a newsletter in three columns, through the local engine', () => {
  let engine: LocalParseEngine;
  beforeAll(() => {
    engine = new LocalParseEngine({ size: 1 });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('reads the issue line under the name, and a word cut at the foot of a column on at the head of the next', async () => {
    const data = await engine.parseBytes(newsletterPdf(), 'news.pdf', checkOptions({ parsers: [{ type: 'pdf', blocks: true }] }));
    const markdown = data.markdown ?? '';
    // The issue line right under the name, before the first column's text (not inside the second column's).
    expect(markdown.indexOf('Issue 42 Spring 2026')).toBeLessThan(markdown.indexOf(words(5, 0)));
    expect(markdown).toContain('The harbour board met on Tues-day to discuss the ferry timetable.');
    // Each block keeps its own text, and its span slices it out of the document.
    const blocks = (data.blocks ?? []).flatMap((page) => page.items);
    const cut = blocks.find((block) => block.content.endsWith('Tues-'))!;
    expect(markdown.slice(...cut.markdownSpan!)).toBe(cut.content);
  });
});
