/** The PDF converter on the shared corpus (test/fixtures/corpus/pdf). */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { terminateOcrWorkers } from '../../../src/engine/pdf/ocr/tesseract.js';
import { allBlocks, convertBytes, corpusBytes, mainMarkdown, PDF_CORPUS, rejectionOf } from './helpers.js';

const VALID = [
  { name: '2305.03393v1-pg9.pdf', pages: 1 },
  { name: 'code_and_formula.pdf', pages: 2 },
  { name: 'korean-text-with-tables.pdf', pages: 1 },
  { name: 'multi-column-2p.pdf', pages: 2 },
  { name: 'right_to_left_01.pdf', pages: 1 },
];

/** Whitespace-insensitive position of a sentence in the Markdown. */
function position(markdown: string, sentence: string): number {
  return markdown.replace(/\s+/g, ' ').indexOf(sentence);
}


// The scans read by OCR start this process's tesseract worker: end it, so the test process exits cleanly.
afterAll(() => terminateOcrWorkers());
describe('the PDF corpus', () => {
  it('resolves test/fixtures/corpus/pdf from the test file', () => {
    expect(existsSync(fileURLToPath(PDF_CORPUS))).toBe(true);
    expect(existsSync(fileURLToPath(new URL('multi-column-2p.pdf', PDF_CORPUS)))).toBe(true);
  });

  for (const { name, pages } of VALID) {
    it(`converts ${name} without errors, with sensible page counts`, async () => {
      const doc = await convertBytes(corpusBytes(name), { mode: 'fast' });
      expect(doc.metadata.numPages).toBe(pages);
      expect(doc.metadata.totalPages).toBe(pages);
      expect(doc.pages.map((page) => page.status)).toEqual(Array.from({ length: pages }, () => 'ok'));
      expect(doc.warnings).toBeUndefined();
      for (const page of doc.pages) {
        expect(page.width).toBeGreaterThan(100);
        expect(page.height).toBeGreaterThan(100);
        expect(page.blocks.length).toBeGreaterThan(0);
      }
      expect(mainMarkdown(doc).length).toBeGreaterThan(500);
    });
  }

  it('multi-column-2p: reads column 1 before column 2 and finds title and headings', async () => {
    const doc = await convertBytes(corpusBytes('multi-column-2p.pdf'));
    const markdown = mainMarkdown(doc);
    // Page 1: the end of the left column (Introduction) comes before the top of the right column.
    const left = position(markdown, 'indicating the needs of improving retrieval.');
    const right = position(markdown, 'Retrieval in open-domain QA is usually implemented using TF-IDF or BM25');
    expect(left).toBeGreaterThan(0);
    expect(right).toBeGreaterThan(left);
    // Page 2: the left column's "2 Background" section precedes the right column's "3 Dense Passage Retriever".
    const background = position(markdown, '## 2 Background');
    const dpr = position(markdown, '## 3 Dense Passage Retriever (DPR)');
    expect(background).toBeGreaterThan(right);
    expect(dpr).toBeGreaterThan(background);
    expect(position(markdown, 'QA datasets, it also suffers from two weaknesses.')).toBeLessThan(background);
    expect(allBlocks(doc).find((block) => block.type === 'title')?.markdown).toBe(
      '# Dense Passage Retrieval for Open-Domain Question Answering',
    );
    expect(markdown).toContain('### 3.1 Overview');
    // The vertical arXiv stamp in the margin is kept as furniture, out of the main text.
    const stamp = allBlocks(doc).find((block) => block.markdown.startsWith('arXiv:2004.04906v3'));
    expect(stamp).toMatchObject({ label: 'rotated', furniture: true });
  });

  it('arXiv page: yields the results table, the section headings and the running head as furniture', async () => {
    const doc = await convertBytes(corpusBytes('2305.03393v1-pg9.pdf'));
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    const table = tables[0]!.markdown;
    // Its ruled two-level header (TEDs over simple, complex, all) keeps its spans: an HTML table.
    expect(table.split('\n').slice(0, 4)).toEqual([
      '<table>',
      '<tr><th rowspan="2"># enc-layers</th><th rowspan="2"># dec-layers</th><th rowspan="2">Language</th><th colspan="3">TEDs</th><th rowspan="2">mAP (0.75)</th><th rowspan="2">Inference time (secs)</th></tr>',
      '<tr><th>simple</th><th>complex</th><th>all</th></tr>',
      '<tr><td>6</td><td>6</td><td>OTSL HTML</td><td>0.965 0.969</td><td>0.934 0.927</td><td>0.955 0.955</td><td>0.88 0.857</td><td>2.73 5.39</td></tr>',
    ]);
    const markdown = mainMarkdown(doc);
    expect(markdown).toContain('## 5.1 Hyper Parameter Optimization');
    expect(markdown).toContain('## 5.2 Quantitative Results');
    expect(markdown.startsWith('order to compute the TED score.')).toBe(true);
    expect(allBlocks(doc)[0]).toMatchObject({ type: 'page_header', furniture: true });
    expect(allBlocks(doc).some((block) => block.type === 'caption' && block.markdown.startsWith('Table 1.'))).toBe(true);
  });

  it('code_and_formula: a fenced code listing, headings, the formula and page numbers', async () => {
    const doc = await convertBytes(corpusBytes('code_and_formula.pdf'));
    const markdown = mainMarkdown(doc);
    expect(markdown).toContain('## JavaScript Code Example');
    expect(markdown).toContain('## Formula');
    const code = allBlocks(doc).find((block) => block.label === 'code');
    // LiteParse sets the listing's tokens as written ("add(a, b)"); pdfjs's runs put a space between each.
    expect(code?.markdown).toMatch(/^```\nfunction +add ?\(a ?, b ?\) \{\n +return a \+ b ?;\n\}\nconsole ?\. ?log/);
    expect(allBlocks(doc).find((block) => block.type === 'formula')?.markdown).toBe('a² + 8 = 12');
    expect(doc.pages.map((page) => page.blocks[page.blocks.length - 1])).toEqual([
      expect.objectContaining({ type: 'page_number', markdown: '1', furniture: true }),
      expect.objectContaining({ type: 'page_number', markdown: '1', furniture: true }),
    ]);
  });

  it('korean-text-with-tables: Hangul text, both panels in order, the tables and the notes as lists', async () => {
    const doc = await convertBytes(corpusBytes('korean-text-with-tables.pdf'));
    const markdown = mainMarkdown(doc);
    expect(doc.metadata.language).toBe('ko');
    // The bold header row heads each table (it used to stand apart and the first row was taken for the header).
    expect(markdown).toContain('| 업종 | 적립 대상 |\n| --- | --- |\n| 할인점 | 이마트, 이마트 트레이더스, 롯데마트, 홈플러스 |');
    expect(markdown).not.toContain('\n업종 적립 대상\n');
    expect(markdown).toContain('| 커피전문점 | 스타벅스, 투썸플레이스, 카페베네, 탐앤탐스, 커피빈, 엔제리너스, 할리스커피, 파스쿠찌, 아티제, 폴 바셋 |');
    expect(position(markdown, '할인점·주유·온라인쇼핑몰')).toBeLessThan(position(markdown, '커피전문점·제과점·편의점'));
    expect(markdown).toContain('- 전월 이용금액 40만원 이상 시 제공');
    // The panel's two parts, each a label over its sentences, are prose side by side: the first lines of both are no
    // table's rows, and each sentence reads whole.
    expect(markdown).not.toContain('| 서비스 제공 기준 |');
    expect(markdown).toContain('매월 1일부터 말일까지 이용한 일시불 및 할부 이용금액');
    expect(markdown).toContain('무이자할부, 다이어트할부, 삼성카드 할인이 적용된 일시불 및 할부 이용금액, 기프트/선불카드(포인트, 사이버머니 등 전자지급수단 포함) 구매 및 충전, 상품권 구매건');
  });

  it('right_to_left_01: Arabic in logical order, the heading and Latin words set apart', async () => {
    const doc = await convertBytes(corpusBytes('right_to_left_01.pdf'));
    const blocks = allBlocks(doc);
    // The page is tagged, its heading H1: the document's title, as its tags say.
    expect(blocks[0]!.type).toBe('title');
    expect(blocks[0]!.markdown).toMatch(/^# تحسين الإنتاجية .* R و Python$/);
    const markdown = mainMarkdown(doc);
    expect(markdown).toContain('تعتبر البرمجة بلغة R و Python من');
    // Each lam-alef is one glyph of the font: its two letters in their order, as the reference has them.
    for (const word of ['المشكلات', 'خلال', 'تحليلات', 'علاوة', 'لإدارة']) expect(markdown).toContain(word);
    for (const backwards of ['المشكالت', 'خالل', 'تحليالت', 'عالوة', 'إلدارة']) expect(markdown).not.toContain(backwards);
    expect(markdown.split('\n\n')).toHaveLength(5);
    expect(doc.metadata.author).toBe('Ahmad Jaber T Algadeeb');
  });

  it('password.pdf is ENCRYPTED_DOCUMENT', async () => {
    const error = await rejectionOf(convertBytes(corpusBytes('password.pdf')));
    expect(error).toMatchObject({ apiCode: 'ENCRYPTED_DOCUMENT', message: 'the PDF is password-protected' });
  });

  it('EMPTY-zero-bytes.pdf is EMPTY_DOCUMENT with a clear message', async () => {
    const error = await rejectionOf(convertBytes(corpusBytes('EMPTY-zero-bytes.pdf')));
    expect(error).toMatchObject({ apiCode: 'EMPTY_DOCUMENT', message: 'the PDF is empty (0 bytes)' });
  });

  it('TRUNCATED-layout-parser-paper-fast.pdf is CORRUPT_DOCUMENT: its first half holds fonts only, no page', async () => {
    const error = await rejectionOf(convertBytes(corpusBytes('TRUNCATED-layout-parser-paper-fast.pdf')));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toBe('the PDF is corrupt or truncated and no page could be recovered (Invalid PDF structure.)');
  });

  for (const name of ['loremipsum-flat.pdf', 'ocr_test.pdf']) {
    it(`${name} (no text layer) is OCR_REQUIRED in mode fast`, async () => {
      const error = await rejectionOf(convertBytes(corpusBytes(name), { mode: 'fast' }));
      expect(error.apiCode).toBe('OCR_REQUIRED');
      expect(error.message).toBe(
        'page(s) 1 have no text layer (scanned or image-only) and mode "fast" does not OCR; use mode "auto" or "ocr"',
      );
    });
  }

  it('ocr_test.pdf (no text layer) is read by OCR in mode auto', async () => {
    const doc = await convertBytes(corpusBytes('ocr_test.pdf'), { mode: 'auto' });
    expect(doc.pages).toEqual([expect.objectContaining({ pageNumber: 1, status: 'ok' })]);
    expect(doc.warnings).toBeUndefined();
    // The reference is docling's tesseract output for the same page.
    expect(mainMarkdown(doc)).toBe(readFileSync(new URL('ocr_test.expected.md', PDF_CORPUS), 'utf8').trim());
    expect(allBlocks(doc).map((block) => block.source)).toEqual(['full_page']);
  });

  it('loremipsum-flat.pdf (no text layer) is read by OCR in mode auto and keeps its document-info title', async () => {
    const doc = await convertBytes(corpusBytes('loremipsum-flat.pdf'));
    expect(doc.metadata.title).toBe('loremipsum.jpg');
    expect(mainMarkdown(doc)).toMatch(/^Lorem ipsum dolor sit amet, consectetur adipiscing elit\./);
  });

  it('maxPages 1 on a 2-page PDF parses one page and reports both counts', async () => {
    const doc = await convertBytes(corpusBytes('multi-column-2p.pdf'), { maxPages: 1 });
    expect(doc.metadata).toMatchObject({ numPages: 1, totalPages: 2 });
    expect(doc.pages.map((page) => page.pageNumber)).toEqual([1]);
  });
});
