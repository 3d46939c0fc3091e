/** End to end on the generated fixtures (test/engine/pdf/fixtures): furniture, structure, errors, limits. */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { EngineError } from '../../../src/engine/engine-error.js';
import {
  findPdfHeader,
  formatPageList,
  openPdf,
  readDocument,
  type PdfDocumentSource,
} from '../../../src/engine/pdf/convert-pdf.js';
import { terminateOcrWorkers } from '../../../src/engine/pdf/ocr/tesseract.js';
import { recoverTruncatedPdf } from '../../../src/engine/pdf/recover.js';
import { COLUMN_ONE_FIRST, COLUMN_ONE_LAST, COLUMN_TWO_FIRST, FIXTURES } from './fixtures/fixtures.js';
import {
  allBlocks,
  convertBytes,
  corpusBytes,
  FIXTURE_DIR,
  fixtureBytes,
  mainMarkdown,
  optionsFor,
  rejectionOf,
} from './helpers.js';


// The blank page OCR'd in mode auto starts this process's tesseract worker: end it, so the test process exits cleanly.
afterAll(() => terminateOcrWorkers());
describe('fixtures', () => {
  it('the committed fixtures match their generator (npx tsx test/engine/pdf/fixtures/make-fixtures.ts)', () => {
    for (const [name, make] of Object.entries(FIXTURES)) {
      const committed = new Uint8Array(readFileSync(new URL(name, FIXTURE_DIR)));
      expect(Buffer.from(committed).equals(Buffer.from(make())), name).toBe(true);
      expect(committed.length, name).toBeLessThan(10_000);
    }
  });
});

describe('convertPdf on the ACME report (3 pages, repeated header, page-number footers)', () => {
  const model = convertBytes(fixtureBytes('acme-report-3p.pdf'));

  it('reports pages, sizes and metadata', async () => {
    const doc = await model;
    expect(doc.metadata).toMatchObject({ numPages: 3, totalPages: 3, title: 'ACME Quarterly Report', author: 'ACME Finance' });
    expect(doc.pages.map((page) => [page.pageNumber, page.width, page.height, page.status])).toEqual([
      [1, 612, 792, 'ok'],
      [2, 612, 792, 'ok'],
      [3, 612, 792, 'ok'],
    ]);
    expect(doc.warnings).toBeUndefined();
  });

  it('types the repeated header and the page-number footers as furniture, on every page', async () => {
    const doc = await model;
    for (const page of doc.pages) {
      const header = page.blocks[0]!;
      const footer = page.blocks[page.blocks.length - 1]!;
      expect(header).toMatchObject({ type: 'page_header', markdown: 'ACME Report', furniture: true });
      expect(footer).toMatchObject({ type: 'page_number', markdown: `Page ${page.pageNumber} of 3`, furniture: true });
    }
    expect(mainMarkdown(doc)).not.toContain('ACME Report');
    expect(mainMarkdown(doc)).not.toContain('Page 2 of 3');
  });

  it('finds the title, section headers with levels, lists, the table and the code', async () => {
    const doc = await model;
    const blocks = allBlocks(doc).filter((block) => !block.furniture);
    const byType = (type: string) => blocks.filter((block) => block.type === type).map((block) => block.markdown);
    expect(byType('title')).toEqual(['# Quarterly Results 2024']);
    expect(byType('section_header')).toEqual([
      '## Highlights',
      '### Regional revenue',
      '## Market Overview and Outlook for the Coming Fiscal Year',
      '## Outlook',
      '### Savings model',
    ]);
    const lists = blocks.filter((block) => block.label === 'list').map((block) => block.markdown);
    expect(lists).toEqual([
      '- Revenue grew in three of four regions\n- Two new plants opened in the spring\n- Customer satisfaction reached a record high',
      '1. Expand the western plant\n2. Hire forty engineers\n3. Close the legacy warehouse',
    ]);
    expect(byType('table')).toEqual([
      '| Region | Revenue | Growth |\n| --- | --- | --- |\n| North | 1,200 | 4% |\n| South | 950 | -2% |\n| West \\| East | 1,010 | 7% |',
    ]);
    const code = blocks.find((block) => block.label === 'code');
    expect(code?.markdown).toBe('```\nfunction total(values) {\n  return values.reduce((a, b) => a + b, 0);\n}\n```');
  });

  it('joins words hyphenated across lines, keeping real compounds', async () => {
    const text = mainMarkdown(await model);
    expect(text).toContain('its digital transformation program');
    expect(text).toContain('a state-of-the-art logistics platform');
  });

  it('reads page 2 column by column, the spanning paragraph last', async () => {
    const doc = await model;
    const text = doc.pages[1]!.blocks.map((block) => block.markdown).join('\n\n');
    const first = text.indexOf(COLUMN_ONE_FIRST);
    const endOfOne = text.indexOf(COLUMN_ONE_LAST);
    const two = text.indexOf(COLUMN_TWO_FIRST);
    const closing = text.indexOf('This closing paragraph spans the full width');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(endOfOne).toBeGreaterThan(first);
    expect(two).toBeGreaterThan(endOfOne);
    expect(closing).toBeGreaterThan(two);
    expect(text).toContain('below both columns of text, and must be read after the second column.');
  });

  it('gives every block a normalised bbox, native_text source and null confidences', async () => {
    for (const block of allBlocks(await model)) {
      expect(block.source).toBe('native_text');
      expect(block.confidence).toEqual({ layout: null, ocr: null });
      const [x0, y0, x1, y1] = block.bbox!;
      for (const v of block.bbox!) expect(v).toBeGreaterThanOrEqual(0);
      for (const v of block.bbox!) expect(v).toBeLessThanOrEqual(1);
      expect(x1).toBeGreaterThanOrEqual(x0);
      expect(y1).toBeGreaterThanOrEqual(y0);
    }
    const doc = await model;
    const header = doc.pages[0]!.blocks[0]!.bbox!;
    expect(header[1]).toBeLessThan(0.1);
  });

  it('caps the pages parsed with maxPages and still reports the true count', async () => {
    const doc = await convertBytes(fixtureBytes('acme-report-3p.pdf'), { maxPages: 1 });
    expect(doc.metadata).toMatchObject({ numPages: 1, totalPages: 3 });
    expect(doc.pages).toHaveLength(1);
  });

  it('leaves the caller bytes intact (pdfjs would detach a transferred buffer)', async () => {
    const bytes = fixtureBytes('acme-report-3p.pdf');
    const copy = bytes.slice();
    await convertBytes(bytes);
    expect(Buffer.from(bytes).equals(Buffer.from(copy))).toBe(true);
  });
});

describe('convertPdf on damaged and unusual files', () => {
  it('recovers the pages of a file cut short before its page tree and xref, with a warning', async () => {
    const doc = await convertBytes(fixtureBytes('acme-truncated.pdf'));
    expect(doc.metadata).toMatchObject({ numPages: 3, totalPages: 3 });
    expect(doc.warnings?.[0]).toMatch(/damaged/);
    expect(mainMarkdown(doc)).toContain('# Quarterly Results 2024');
  });

  it('recoverTruncatedPdf gives up when there are no page objects in the clear', () => {
    expect(recoverTruncatedPdf(new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<< /Length 3 >>\nstream\nabc'))).toBeNull();
  });

  it('marks a page without a text layer partial and says so, keeping the other pages', async () => {
    for (const mode of ['fast', 'auto'] as const) {
      const doc = await convertBytes(fixtureBytes('mixed-text-and-blank.pdf'), { mode });
      expect(doc.pages.map((page) => page.status)).toEqual(['ok', 'partial']);
      expect(doc.pages[1]!.blocks).toEqual([]);
      const cause = mode === 'fast' ? 'mode "fast" does not OCR' : 'OCR found no text on them';
      expect(doc.warnings).toEqual([expect.stringMatching(new RegExp(`^Page\\(s\\) 2 have no text layer.*${cause}`))]);
    }
  });

  it('reads a page turned by /Rotate 90 upright, with the rotated page size', async () => {
    const doc = await convertBytes(fixtureBytes('rotated-page.pdf'));
    expect(doc.pages[0]).toMatchObject({ width: 792, height: 612, status: 'ok' });
    expect(mainMarkdown(doc)).toBe(
      '# Landscape Summary\n\nThis landscape page is stored portrait and turned by its Rotate entry; its text reads upright.',
    );
  });

  it('refuses a 0-byte file as EMPTY_DOCUMENT', async () => {
    const error = await rejectionOf(convertBytes(new Uint8Array()));
    expect(error).toBeInstanceOf(EngineError);
    expect(error.apiCode).toBe('EMPTY_DOCUMENT');
    expect(error.message).toBe('the PDF is empty (0 bytes)');
  });

  it('refuses bytes without a %PDF header as CORRUPT_DOCUMENT', async () => {
    const error = await rejectionOf(convertBytes(new TextEncoder().encode('<html>not a pdf</html>')));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toMatch(/not a PDF: no %PDF- header/);
  });

  it('reports a header-only file as corrupt, naming the cause', async () => {
    const error = await rejectionOf(convertBytes(new TextEncoder().encode('%PDF-1.7\n%%EOF\n')));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toMatch(/corrupt or truncated|could not be read/);
  });
});

describe('one pdfjs worker for every document of a thread', () => {
  it('converts a document the same after others failed, were recovered or were abandoned half-read', async () => {
    const report = fixtureBytes('acme-report-3p.pdf');
    const first = mainMarkdown(await convertBytes(report));
    expect((await rejectionOf(convertBytes(corpusBytes('password.pdf')))).apiCode).toBe('ENCRYPTED_DOCUMENT');
    expect((await rejectionOf(convertBytes(new Uint8Array(Buffer.from('%PDF-1.7\ngarbage'))))).apiCode).toBe('CORRUPT_DOCUMENT');
    await convertBytes(fixtureBytes('acme-truncated.pdf'));
    const { doc } = await openPdf(report);
    await doc.getPage(1);
    await doc.destroy();
    // Interleaved: two documents open at once on the same worker.
    const [again, other] = await Promise.all([convertBytes(report), convertBytes(corpusBytes('code_and_formula.pdf'))]);
    expect(mainMarkdown(again)).toBe(first);
    expect(mainMarkdown(other)).toContain('## JavaScript Code Example');
  });
});

describe('offline resources', () => {
  it('reads Japanese through a predefined CMap from the package folder, without fetching anything', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      const doc = await convertBytes(fixtureBytes('cjk-predefined-cmap.pdf'));
      expect(mainMarkdown(doc)).toBe('# 日本語のテキスト\n\nLatin text beside it.');
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it('leaves the native Array.prototype.push in place (the pdfjs legacy polyfill is slow)', async () => {
    await convertBytes(fixtureBytes('mixed-text-and-blank.pdf'));
    expect(Function.prototype.toString.call(Array.prototype.push)).toContain('[native code]');
    // core-js's replacement also prints as native code; unlike the built-in, it is a constructor.
    expect(Object.hasOwn(Array.prototype.push, 'prototype')).toBe(false);
  });
});

describe('metadata and page failures', () => {
  it('takes the title from XMP when the document info has none, and omits an empty author', async () => {
    const doc = await convertBytes(fixtureBytes('xmp-title.pdf'));
    expect(doc.metadata.title).toBe('Title From XMP');
    expect(doc.metadata).not.toHaveProperty('author');
  });

  it('marks a page whose extraction throws as failed and keeps going', async () => {
    const { doc } = await openPdf(fixtureBytes('acme-report-3p.pdf'));
    try {
      const source: PdfDocumentSource = {
        numPages: doc.numPages,
        getMetadata: () => doc.getMetadata(),
        getPage: async (n: number) => {
          if (n === 2) throw new Error('bad page object');
          const page = await doc.getPage(n);
          if (n === 3) page.getTextContent = () => Promise.reject(new Error('bad content stream'));
          return page;
        },
      };
      const model = await readDocument(source, optionsFor().parsers[0]!);
      expect(model.pages.map((page) => page.status)).toEqual(['ok', 'failed', 'failed']);
      expect(model.pages[1]).toMatchObject({ blocks: [], width: null, height: null });
      expect(model.pages[2]).toMatchObject({ blocks: [], width: 612, height: 792 });
      expect(model.warnings).toEqual(['Page(s) 2-3 could not be read: bad page object']);
    } finally {
      await doc.destroy();
    }
  });

  it('is CORRUPT_DOCUMENT, naming the cause, when no page can be read', async () => {
    const { doc } = await openPdf(fixtureBytes('acme-report-3p.pdf'));
    try {
      const source: PdfDocumentSource = {
        numPages: 2,
        getMetadata: () => doc.getMetadata(),
        getPage: () => Promise.reject(new Error('bad page object')),
      };
      const error = await rejectionOf(readDocument(source, optionsFor().parsers[0]!));
      expect(error).toMatchObject({
        apiCode: 'CORRUPT_DOCUMENT',
        message: 'no page of the PDF could be read: page 1: bad page object',
      });
    } finally {
      await doc.destroy();
    }
  });
});

describe('helpers', () => {
  it('finds the header within the first KiB only', () => {
    expect(findPdfHeader(new TextEncoder().encode('%PDF-1.4'))).toBe(0);
    expect(findPdfHeader(new TextEncoder().encode(`${' '.repeat(100)}%PDF-1.4`))).toBe(100);
    expect(findPdfHeader(new TextEncoder().encode(`${' '.repeat(2000)}%PDF-1.4`))).toBe(-1);
  });

  it('formats page lists as ranges', () => {
    expect(formatPageList([1, 2, 3, 5, 7, 8])).toBe('1-3, 5, 7-8');
    expect(formatPageList(Array.from({ length: 40 }, (_, i) => i * 2 + 1))).toMatch(/… \(40 pages\)$/);
  });
});
