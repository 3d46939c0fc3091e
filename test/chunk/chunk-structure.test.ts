/**
 * Chunk boundaries on small hand-made parse results: sections, tables split between rows with their header
 * repeated, lists and code blocks kept whole where they fit, oversized units cut by sentences, words and
 * characters, page markers and furniture kept out, overlap, and ids.
 */
import { describe, expect, it } from 'vitest';
import { chunk, type Chunk } from '../../src/chunk/chunk.js';
import { countTokens } from '../../src/chunk/tokens.js';
import type { ParseData } from '../../src/contract/response.js';
import { seededRandom } from '../engine/mutations/mutate.js';

const md = (markdown: string, extra: Partial<ParseData> = {}): ParseData => ({ markdown, ...extra });

/** The invariants every chunk keeps, whatever the input. */
function expectSound(data: ParseData, chunks: Chunk[], maxTokens: number): void {
  const markdown = data.markdown ?? '';
  for (const c of chunks) {
    expect(c.text.slice(c.headerChars)).toBe(markdown.slice(c.charStart, c.charEnd));
    expect(c.tokens).toBe(countTokens(c.text));
    expect(c.tokens).toBeLessThanOrEqual(maxTokens);
    expect(c.text).not.toMatch(/<!--\s*page/);
    expect(c.text.trim()).toBe(c.text);
  }
}

const sentence = (n: number) => `Sentence number ${n} talks about the warehouse inventory for the quarter.`;
const paragraph = (from: number, count: number) => Array.from({ length: count }, (_, i) => sentence(from + i)).join(' ');

describe('chunk boundaries', () => {
  it('keeps each section apart and gives each chunk the titles above it', () => {
    const data = md('# Annual report\n\nIntro text.\n\n## Revenue\n\nRevenue grew.\n\n### By region\n\nNorth did well.\n\n## Costs\n\nCosts fell.');
    const chunks = chunk(data, { maxTokens: 512 });
    expect(chunks.map((c) => c.text)).toEqual([
      '# Annual report\n\nIntro text.',
      '## Revenue\n\nRevenue grew.',
      '### By region\n\nNorth did well.',
      '## Costs\n\nCosts fell.',
    ]);
    expect(chunks.map((c) => c.headingPath)).toEqual([
      ['Annual report'],
      ['Annual report', 'Revenue'],
      ['Annual report', 'Revenue', 'By region'],
      ['Annual report', 'Costs'],
    ]);
    expectSound(data, chunks, 512);
  });

  it('keeps a heading with no text of its own with the section that follows, never alone', () => {
    const data = md('# Guide\n\n## Part **One** [link](http://x) _two_\n\n### Setup of snake_case_name.html\n\nInstall it.');
    const chunks = chunk(data);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.headingPath).toEqual(['Guide', 'Part One link two', 'Setup of snake_case_name.html']);
    expect(chunks[0]!.text).toBe(data.markdown);
  });

  it('reads a heading\'s characters written as references as the characters (a `<` that could open markup)', () => {
    const data = md('# Results\n\n## The &lt;Table 2> scores &amp; their &#8804; bounds\n\nThe scores follow.');
    expect(chunk(data)[0]!.headingPath).toEqual(['Results', 'The <Table 2> scores & their ≤ bounds']);
  });

  it('splits a long table between rows and repeats its header row in each following chunk', () => {
    const rows = Array.from({ length: 60 }, (_, i) => `| item ${i} | ${i * 3} | warehouse ${i % 4} |`);
    const header = '| Item | Count | Location |\n| --- | --- | --- |';
    const data = md(`## Stock\n\n${header}\n${rows.join('\n')}\n\nAfter the table.`);
    const chunks = chunk(data, { maxTokens: 120 });
    expect(chunks.length).toBeGreaterThan(3);
    expectSound(data, chunks, 120);
    const tableChunks = chunks.filter((c) => c.text.includes('| item'));
    for (const [index, c] of tableChunks.entries()) {
      // Whole rows only: every line of the chunk's own slice is a complete row (or the heading / the header).
      for (const line of data.markdown!.slice(c.charStart, c.charEnd).split('\n')) {
        if (line.startsWith('|')) expect(line).toMatch(/^\| .* \|$/);
      }
      if (index > 0) {
        expect(c.headerChars).toBe(header.length + 1);
        expect(c.text.startsWith(`${header}\n| item `)).toBe(true);
      }
    }
    expect(tableChunks[0]!.headerChars).toBe(0);
    // Every row is in exactly one chunk (no overlap asked).
    for (const row of rows) expect(chunks.filter((c) => c.text.includes(`${row}`)).length).toBe(1);
  });

  it('moves a list or a code block that fits a chunk to the next chunk rather than cutting it', () => {
    const list = Array.from({ length: 8 }, (_, i) => `- step ${i}: check the valve pressure`).join('\n');
    const code = '```js\n' + Array.from({ length: 8 }, (_, i) => `const value${i} = compute(${i});`).join('\n') + '\n```';
    const data = md(`## Procedure\n\n${paragraph(1, 4)}\n\n${list}\n\n${paragraph(10, 4)}\n\n${code}`);
    const maxTokens = 90;
    const chunks = chunk(data, { maxTokens });
    expectSound(data, chunks, maxTokens);
    expect(countTokens(list)).toBeLessThanOrEqual(maxTokens);
    expect(chunks.filter((c) => c.text.includes(list))).toHaveLength(1);
    expect(chunks.filter((c) => c.text.includes(code))).toHaveLength(1);
  });

  it('cuts a list too long for one chunk between items', () => {
    const items = Array.from({ length: 40 }, (_, i) => `${i + 1}. Item ${i + 1} of the checklist\n   with a second line`);
    const data = md(items.join('\n'));
    const chunks = chunk(data, { maxTokens: 60 });
    expectSound(data, chunks, 60);
    for (const c of chunks) expect(c.text).toMatch(/^\d+\. Item \d+ of the checklist\n {3}with a second line/);
    for (const c of chunks) expect(c.text.endsWith('with a second line')).toBe(true);
  });

  it('cuts a paragraph over the budget by sentences, a sentence by words, a word by characters', () => {
    const longSentence = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ') + '.';
    const longWord = 'x'.repeat(3000);
    const data = md(`${paragraph(1, 30)}\n\n${longSentence}\n\n${longWord}`);
    const maxTokens = 50;
    const chunks = chunk(data, { maxTokens });
    expectSound(data, chunks, maxTokens);
    // Sentence-cut chunks start at a sentence start.
    const first = chunks.filter((c) => c.text.includes('Sentence number'));
    for (const c of first) expect(c.text).toMatch(/^Sentence number \d+ /);
    // Everything but the word with no spaces is cut at spaces: no chunk starts or ends inside a word.
    const markdown = data.markdown!;
    for (const c of chunks.filter((c) => !c.text.startsWith('x'))) {
      expect(c.charStart === 0 || /\s/.test(markdown[c.charStart - 1]!)).toBe(true);
      expect(c.charEnd === markdown.length || /\s/.test(markdown[c.charEnd]!)).toBe(true);
    }
    expect(chunks.filter((c) => c.text.includes('word')).length).toBeGreaterThan(2);
    // The word with no spaces is cut by characters and every x is in a chunk.
    const xs = chunks.filter((c) => /^x+$/.test(c.text));
    expect(xs.length).toBeGreaterThan(1);
    expect(xs.reduce((sum, c) => sum + c.text.length, 0)).toBe(3000);
  });

  it('keeps page markers and furniture out of every chunk, and pages from the markers', () => {
    const markdown = `# Report\n\nPage one text.\n\n---\n\n<!-- page 2 -->\n\nACME CONFIDENTIAL\n\nPage two text.\n\n---\n\n<!-- page 3 -->\n\nPage three text.`;
    const furnitureStart = markdown.indexOf('ACME');
    const data = md(markdown, {
      blocks: [
        { pageNumber: 2, status: 'ok', items: [{ id: 'p2.b0', type: 'page_header', content: 'ACME CONFIDENTIAL', readingOrder: 0, markdownSpan: [furnitureStart, furnitureStart + 17] }] },
      ],
    });
    const chunks = chunk(data);
    expectSound(data, chunks, 512);
    expect(chunks.map((c) => [c.text, c.pageStart, c.pageEnd])).toEqual([
      ['# Report\n\nPage one text.', 1, 1],
      ['Page two text.', 2, 2],
      ['Page three text.', 3, 3],
    ]);
    expect(chunks.every((c) => c.headingPath[0] === 'Report')).toBe(true);
  });

  it('reads page markers in Markdown with CRLF line ends too', () => {
    const data = md('One.\r\n\r\n---\r\n\r\n<!-- page 2 -->\r\n\r\nTwo.');
    const chunks = chunk(data);
    expectSound(data, chunks, 512);
    expect(chunks.map((c) => [c.text, c.pageStart])).toEqual([['One.', 1], ['Two.', 2]]);
  });

  it('takes pages and blocks from markdownSpans, and pages from per-page Markdown when that is all there is', () => {
    const markdown = '# Title\n\nFirst page words.\n\nSecond page words.';
    const second = markdown.indexOf('Second');
    const withBlocks = md(markdown, {
      blocks: [
        { pageNumber: 1, status: 'ok', items: [{ id: 'p1.b0', type: 'title', content: '# Title', readingOrder: 0, bbox: [0.1, 0.1, 0.9, 0.2], markdownSpan: [0, 7] }, { id: 'p1.b1', type: 'text', content: 'First page words.', readingOrder: 1, bbox: [0.1, 0.3, 0.9, 0.4], markdownSpan: [9, 26] }] },
        { pageNumber: 2, status: 'ok', items: [{ id: 'p2.b0', type: 'text', content: 'Second page words.', readingOrder: 0, bbox: null, markdownSpan: [second, markdown.length] }] },
      ],
    });
    const [only] = chunk(withBlocks);
    expect(only).toMatchObject({ pageStart: 1, pageEnd: 2 });
    expect(only!.blocks).toEqual([
      { id: 'p1.b0', page: 1, bbox: [0.1, 0.1, 0.9, 0.2], type: 'title' },
      { id: 'p1.b1', page: 1, bbox: [0.1, 0.3, 0.9, 0.4], type: 'text' },
      { id: 'p2.b0', page: 2, bbox: null, type: 'text' },
    ]);
    const small = chunk(withBlocks, { maxTokens: 6 });
    expect(small.find((c) => c.text.includes('Second'))).toMatchObject({ pageStart: 2, pageEnd: 2 });

    const withPages = md(markdown, { pages: [{ pageNumber: 1, markdown: '# Title\n\nFirst page words.' }, { pageNumber: 2, markdown: 'Second page words.' }] });
    expect(chunk(withPages, { maxTokens: 6 }).find((c) => c.text.includes('Second'))).toMatchObject({ pageStart: 2, blocks: [] });

    // Markdown alone (an HTML page from a remote API): no page information at all, unless it has one page.
    expect(chunk(md(markdown))[0]).toMatchObject({ pageStart: null, pageEnd: null, blocks: [] });
    expect(chunk(md(markdown, { metadata: { numPages: 1 } }))[0]).toMatchObject({ pageStart: 1, pageEnd: 1 });
  });

  it('with overlap, starts each chunk inside the previous one of its section, at a word start, within the budget', () => {
    const data = md(`## One\n\n${paragraph(1, 20)}\n\n## Two\n\n${paragraph(40, 20)}`);
    const chunks = chunk(data, { maxTokens: 80, overlapTokens: 20 });
    expectSound(data, chunks, 80);
    let overlaps = 0;
    for (let i = 1; i < chunks.length; i++) {
      const [before, after] = [chunks[i - 1]!, chunks[i]!];
      if (before.headingPath.join() !== after.headingPath.join()) {
        expect(after.charStart).toBeGreaterThanOrEqual(before.charEnd);
        continue;
      }
      expect(after.charStart).toBeLessThan(before.charEnd);
      expect(/\s/.test(data.markdown![after.charStart - 1]!)).toBe(true);
      expect(countTokens(data.markdown!.slice(after.charStart, before.charEnd))).toBeLessThanOrEqual(20);
      overlaps++;
    }
    expect(overlaps).toBeGreaterThan(2);
  });

  it('gives ids that are the same on a rerun and differ by source, offsets and text', () => {
    const data = md(`## A\n\n${paragraph(1, 30)}`);
    const source = { path: 'a/report.pdf', sha256: 'a'.repeat(64) };
    const first = chunk(data, { maxTokens: 60, source });
    const again = chunk(structuredClone(data), { maxTokens: 60, source });
    expect(again.map((c) => c.id)).toEqual(first.map((c) => c.id));
    expect(new Set(first.map((c) => c.id)).size).toBe(first.length);
    expect(first.every((c) => /^[0-9a-f]{32}$/.test(c.id) && c.source === source)).toBe(true);
    const elsewhere = chunk(data, { maxTokens: 60, source: { ...source, path: 'b/report.pdf' } });
    expect(elsewhere.map((c) => c.id).filter((id) => first.some((c) => c.id === id))).toEqual([]);
    expect(chunk(data, { maxTokens: 60 })[0]!.source).toBeNull();
  });

  it('cuts a table of 30,000 rows and a 200 kB run without spaces, every row and character in a chunk', () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => `| ${i} | part-${i} | ${(i * 7) % 1000} |`);
    const blob = 'QUJD'.repeat(50_000);
    const data = md(`| n | part | qty |\n| - | - | - |\n${rows.join('\n')}\n\n${blob}`);
    const chunks = chunk(data, { maxTokens: 256 });
    expectSound(data, chunks, 256);
    const tableChunks = chunks.filter((c) => c.text.startsWith('| n | part | qty |'));
    expect(tableChunks.length).toBeGreaterThan(100);
    expect(tableChunks.slice(1).every((c) => c.headerChars === '| n | part | qty |\n| - | - | - |\n'.length)).toBe(true);
    const rowCount = tableChunks.reduce((sum, c) => sum + data.markdown!.slice(c.charStart, c.charEnd).split('\n').filter((line) => /^\| \d+ \|/.test(line)).length, 0);
    expect(rowCount).toBe(30_000);
    expect(chunks.filter((c) => c.text.startsWith('QUJD')).reduce((sum, c) => sum + c.text.length, 0)).toBe(blob.length);
  });

  it('counts special-token spellings as text and refuses budgets it cannot keep', () => {
    const data = md('Model output ended with <|endoftext|> here.');
    expect(chunk(data)[0]!.text).toBe(data.markdown);
    expect(() => chunk(data, { maxTokens: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_SETTING' }));
    expect(() => chunk(data, { maxTokens: 10, overlapTokens: 10 })).toThrow(expect.objectContaining({ code: 'INVALID_SETTING' }));
    expect(chunk(md(''))).toEqual([]);
    expect(chunk({})).toEqual([]);
  });
});

describe('pictures of a chunk', () => {
  it('lists the pictures its text shows, each once, in order; none for a chunk without one or for data: URIs', () => {
    const data = md(
      '# Revenue\n\n![Figure 2: Revenue by region](report.pdf.assets/p2-figure-2.png)\n\nNorth led.\n\n![](report.pdf.assets/p1-figure-1.png)\n\n' +
        '![logo again](<report.pdf.assets/p1-figure-1.png> "Logo")\n\n# Costs\n\nCosts fell. ![](data:image/png;base64,iVBORw0KGgo=) ![a \\] b](https://example.com/c.png)\n\n# Notes\n\nNone.',
    );
    const chunks = chunk(data, { maxTokens: 512 });
    expect(chunks.map((c) => c.images)).toEqual([
      ['report.pdf.assets/p2-figure-2.png', 'report.pdf.assets/p1-figure-1.png'],
      ['https://example.com/c.png'],
      undefined,
    ]);
  });
});

describe('token counts', () => {
  // Units ending in letters, digits and runs of punctuation (which cl100k_base joins to the newlines after them),
  // tables, lists indented and not, CRLF and blank lines holding spaces between them, letters outside the BMP.
  const PIECES = [
    'Revenue grew by 12%.',
    'See the notes...',
    'Ends with a word',
    'Costs: 1,234.56',
    '| Region | Sales |\n| --- | --- |\n| North | 1 |\n| South | 2 |',
    '- first item\n- second item!\n  - nested item?',
    '1. step one\n2. step two',
    '```\ncode();\n```',
    '> quoted line —',
    'Emoji at the end 🙂',
    'Math 𝐀𝐁𝐂',
    '***',
    '# Heading',
    '## Sub heading',
    "It's",
    'Hangul 한국어 문장입니다.',
    'Really ?',
    'Wait for it !',
    'Totals :',
    'Will they hire more staff in the next two months across sectors and survey phases (%)',
    'A long sentence that goes on with many words, so that small budgets cut it between its words -- !',
  ];
  const GAPS = ['\n\n', '\n', '\r\n\r\n', '\n  \n', '\n\n\n', ' \n\n'];

  it('gives every chunk the exact count of its text, however its units end and are separated', () => {
    for (let seed = 1; seed <= 60; seed++) {
      // Seeded, so a failure names a document that can be made again.
      const random = seededRandom(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
      const parts: string[] = [];
      for (let i = 0; i < 40; i++) parts.push(pick(PIECES), pick(GAPS));
      const data = md(parts.join('').trim());
      for (const [maxTokens, overlapTokens] of [[12, 0], [24, 0], [32, 8], [40, 8], [96, 16]] as const) {
        const chunks = chunk(data, { maxTokens, overlapTokens });
        expect(chunks.length, `seed ${seed}`).toBeGreaterThan(0);
        for (const c of chunks) expect(c.tokens, `seed ${seed}, ${maxTokens}/${overlapTokens}: ${JSON.stringify(c.text)}`).toBe(countTokens(c.text));
      }
    }
  });
});
